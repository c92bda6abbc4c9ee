"""TORA's legal actions as menus (the seam's ``menu`` and ``choices``): grouped by the piece
that acts, each action in plain words beside its canonical notation.

A group lists its actions flat when a menu holds them all (25); a Cavalry or a Ruler on the
long board may have 90, so they are then grouped first by where the action goes (north,
north-east, ... or in place). Measured over random long-board positions a direction holds at
most 18, so every action is at most four picks away: a kind of piece (when a side has more
than 25 acting pieces), the piece, a direction, the action.

Only what the acting player may know is used: their own pieces and the visible enemy ones
(``Position.at`` never returns a hidden Assassin). Each action says which squares it touches
(``Touch``) and, for a command piece, whether the turn could end with it where the action
leaves it (R30), judged on the game as the player knows it (``for_player``)."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from functools import lru_cache

from ..errors import ActionError
from ..protocol import FROM, HIT, TO, VIA, WITH, Choice, ChoiceGroup, Touch
from ..words import Text, frame, msg, msg_n
from .actions import CROWN, FIRE, MOVE, READY, SEARCH, STANCE, Action
from .events import COMPASS_WORDS
from .geometry import DELTAS, DIRECTION_VECTORS, DIRECTIONS, distance, name, on_board
from .kept import keep
from .neighbourhood import cannon_key, piece_key
from .pieces import ASSASSIN, CANNON, CAVALRY, COMMAND_KINDS, KIND_NAMES, RULER, SOLDIER
from .play import Play
from .position import Position

MENU = 25  # options in one Discord select menu
LABEL = 100  # characters of a label
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
# (sign of dh, sign of dv) -> words; N is v+1, E is h+1 (R51)
COMPASS = {v: COMPASS_WORDS[d] for d, v in zip(DIRECTIONS, DIRECTION_VECTORS, strict=True)}
IN_PLACE = msg("in place")


def menu(game: Play) -> tuple[ChoiceGroup, ...]:
    """One group per acting piece (its searches included), in the engine's order."""
    return tuple(_group(game, key, actions) for key, actions in _grouped(game).items())


def choices(game: Play, key: str | None = None) -> tuple[Choice, ...]:
    """The actions of one group, or of all (None), with their words and menu paths."""
    groups = _grouped(game)
    if key is not None:
        groups = {key: groups[key]} if key in groups else {}
    out: list[Choice] = []
    for group, actions in groups.items():
        out += _made(game, group, actions)[1]
    return tuple(out)


def menu_and_choices(game: Play) -> tuple[tuple[ChoiceGroup, ...], tuple[Choice, ...]]:
    """``menu`` and ``choices`` of all, from one list of the legal actions (each would
    work it out again)."""
    headers: list[ChoiceGroup] = []
    out: list[Choice] = []
    for group, actions in _grouped(game).items():
        header, found = _made(game, group, actions)
        headers.append(header)
        out += found
    return tuple(headers), tuple(out)


def _made(game: Play, group: str, actions: list[Action]) -> Made:
    """The header and the choices of one group of ``_grouped``'s, kept or made."""
    kept = _kept_key(game, actions)
    found = None if kept is None else _kept.get(kept)
    if found is None:
        found = (_group(game, group, actions), _group_choices(game, group, actions))
        if kept is not None:
            keep(_kept, kept, found, _KEPT)
    return found


def _grouped(game: Play) -> dict[str, list[Action]]:
    """The legal actions by ``group_key``, in the engine's order."""
    groups: dict[str, list[Action]] = defaultdict(list)
    for action in game.legal_actions():
        groups[group_key(action)].append(action)
    return groups


def _group_choices(game: Play, group: str, actions: list[Action]) -> tuple[Choice, ...]:
    """The choices of one group: labels that say the same of two actions get each action's
    notation beside them."""
    texts = game.notations(actions)
    seen = [_seen(game, action) for action in actions]
    said_all = [_worded(a, t, *s) for a, t, s in zip(actions, texts, seen, strict=True)]
    counts = Counter(said_all)
    flat = len(actions) <= MENU
    return tuple(
        _choice(action, text, named, counts[said] > 1, flat, group, _shot(game, action))
        for action, text, named, said in zip(actions, texts, seen, said_all, strict=True)
    )


@lru_cache(maxsize=16384)
def _choice(
    action: Action,
    text: str,
    seen: Seen,
    twice: bool,
    flat: bool,
    group: str,
    line: tuple[int, ...],
) -> Choice:
    """The choice of ``action`` written ``text`` (``seen``: what ``_seen`` tells of it), its
    label said ``twice`` in its group, in a ``flat`` menu, of ``group``, its shot's
    squares ``line``: made once for every state that offers it so (a Choice is immutable;
    most of a piece's choices stay the same when its surroundings change)."""
    said = _worded(action, text, *seen)
    if twice:
        said = _fit(frame("{label} ({notation})", label=said, notation=text))
    path = (said,) if flat else (_direction(action), said)
    touches = _touches(action, line, seen[2] == STRIKE)
    return Choice(text, said, path, group, touches, final=action.kind == SEARCH)


