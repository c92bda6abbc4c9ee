"""The legal moves grouped for Discord menus (``rules.protocol.ChoiceGroup``).

Keys and notations are the machines' (``d2``, ``d2c2``); what players read is in the board's
coordinates (TS1): "Falcon (Fa) 4f", "to 5f". A group names its piece with the two letters
its tile shows, so that a player can match the menu to the picture (and find it by them).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from rules.grouped import Grouped
from rules.protocol import FROM, TO, Choice, Touch
from rules.sides import Side
from rules.words import Text, frame, msg, msg_n

from .board import NAMES, SHOWN, SHOWN_FILES, file_of
from .events import NOTES
from .movegen import checking, mating
from .moves import Move
from .pieces import ALIASES, HAND_KINDS, LETTER, NAME, PROMOTES_TO, SHORT
from .position import Position

MENU_LIMIT = 25  # choices a menu shows at once; bigger groups go one step deeper, by file


def build_menu(pos: Position, legal: Sequence[Move]) -> tuple[Grouped, ...]:
    """One group per piece on the board with legal moves (squares in the machines' order a1,
    b1, ..., g7: 7g, 6g, ..., 1a), then one per kind in hand that can be dropped.

    The last answer is kept: autocomplete asks the game's ``menu()`` and ``choices()`` of
    one state in turn, and both are built from the same position and the same list of its
    legal moves, which the game keeps until the position changes (a new position object
    then, and a new list)."""
    global _last  # one answer, swapped whole: threads may share it
    last = _last
    if last is not None and last[0] is pos and last[1] is legal:
        return last[2]
    groups = _build_menu(pos, legal)
    _last = (pos, legal, groups)
    return groups


_last: tuple[Position, Sequence[Move], tuple[Grouped, ...]] | None = None


def _build_menu(pos: Position, legal: Sequence[Move]) -> tuple[Grouped, ...]:
    checks = checking(pos, (move.code for move in legal))
    notes = dict.fromkeys(checks, "check") | dict.fromkeys(mating(pos, checks), "checkmate")
    by_origin: dict[int, list[Move]] = {}
    by_drop: dict[int, list[Move]] = {}
    for move in legal:
        if move.origin is None:
            by_drop.setdefault(move.kind, []).append(move)
        else:
            by_origin.setdefault(move.origin, []).append(move)
    groups = [_piece_group(origin, by_origin[origin], notes) for origin in sorted(by_origin)]
    hand = pos.hands[pos.side]
    groups += [
        _drop_group(kind, hand[kind], by_drop[kind], notes)
        for kind in HAND_KINDS
        if kind in by_drop
    ]
    return tuple(groups)


def _piece_group(origin: int, moves: list[Move], notes: dict[int, str]) -> Grouped:
    """``notes``: "check" or "checkmate" of the (encoded) moves that check, which their
    labels say."""
    kind = moves[0].kind
    labels = [
        _move_label(move.target, move.captured, move.promotes, move.kind, notes.get(move.code, ""))
        for move in moves
    ]
    key = NAMES[origin]
    return Grouped(
        key=key,
        label=f"{NAME[kind]} ({SHORT[kind]}) {SHOWN[origin]}",
        description=_count(len(moves)),
        category=NAME[kind],
        choices=_choices(key, moves, labels, labels),
        origin=NAMES[origin],
        aliases=ALIASES[kind],
    )


def _drop_group(kind: int, count: int, moves: list[Move], notes: dict[int, str]) -> Grouped:
    labels: list[str] = [_drop_label(move.target, notes.get(move.code, "")) for move in moves]
    key = f"drop-{LETTER[kind]}"
    return Grouped(
        key=key,
        label=msg_n(
            "{piece} ({letters}), {n} in hand",
            "{piece} ({letters}), {n} in hand",
            count,
            piece=NAME[kind],
            letters=SHORT[kind],
        ),
        description=_squares(len(moves)),
        category=_DROPS,
        choices=_choices(key, moves, labels, [SHOWN[move.target] for move in moves]),
        origin=hand_place(kind),
        aliases=ALIASES[kind],
    )


def hand_place(kind: int) -> str:
    """Where a piece in hand comes from, as the drop's notation writes it (``S@``)."""
    return f"{LETTER[kind]}@"


