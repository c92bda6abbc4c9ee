"""TORA's menus and the autocomplete's entries worked out the plain way, as they were before
they were made cheaper: each notation written alone by trying its forms in turn against
every way its piece can act (``notation``), each Touch made afresh, each group's summary
counted with a Counter, and ``finding.entries`` asking the seam's ``menu()`` and
``choices()`` apart. The oracle the faster code must equal, answer for answer and in order."""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

from bot.service import finding
from rules.errors import AmbiguousAction, IllegalAction
from rules.protocol import FROM, HIT, TO, VIA, WITH, Choice, ChoiceGroup, GameState, Touch
from rules.tora import Game
from rules.tora import menu as menus
from rules.tora.actions import CROWN, FIRE, GAME_LEVEL, SEARCH, Action, format_action
from rules.tora.geometry import name
from rules.tora.notation import Spec
from rules.words import frame, msg


def choices(game: Game, key: str | None = None) -> tuple[Choice, ...]:
    """``menu.choices`` with each notation written alone (``notation``) and each Touch
    made afresh."""
    groups: dict[str, list[Action]] = defaultdict(list)
    for action in game.legal_actions():
        if key is None or menus.group_key(action) == key:
            groups[menus.group_key(action)].append(action)
    out: list[Choice] = []
    for group, actions in groups.items():
        texts = [notation(game, action) for action in actions]
        said_all = [menus.label(game, a, t) for a, t in zip(actions, texts, strict=True)]
        counts = Counter(said_all)
        words = [  # labels that say the same of two actions get each action's notation
            said
            if counts[said] == 1
            else menus._fit(frame("{label} ({notation})", label=said, notation=text))
            for said, text in zip(said_all, texts, strict=True)
        ]
        flat = len(actions) <= menus.MENU
        for action, text, said in zip(actions, texts, words, strict=True):
            path = (said,) if flat else (menus._direction(action), said)
            final = action.kind == SEARCH  # never taken back (R10)
            out.append(Choice(text, said, path, group, touches(game, action), final=final))
    return tuple(out)


def menu(game: Game) -> tuple[ChoiceGroup, ...]:
    """``menu.menu``: one group per acting piece, its actions counted by sort."""
    groups: dict[str, list[Action]] = defaultdict(list)
    for action in game.legal_actions():
        groups[menus.group_key(action)].append(action)
    return tuple(_group(game, key, actions) for key, actions in groups.items())


def _group(game: Game, key: str, actions: list[Action]) -> ChoiceGroup:
    first = actions[0]
    if first.kind == CROWN:
        return ChoiceGroup(
            key,
            msg("Crown a General"),
            msg("the Ruler is gone (R24)"),
            msg("Crown"),
            len(actions),
        )
    piece = f"{menus._piece_name(game, first)} {name(first.origin)}"
    category = menus.CATEGORIES.get(first.letter, "Pieces")
    counts = Counter(menus._sort(game, a) for a in actions)
    parts = [menus._count(sort, counts[sort]) for sort in menus.SORTS if counts[sort]]
    said = parts[0]
    for part in parts[1:]:
        said = frame("{list}, {item}", list=said, item=part)
    return ChoiceGroup(key, piece, said, category, len(actions), name(first.origin))


def notation(game: Game, action: Action) -> str:
    """R51's canonical text, the plain way: the first of the forms (bare, with the attack's
    square, with the supporters, ..., with the path) that the resolver reads back as this
    action's effect, against every way its piece can act."""
    if action.kind in GAME_LEVEL:
        return action.kind
    reader = game.reader()
    pairs = reader.pairs(action)
    effect = reader.effect(action, pairs)
    for flags in _FORMS:
        text = _display(game, format_action(action, **flags))
        try:
            if reader.resolve(_spec(action, flags, text), pairs)[1] == effect:
                return text
        except (IllegalAction, AmbiguousAction):
            continue
    return _display(game, action.full_text())


_FORMS: tuple[dict[str, bool], ...] = (
    {"path_via": False, "attack_via": False, "supporters": False},
    {"path_via": False, "attack_via": True, "supporters": False},
    {"path_via": False, "attack_via": False, "supporters": True},
    {"path_via": False, "attack_via": True, "supporters": True},
    {"path_via": True, "attack_via": False, "supporters": False},
    {"path_via": True, "attack_via": True, "supporters": True},
)


def _display(game: Game, text: str) -> str:
    return game.rulers[game.pos.side] + text[1:] if text.startswith("R ") else text


def _spec(action: Action, flags: dict[str, bool], text: str) -> Spec:
    path = action.path
    return Spec(
        text,
        action.kind,
        letter=action.letter,
        origin=action.origin,
        dest=path[-1] if path else 0,
        path_via=path[:-1] if flags["path_via"] else (),
        target=action.target,
        attack_via=action.via if flags["attack_via"] else 0,
        stance=action.stance,
        direction=action.direction,
        supporters=action.supporters if flags["supporters"] and action.supporters else None,
    )


def touches(game: Game, action: Action) -> tuple[Touch, ...]:
    out = [Touch(name(action.origin), FROM)]
    landed = game.pos.at(action.dest) if action.path and not action.target else None
    ghost = action.letter == "X" and game.pos.hidden_assassin(game.pos.side) is not None
    strikes = (
        landed is not None and not ghost and landed.side != game.pos.side and landed.is_command
    )
    path = action.path[:-1] if strikes else action.path  # it stops before a command piece
    out += [Touch(name(sq), VIA) for sq in path[:-1]]
    if path:
        out.append(Touch(name(path[-1]), TO))
    if strikes:
        out.append(Touch(name(action.dest), HIT))
    if action.kind == FIRE:
        line = menus._line(game, action.origin, action.direction)
        out += [Touch(name(sq), VIA) for sq in line[:-1]]
        out += [Touch(name(sq), HIT) for sq in line[-1:]]
    if action.target:
        if action.via:
            out.append(Touch(name(action.via), VIA))
        out.append(Touch(name(action.target), HIT))
    out += [Touch(name(sq), WITH) for sq in action.supporters]
    return tuple(out)


def entries(groups: tuple[ChoiceGroup, ...], found: tuple[Choice, ...]) -> list[finding.Entry]:
    """``finding.entries`` of a game whose ``menu()`` is ``groups`` and ``choices()``
    ``found``: every word joined, then split again."""
    by_key: dict[str, ChoiceGroup] = {group.key: group for group in groups}
    out = []
    for choice in found:
        group = by_key.get(choice.group)
        label = None if group is None else group.label
        where = " ".join(choice.path[:-1])
        known_as = " ".join(group.aliases) if group else ""
        described = f"{choice.notation} {label or ''} {choice.label} {where} {known_as}"
        spaced = " " + " ".join(described.translate(_MARKS).lower().split())
        out.append(
            finding.Entry(choice.notation, label, choice.label, spaced, choice.notation.lower())
        )
    return out


_MARKS = str.maketrans("-,():", "     ")


def game_entries(game: GameState[Any]) -> list[finding.Entry]:
    """The oracle's entries of ``game``: TORA's menus the plain way, another game's menus
    as the game builds them."""
    if isinstance(game, Game):
        return entries(menu(game), choices(game))
    return entries(game.menu(), game.choices())