def _kept_key(game: Play, actions: list[Action]) -> tuple[object, ...] | None:
    """What a visible piece's header and choices read, so that positions a move apart share
    them (autocomplete and the menus ask for every position of a match): its actions, how
    each side's Ruler is written, whether the match has Assassins, and its neighbourhood
    (``neighbourhood``: the squares within its reach, for a Cannon its lines and its
    neighbours, which hold the visible pieces its words and summary name and its shots'
    lines). Its notations are resolved against its ways to act: every choice of a Cannon's
    supporters, which the neighbourhood decides as it decides the piece's actions
    (``movegen.piece_actions`` keeps them by it), and its searches, made from those
    actions once the match has Assassins (a piece with actions may search, R43). None
    where that does not hold (a hidden Assassin, water or high ground, a free take) or
    for a crowning."""
    first = actions[0]
    pos = game.pos
    if first.kind == CROWN or pos.free_take is not None or pos.terrain.water or pos.terrain.hills:
        return None
    piece = pos.at(first.origin)
    if piece is None or piece.hidden or piece.side != pos.side or piece.kind != first.letter:
        return None
    near = cannon_key(pos, piece, True) if piece.kind == CANNON else piece_key(pos, piece)
    return (near, game.rulers, tuple(actions), pos.assassins)


# A group's header and choices by ``_kept_key``; the oldest go first when full.
Made = tuple[ChoiceGroup, tuple[Choice, ...]]
_KEPT = 1024
_kept: dict[tuple[object, ...], Made] = {}


def _fit(label: Text) -> str:
    """``label`` within a menu's ``LABEL`` characters: a longer one cut (its English then,
    in every language: no real action's words come near)."""
    return label if len(label) <= LABEL else label[:LABEL]


def _shot(game: Play, action: Action) -> tuple[int, ...]:
    """The squares a shot passes and hits (``_line``); () for any other action."""
    return tuple(_line(game, action.origin, action.direction)) if action.kind == FIRE else ()


@lru_cache(maxsize=16384)
def _touches(action: Action, line: tuple[int, ...], strikes: bool) -> tuple[Touch, ...]:
    """The squares ``action`` touches, in order: the piece's square, the squares it passes,
    where it lands, what it attacks (the middle square of a reach-2 shot as passed), the
    Cannon's supporters; a shot's squares are ``line`` (``_shot``: up to the first visible
    piece or the edge). A landing that ``strikes`` a command piece stops on the square
    before it and hits it (``STRIKE``). Made once for every state that offers the action
    along the same line so (they read nothing else)."""
    out = [_touch(action.origin, FROM)]
    path = action.path[:-1] if strikes else action.path
    out += [_touch(sq, VIA) for sq in path[:-1]]
    if path:
        out.append(_touch(path[-1], TO))
    if strikes:
        out.append(_touch(action.dest, HIT))
    out += [_touch(sq, VIA) for sq in line[:-1]]
    out += [_touch(sq, HIT) for sq in line[-1:]]
    if action.target:
        if action.via:
            out.append(_touch(action.via, VIA))
        out.append(_touch(action.target, HIT))
    out += [_touch(sq, WITH) for sq in action.supporters]
    return tuple(out)


def _touch(sq: int, role: str) -> Touch:
    """``Touch(name(sq), role)``, made once: a long-board position lists some 250,000 of
    them for its menus, from a few thousand distinct ones (a Touch is immutable)."""
    found = _TOUCHES.get((sq, role))
    if found is None:
        found = _TOUCHES[(sq, role)] = Touch(name(sq), role)
    return found


# Every (square, role) of both boards: at most 32 * 32 squares times the five roles.
_TOUCHES: dict[tuple[int, str], Touch] = {}


def _line(game: Play, origin: int, direction: int) -> list[int]:
    """A shot's squares from next to the Cannon to the first visible piece or the edge."""
    board = on_board(game.pos.size)
    out: list[int] = []
    sq = origin + DELTAS[direction]
    while sq in board:
        out.append(sq)
        if game.pos.at(sq) is not None:
            break
        sq += DELTAS[direction]
    return out