def held_place(kind: int, side: Side, viewer: Side | None) -> str:
    """Where ``side``'s pieces of ``kind`` in hand are, to ``viewer``: the viewer's own hand
    (a spectator's: the Challenger's, whose picture theirs is) by the drop's notation (``S@``,
    where their drops start), the other hand by that and its side's letter (``S@O``)."""
    own = Side.CHALLENGER if viewer is None else viewer
    return hand_place(kind) if side == own else hand_place(kind) + side.letter


def touches(move: Move) -> tuple[Touch, ...]:
    """Where the piece comes from (a square, or the hand) and where it goes."""
    return _touches(move.origin, move.kind if move.origin is None else 0, move.target)


@cache
def _touches(origin: int | None, dropped: int, target: int) -> tuple[Touch, ...]:
    place = hand_place(dropped) if origin is None else NAMES[origin]
    return Touch(place, FROM), Touch(NAMES[target], TO)


def _choices(
    key: str, moves: list[Move], labels: Sequence[str], deep: Sequence[str]
) -> tuple[Choice, ...]:
    """Flat when the group fits a menu; otherwise under a first step per file ("file 4"),
    the files in the order the Challenger sees them, 7 to 1."""
    if len(moves) <= MENU_LIMIT:
        return tuple(
            Choice(m.uci, label, (label,), key, touches(m))
            for m, label in zip(moves, labels, strict=True)
        )
    by_file = sorted(zip(moves, labels, deep, strict=True), key=lambda row: file_of(row[0].target))
    return tuple(
        Choice(m.uci, label, (_file(m), step), key, touches(m)) for m, label, step in by_file
    )


# A menu is made for every pick in a panel, and its words are the same few hundred on every
# board: each is made once (a ``Text`` is immutable, and shared safely), not per move.


def _file(move: Move) -> Text:
    return _file_label(file_of(move.target))


@cache
def _file_label(file: int) -> Text:
    return msg("file {file}", file=SHOWN_FILES[file])


@cache
def _count(n: int) -> Text:
    return msg_n("{n} move", "{n} moves", n)


@cache
def _squares(n: int) -> Text:
    return msg_n("{n} square", "{n} squares", n)


_DROPS = msg("drops")


@cache
def _drop_label(target: int, note: str) -> Text:
    return _checked(msg("drop on {square}", square=SHOWN[target]), note)


@cache
def _move_label(target: int, captured: int, promotes: bool, kind: int, note: str) -> Text:
    """A move's words in its piece's group: where it goes, what it takes, what it becomes,
    and whether it checks or mates (``note``, as its staged line and its turn's post then
    say)."""
    return _checked(_landing(target, captured, promotes, kind), note)


def _checked(label: Text, note: str) -> Text:
    """``label`` with ``note`` ("check", "checkmate"; "" for none), as an event says it."""
    return frame("{said}, {note}", said=label, note=NOTES[note]) if note else label


def _landing(target: int, captured: int, promotes: bool, kind: int) -> Text:
    square = SHOWN[target]
    if captured and promotes:
        return msg(
            "to {square}, capturing the {piece}, promoting to {promoted}",
            square=square,
            piece=NAME[captured],
            promoted=NAME[PROMOTES_TO[kind]],
        )
    if captured:
        return msg("to {square}, capturing the {piece}", square=square, piece=NAME[captured])
    if promotes:
        return msg(
            "to {square}, promoting to {promoted}", square=square, promoted=NAME[PROMOTES_TO[kind]]
        )
    return msg("to {square}", square=square)
