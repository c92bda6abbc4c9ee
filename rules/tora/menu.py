"""TORA's legal actions as menus (the seam's ``menu`` and ``choices``): grouped by the piece
that acts, each action in plain words beside its canonical notation.

A group lists its actions flat when a menu holds them all (25); a Cavalry or a Ruler on the
long board may have 90, so they are then grouped first by where the action goes (north,
north-east, ... or in place). Measured over random long-board positions a direction holds at
most 18, so every action is at most four picks away: a kind of piece (when a side has more
than 25 acting pieces), the piece, a direction, the action.

Only what the acting player may know is used: their own pieces and the visible enemy ones
(``Position.at`` never returns a hidden Assassin)."""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import TYPE_CHECKING

from ..protocol import Choice, ChoiceGroup
from .actions import CROWN, FIRE, MOVE, READY, SEARCH, STANCE, Action
from .geometry import DIRECTION_VECTORS, DIRECTIONS, distance, name
from .pieces import ASSASSIN, KIND_NAMES, RULER

if TYPE_CHECKING:
    from .game import Game

MENU = 25  # options in one Discord select menu
CROWN_KEY = "crown"
CATEGORIES = {
    "G": "Generals",
    "R": "Ruler",
    "A": "Archers",
    "S": "Soldiers",
    "H": "Cavalry",
    "C": "Cannons",
    "X": "Assassin",
}
COMPASS = {  # (sign of dh, sign of dv) -> words; N is v+1, E is h+1 (R51)
    (0, 1): "north",
    (1, 1): "north-east",
    (1, 0): "east",
    (1, -1): "south-east",
    (0, -1): "south",
    (-1, -1): "south-west",
    (-1, 0): "west",
    (-1, 1): "north-west",
}
IN_PLACE = "in place"
FIRE_WORDS = {d: COMPASS[v] for d, v in zip(DIRECTIONS, DIRECTION_VECTORS, strict=True)}


def menu(game: Game) -> tuple[ChoiceGroup, ...]:
    """One group per acting piece (its searches included), in the engine's order."""
    groups: dict[str, list[Action]] = defaultdict(list)
    for action in game.legal_actions():
        groups[group_key(action)].append(action)
    return tuple(_group(game, key, actions) for key, actions in groups.items())


def choices(game: Game, key: str | None = None) -> tuple[Choice, ...]:
    """The actions of one group, or of all (None), with their words and menu paths."""
    groups: dict[str, list[Action]] = defaultdict(list)
    for action in game.legal_actions():
        if key is None or group_key(action) == key:
            groups[group_key(action)].append(action)
    out: list[Choice] = []
    for group, actions in groups.items():
        texts = game.notations(actions)
        flat = len(actions) <= MENU
        for action, text in zip(actions, texts, strict=True):
            words = label(game, action, text)
            path = (words,) if flat else (_direction(action), words)
            out.append(Choice(text, words, path, group))
    return tuple(out)


def group_key(action: Action) -> str:
    """``Av5h7``: the piece's letter and square (a hidden Assassin may stand on a square
    another piece of its side holds, so the square alone would not do)."""
    if action.kind == CROWN:
        return CROWN_KEY
    return f"{action.letter}{name(action.origin)}"


def _group(game: Game, key: str, actions: list[Action]) -> ChoiceGroup:
    first = actions[0]
    if first.kind == CROWN:
        return ChoiceGroup(key, "Crown a General", "the Ruler is gone (R24)", "Crown", len(actions))
    piece = f"{_piece_name(game, first)} {name(first.origin)}"
    category = CATEGORIES.get(first.letter, "Pieces")
    return ChoiceGroup(key, piece, _summary(game, actions), category, len(actions))


def _summary(game: Game, actions: list[Action]) -> str:
    """``4 moves, 2 shots``: how many actions of each sort."""
    counts = Counter(_sort(game, a) for a in actions)
    words = {
        "move": "moves",
        "attack": "attacks",
        "shot": "shots",
        "search": "searches",
        "other": "others",
    }
    return ", ".join(f"{counts[s]} {s if counts[s] == 1 else words[s]}" for s in words if counts[s])


def _sort(game: Game, action: Action) -> str:
    if action.kind == SEARCH:
        return "search"
    if action.kind == FIRE or (action.target and distance(_rest(action), action.target) > 1):
        return "shot"
    if action.kind == MOVE and (action.target or _enemy(game, action.dest)):
        return "attack"
    if action.kind == MOVE:
        return "move"
    return "other"


def _direction(action: Action) -> str:
    """Where the action goes from its piece, for the first step of a long menu."""
    where = action.path[-1] if action.path else action.target
    if not where:
        return IN_PLACE
    dh, dv = (where >> 5) - (action.origin >> 5), (where & 31) - (action.origin & 31)
    return COMPASS[((dh > 0) - (dh < 0), (dv > 0) - (dv < 0))]


def label(game: Game, action: Action, text: str) -> str:
    """The action in plain words: ``move to v4h6 and shoot the Soldier on v3h6``."""
    if action.kind == CROWN:
        return f"crown the General on {name(action.origin)}"
    words = _operation(game, action)
    named = [text.find(part) for part in (" via ", " with ") if part in text]
    if named:  # the path or the supporters matter here: the notation names them
        words += f" ({text[min(named) + 1 :]})"
    return words[:100]


def _operation(game: Game, action: Action) -> str:
    kind = action.kind
    if kind == STANCE:
        return "take the defensive stance" if action.stance == "defend" else "stand to attack"
    if kind == READY:
        return "make ready to fire"
    if kind == FIRE:
        return f"fire {FIRE_WORDS[DIRECTIONS[action.direction]]}"
    if kind == SEARCH:
        where = f"move to {name(action.dest)} and search" if action.path else "search"
        return f"{where} around {name(action.dest)}"
    moved = f"move to {name(action.dest)}" if action.path else ""
    if not action.target:
        victim = _enemy(game, action.dest)
        return f"attack {victim} on {name(action.dest)}" if victim else moved
    verb = "shoot" if distance(_rest(action), action.target) > 1 else "attack"
    hit = f"{verb} {_enemy(game, action.target) or 'the square'} on {name(action.target)}"
    return f"{moved} and {hit}" if moved else hit


def _rest(action: Action) -> int:
    return action.path[-1] if action.path else action.origin


def _enemy(game: Game, sq: int) -> str:
    """``the Soldier``: the visible enemy piece on ``sq``, if any."""
    piece = game.pos.at(sq)
    if piece is None or piece.side == game.pos.side:
        return ""
    return f"the {_kind_name(game, piece.kind, piece.side)}"


def _piece_name(game: Game, action: Action) -> str:
    if action.letter == ASSASSIN:
        return "Assassin"
    return _kind_name(game, action.letter, game.pos.side)


def _kind_name(game: Game, kind: str, side: int) -> str:
    if kind == RULER:
        return "King" if game.rulers[side] == "K" else "Queen"
    return KIND_NAMES[kind]