def warnings(game: Play, notations: Sequence[str]) -> tuple[str, ...]:
    """For each legal action of ``notations``: the R30 warning when it leaves a command
    piece where, as far as the player can see, the turn could not end. Tried on the
    player's own copy of the game, so a warning never depends on a hidden Assassin."""
    trial: Play | None = None
    out: list[str] = []
    for text in notations:
        action = game.parse_action(text)
        piece = game.pos.at(action.origin)
        if piece is None or piece.kind not in COMMAND_KINDS or action.kind in (CROWN, SEARCH):
            out.append("")  # a search is judged when it is applied (R43), never taken back
            continue
        trial = trial or game.for_player(game.pos.side)
        out.append(R30_WARNING if _stays_in_jeopardy(trial, action, piece.id) else "")
    return tuple(out)


def _stays_in_jeopardy(trial: Play, action: Action, piece: int) -> bool:
    try:
        trial.apply(action)
    except ActionError:
        return False
    try:
        return any(p.id == piece for p in trial.r30_offenders())
    finally:
        trial.undo()


R30_WARNING = msg("the turn could not end with it there: it would stand in jeopardy (R30)")


def group_key(action: Action) -> str:
    """``Av5h7``: the piece's letter and square (a hidden Assassin may stand on a square
    another piece of its side holds, so the square alone would not do)."""
    if action.kind == CROWN:
        return CROWN_KEY
    return _group_key(action.letter, action.origin)


@lru_cache(maxsize=4096)
def _group_key(letter: str, origin: int) -> str:
    """Made once: menus ask for the group of every legal action of every state."""
    return f"{letter}{name(origin)}"


def _group(game: Play, key: str, actions: list[Action]) -> ChoiceGroup:
    first = actions[0]
    if first.kind == CROWN:
        return ChoiceGroup(
            key,
            msg("Crown a General"),
            msg("the Ruler is gone (R24)"),
            msg("Crown"),
            len(actions),
        )
    piece = f"{_piece_name(game, first)} {name(first.origin)}"
    category = CATEGORIES.get(first.letter, "Pieces")
    summary = _summary(game, actions)
    return ChoiceGroup(key, piece, summary, category, len(actions), name(first.origin))


SORTS = ("move", "attack", "shot", "search", "other")  # a summary counts them in this order


def _summary(game: Play, actions: list[Action]) -> Text:
    """``4 moves, 2 shots``: how many actions of each sort."""
    pos = game.pos
    counts = [0] * len(SORTS)
    for action in actions:
        counts[_sort_of(pos, action)] += 1
    return _said(tuple(counts))


@lru_cache(maxsize=4096)
def _said(counts: tuple[int, ...]) -> Text:
    """The summary of ``counts`` (one a sort, in ``SORTS``' order), made once: the same
    few hundred come back in every position (a ``Text`` is immutable)."""
    parts = [_count(sort, n) for sort, n in zip(SORTS, counts, strict=True) if n]
    said = parts[0]
    for part in parts[1:]:
        said = frame("{list}, {item}", list=said, item=part)
    return said


def _count(sort: str, n: int) -> Text:
    if sort == "move":
        return msg_n("{n} move", "{n} moves", n)
    if sort == "attack":
        return msg_n("{n} attack", "{n} attacks", n)
    if sort == "shot":
        return msg_n("{n} shot", "{n} shots", n)
    if sort == "search":
        return msg_n("{n} search", "{n} searches", n)
    return msg_n("{n} other", "{n} others", n)


def _sort(game: Play, action: Action) -> str:
    return SORTS[_sort_of(game.pos, action)]


def _sort_of(pos: Position, action: Action) -> int:
    """The sort of ``action`` on ``pos``, as its place in ``SORTS``: a move onto a visible
    enemy piece is an attack."""
    kind, target = action.kind, action.target
    if kind == SEARCH:
        return 3
    if kind == FIRE or (target and distance(_rest(action), target) > 1):
        return 2
    if kind != MOVE:
        return 4
    if target:
        return 1
    piece = pos.at(action.dest)
    return 1 if piece is not None and piece.side != pos.side else 0


def _direction(action: Action) -> Text:
    """Where the action goes from its piece, for the first step of a long menu."""
    where = action.path[-1] if action.path else action.target
    if not where:
        return IN_PLACE
    dh, dv = (where >> 5) - (action.origin >> 5), (where & 31) - (action.origin & 31)
    return COMPASS[((dh > 0) - (dh < 0), (dv > 0) - (dv < 0))]


def label(game: Play, action: Action, text: str) -> str:
    """The action in plain words: ``move to v4h6 and shoot the Soldier on v3h6``."""
    return _worded(action, text, *_seen(game, action))


# How a move lands on the visible enemy piece at its end (``_seen``): it takes it and its
# square, it strikes a command piece from the square before, which stays doomed (R11,
# docs/RULES.md), or a Cavalry and a defending Soldier are both removed (R18).
TAKE, STRIKE, TRADE = "take", "strike", "trade"
Seen = tuple[str, str, str]


def _seen(game: Play, action: Action) -> Seen:
    """The kinds of the visible enemy pieces ``action`` moves onto and attacks ("" for
    none), and how it lands on the first (``TAKE``, ``STRIKE``, ``TRADE``; "" for no such
    landing): all its label reads of the position."""
    target = _enemy(game, action.target) if action.target else ""
    if action.kind != MOVE or action.target or not action.path or _ghost(game, action):
        return "", target, ""
    piece = game.pos.at(action.dest)
    if piece is None or piece.side == game.pos.side:
        return "", target, ""
    taken = _kind_name(game, piece.kind, piece.side)
    if piece.is_command:
        return taken, target, STRIKE
    if action.letter == CAVALRY and piece.kind == SOLDIER and piece.defending:
        return taken, target, TRADE
    return taken, target, TAKE


def _ghost(game: Play, action: Action) -> bool:
    """Is ``action`` the hidden Assassin's? It ends on an enemy's square only to share it
    (R40): it lands on nothing."""
    return action.letter == ASSASSIN and game.pos.hidden_assassin(game.pos.side) is not None


def _worded(action: Action, text: str, taken: str, target: str, landing: str) -> str:
    """``label`` of ``action`` written ``text``; ``taken``, ``target`` and ``landing`` are
    its ``_seen``."""
    if action.kind == CROWN:
        return msg("crown the General on {square}", square=name(action.origin))
    return _label(action, text, taken, target, landing)


@lru_cache(maxsize=16384)
def _label(action: Action, text: str, taken: str, target: str, landing: str) -> str:
    """``label`` of ``action`` written ``text``, the visible enemy pieces it moves onto
    (``taken``, landing so: ``landing``) and attacks (``target``) of these kinds ("" for
    none): made once for every state that offers it so (a ``Text`` is immutable)."""
    words = _operation(action, taken, target, landing)
    named = [text.find(part) for part in (" via ", " with ") if part in text]
    if named:  # the path or the supporters matter here: the notation names them
        words = frame("{words} ({notation})", words=words, notation=text[min(named) + 1 :])
    return _fit(words)


def _operation(action: Action, taken: str, target: str, landing: str) -> Text:
    kind = action.kind
    if kind == STANCE:
        if action.stance == "defend":
            return msg("take the defensive stance")
        return msg("stand to attack")
    if kind == READY:
        return msg("make ready to fire")
    if kind == FIRE:
        return msg("fire {direction}", direction=COMPASS_WORDS[DIRECTIONS[action.direction]])
    if kind == SEARCH:
        if action.path:
            return msg("move to {square} and search around {square}", square=name(action.dest))
        return msg("search around {square}", square=name(action.dest))
    if landing == STRIKE:
        hit = msg("attack the {piece} on {square}", piece=taken, square=name(action.dest))
        return _from(action.origin, action.path[:-1], hit)
    if landing == TRADE:
        return msg(
            "move onto {square}, trading the Cavalry for the {piece} there",
            square=name(action.dest),
            piece=taken,
        )
    if landing == TAKE:
        return msg(
            "move onto {square}, taking the {piece} there", square=name(action.dest), piece=taken
        )
    if not action.target:
        return msg("move to {square}", square=name(action.dest))
    return _from(action.origin, action.path, _hit(action, target))


def _from(origin: int, path: tuple[int, ...], attack: Text) -> Text:
    """``attack`` made after moving along ``path`` from ``origin``, or staying there."""
    if path:
        return msg("move to {square} and {attack}", square=name(path[-1]), attack=attack)
    return msg("{attack}, staying on {square}", attack=attack, square=name(origin))


def _hit(action: Action, victim: str) -> Text:
    """``shoot the Soldier on v3h6``: the attack of ``action`` on ``victim``, the kind of
    the visible enemy piece there ("" for none)."""
    square = name(action.target)
    if distance(_rest(action), action.target) > 1:
        if victim:
            return msg("shoot the {piece} on {square}", piece=victim, square=square)
        return msg("shoot the square on {square}", square=square)
    if victim:
        return msg("attack the {piece} on {square}", piece=victim, square=square)
    return msg("attack the square on {square}", square=square)


def _rest(action: Action) -> int:
    return action.path[-1] if action.path else action.origin


def _enemy(game: Play, sq: int) -> str:
    """``Soldier``: the kind of the visible enemy piece on ``sq``, if any ("" for none)."""
    piece = game.pos.at(sq)
    if piece is None or piece.side == game.pos.side:
        return ""
    return _kind_name(game, piece.kind, piece.side)


def _piece_name(game: Play, action: Action) -> str:
    if action.letter == ASSASSIN:
        return "Assassin"
    return _kind_name(game, action.letter, game.pos.side)


def _kind_name(game: Play, kind: str, side: int) -> str:
    if kind == RULER:
        return "King" if game.rulers[side] == "K" else "Queen"
    return KIND_NAMES[kind]
