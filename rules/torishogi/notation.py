"""Move notation (TS12): reading what players type, and why a move is refused.

Canonical (records, ``notation``): Fairy-Stockfish's ``c3c4``, ``d5d6+`` (promotion, which is
compulsory) and ``S@d4``. Read as well, in any case and with any spacing: the readable form
``Falcon 4f-5f``, ``Swallow 4ex4d``, ``Swallow drop 4d`` (also ``drop on``, and drop first:
``drop Swallow 4d``), ``Falcon to 5f`` or ``Falcon 5f`` (ambiguous when two such pieces can go
there), the pieces' short names of the images (``Fa 4f-5f``) and their other names
(``pieces.ALIASES``: ``F 4f-5f``, ``Ql 7g-7f``, ``King 4g-5f``), a drop written ``S*4d``, and
a ``+`` at the end, accepted and ignored.
Every square may be written in the board's coordinates (``4f``) or the machines' (``d2``): a
name starting with a digit is the board's, one starting with a letter the machines' (TS1).
Refusals speak the board's coordinates and list moves in the readable form.

Every reader here is a single pass over an input of at most ``MAX_TEXT`` characters: no
regular expressions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.errors import AmbiguousAction, IllegalAction, MalformedAction, echo
from rules.words import Text, msg, msg_n

from .board import LAST_RANK, READ, SHOWN, SHOWN_FILES, SIZE, file_of
from .movegen import checkers_and_pins, reaches
from .moves import Move
from .pieces import (
    ALIASES,
    HAND_KINDS,
    KIND_OF_LETTER,
    NAME,
    PHOENIX,
    SHORT,
    SWALLOW,
    code,
    kind_of,
    side_of,
)
from .position import Position

HINT = msg(
    "Write moves as the board shows them, like 'Falcon 4f-5f', '4f5f' or 'Swallow drop 4d' "
    "(Fairy-Stockfish's 'd2c2' and 'S@d4' work too)"
)
MAX_TEXT = 60
# What a move may name its piece by: its name, its tile's letters, and its aliases (FEN letter,
# the rule text's labels, "king").
_NAMES = {word.lower(): kind for kind in NAME for word in (NAME[kind], SHORT[kind], *ALIASES[kind])}


@dataclass(frozen=True)
class MoveSpec:
    """What a text names: a drop of ``kind`` on ``target``, a move ``origin``-``target``
    (``kind`` optional), or any move of ``kind`` to ``target`` (``origin`` None)."""

    target: int
    kind: int | None = None
    origin: int | None = None
    drop: bool = False
    capture: bool = False


def malformed(text: str, reason: Text) -> MalformedAction:
    """A refusal of ``text`` (quoted by ``rules.errors.echo``: cut, code-styled)."""
    return MalformedAction(text, reason, hint=HINT)


def read_spec(text: str) -> MoveSpec:
    """Parse ``text``; MalformedAction if it is not move notation at all."""
    if len(text) > MAX_TEXT:
        raise malformed(
            text,
            msg_n(
                "it is {n} character long, the limit is {limit}",
                "it is {n} characters long, the limit is {limit}",
                len(text),
                limit=MAX_TEXT,
            ),
        )
    words = text.lower().split()
    if words and words[-1].endswith("+"):  # promotion is compulsory: '+' says nothing
        words[-1] = words[-1][:-1]
        if not words[-1]:
            words.pop()
    if not words:
        raise malformed(text, msg("no move found"))
    if len(words) == 1 and ("@" in words[0] or "*" in words[0]):
        return _uci_drop(text, words[0])
    kind, rest = _piece_name(words)
    compact = "".join(rest)
    if compact.startswith("drop"):
        compact = compact[4:].removeprefix("s").removeprefix("on")
        if kind is None:
            raise malformed(text, msg("a drop names its piece, like 'Swallow drop 4d' or 'S@4d'"))
        return MoveSpec(_square(text, compact), kind, drop=True)
    if compact.startswith("to") or len(compact) == 2:
        if kind is None:
            raise malformed(text, msg("a move names its piece or both squares, like 'Falcon 5f'"))
        return MoveSpec(_square(text, compact.removeprefix("to")), kind)
    if len(compact) == 5 and compact[2] in "-x":
        return MoveSpec(
            _square(text, compact[3:]), kind, _square(text, compact[:2]), capture=compact[2] == "x"
        )
    if len(compact) == 4:
        return MoveSpec(_square(text, compact[2:]), kind, _square(text, compact[:2]))
    raise malformed(text, msg("no move found"))


def _uci_drop(text: str, word: str) -> MoveSpec:
    """``S@d4``, and the shogi players' ``S*4d``."""
    mark = "@" if "@" in word else "*"
    piece, _, where = word.partition(mark)
    kind = KIND_OF_LETTER.get(piece.upper()) if len(piece) == 1 else _NAMES.get(piece)
    if kind is None:
        raise malformed(
            text,
            msg(
                "{piece} before {mark} is not a piece letter (S F C P L R)",
                piece=echo(piece),
                mark=echo(mark),
            ),
        )
    return MoveSpec(_square(text, where), kind, drop=True)


def _piece_name(words: list[str]) -> tuple[int | None, list[str]]:
    """The piece ``words`` name (None if they name none), and the words left. A drop may be
    written drop first: ``drop Swallow 4d`` is read as ``Swallow drop 4d``."""
    if words[0] == "drop":
        kind, rest = _leading_name(words[1:])
        return (kind, ["drop", *rest]) if kind is not None else (None, words)
    return _leading_name(words)


def _leading_name(words: list[str]) -> tuple[int | None, list[str]]:
    """The piece the first words name (None if they name none), and the words after them."""
    if not words:
        return None, words
    if len(words) >= 2 and words[0] in ("left", "right") and words[1] == "quail":
        return _NAMES[words[0] + " quail"], words[2:]
    kind = _NAMES.get(words[0])
    return (kind, words[1:]) if kind is not None else (None, words)


def _square(text: str, name: str) -> int:
    sq = READ.get(name)
    if sq is None:
        raise malformed(
            text,
            msg(
                "{name} is not a square (on the board: files 7-1, ranks a-g, like 4f; "
                "Fairy-Stockfish's: files a-g, ranks 1-7, like d2)",
                name=echo(name),
            ),
        )
    return sq


def resolve(pos: Position, legal: Sequence[Move], spec: MoveSpec, text: str) -> Move:
    """The one legal move ``spec`` names; IllegalAction (with the ruling) or AmbiguousAction."""
    if spec.drop:
        for move in legal:
            if move.origin is None and move.kind == spec.kind and move.target == spec.target:
                return move
        raise _refuse_drop(pos, legal, spec)
    if spec.origin is None:
        return _by_destination(pos, legal, spec, text)
    for move in legal:
        if move.origin == spec.origin and move.target == spec.target:
            if spec.kind is not None and spec.kind != move.kind:
                break
            if spec.capture and not move.captured:
                raise IllegalAction(
                    "TS4",
                    msg("there is nothing to capture on {square}", square=SHOWN[spec.target]),
                    [move.readable],
                )
            return move
    raise _refuse_move(pos, legal, spec)


def _by_destination(pos: Position, legal: Sequence[Move], spec: MoveSpec, text: str) -> Move:
    matches = [m for m in legal if m.kind == spec.kind and m.target == spec.target]
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise AmbiguousAction(text, [m.readable for m in matches])
    assert spec.kind is not None
    allowed = [m.readable for m in legal if m.kind == spec.kind]
    # A piece of that kind that gets there by its pattern is held back by something else
    # (its Phoenix, TS8): say what, as the same move typed with both squares would.
    mine = code(spec.kind, pos.side)
    for origin, piece in enumerate(pos.board):
        if piece == mine and reaches(pos.board, origin, spec.target):
            refused = _refuse_move(pos, legal, MoveSpec(spec.target, spec.kind, origin))
            raise IllegalAction(refused.rule, refused.reason, allowed)
    raise IllegalAction(
        "TS3",
        msg(
            "no {piece} of yours can go to {square} now",
            piece=NAME[spec.kind],
            square=SHOWN[spec.target],
        ),
        allowed,
    )


def _refuse_move(pos: Position, legal: Sequence[Move], spec: MoveSpec) -> IllegalAction:
    assert spec.origin is not None
    board, us = pos.board, pos.side
    origin, target = SHOWN[spec.origin], SHOWN[spec.target]
    piece = board[spec.origin]
    if not piece or side_of(piece) != us:
        return IllegalAction(
            "TS3",
            msg("there is no piece of yours on {square}", square=origin),
            [m.readable for m in legal[:12]],
        )
    own = [m.readable for m in legal if m.origin == spec.origin]
    name = NAME[kind_of(piece)]
    if spec.kind is not None and spec.kind != kind_of(piece):
        named = NAME[spec.kind]
        held = {"square": origin, "piece": name, "named": named}
        said = _with_article(
            named,
            msg("{square} holds your {piece}, not a {named}", **held),
            msg("{square} holds your {piece}, not an {named}", **held),
        )
        return IllegalAction("TS3", said, own)
    there = board[spec.target]
    if there and side_of(there) == us:
        said = msg("{square} holds your own {piece}", square=target, piece=NAME[kind_of(there)])
        return IllegalAction("TS4", said, own)
    if not reaches(board, spec.origin, spec.target):
        move = {"piece": name, "origin": origin, "target": target}
        said = _with_article(
            name,
            msg("a {piece} on {origin} cannot move to {target}", **move),
            msg("an {piece} on {origin} cannot move to {target}", **move),
        )
        return IllegalAction("TS3", said, own)
    checkers = _checkers(pos)
    if kind_of(piece) == PHOENIX:
        reason = msg("your Phoenix would be attacked on {square}", square=target)
    elif len(checkers) > 1:
        return _double_check(legal)
    elif checkers:
        reason = msg(
            "your Phoenix is in check and {piece} {origin}-{target} does not answer it",
            piece=name,
            origin=origin,
            target=target,
        )
    else:
        reason = msg(
            "{piece} {origin}-{target} would leave your Phoenix attacked",
            piece=name,
            origin=origin,
            target=target,
        )
    return IllegalAction("TS8", reason, own)


def _refuse_drop(pos: Position, legal: Sequence[Move], spec: MoveSpec) -> IllegalAction:
    assert spec.kind is not None
    name, target = NAME[spec.kind], SHOWN[spec.target]
    own = [m.readable for m in legal if m.origin is None and m.kind == spec.kind]
    if spec.kind not in HAND_KINDS:
        said = _with_article(
            name,
            msg("a {piece} is never in hand: captures go to hand unpromoted", piece=name),
            msg("an {piece} is never in hand: captures go to hand unpromoted", piece=name),
        )
        return IllegalAction("TS4", said)
    if not pos.hands[pos.side][spec.kind]:
        return IllegalAction("TS4", msg("you have no {piece} in hand", piece=name))
    if pos.board[spec.target]:
        said = msg("{square} is not empty: drops go on empty squares", square=target)
        return IllegalAction("TS4", said, own)
    if spec.kind == SWALLOW:
        if spec.target in LAST_RANK[pos.side]:
            said = msg("a Swallow dropped on {square} could never move", square=target)
            return IllegalAction("TS6", said, own)
        file = file_of(spec.target)
        mine = code(SWALLOW, pos.side)
        on_file = sum(1 for sq in range(file, SIZE * SIZE, SIZE) if pos.board[sq] == mine)
        if on_file >= 2:
            return IllegalAction(
                "TS7",
                msg(
                    "file {file} already holds two of your unpromoted Swallows",
                    file=SHOWN_FILES[file],
                ),
                own,
            )
    checkers, block, _pins = checkers_and_pins(pos.board, pos.kings[pos.side], pos.side)
    if len(checkers) > 1:
        return _double_check(legal)
    if checkers and spec.target not in block:
        return IllegalAction(
            "TS8",
            msg("your Phoenix is in check and a drop on {square} does not block it", square=target),
            own,
        )
    said = msg("a Swallow drop on {square} would give checkmate", square=target)
    return IllegalAction("TS7", said, own)


def _checkers(pos: Position) -> list[int]:
    """The squares of the pieces checking the side to move's Phoenix."""
    return checkers_and_pins(pos.board, pos.kings[pos.side], pos.side)[0]


def _double_check(legal: Sequence[Move]) -> IllegalAction:
    """TS8 with two checkers: no block or capture answers both, only the Phoenix's moves."""
    return IllegalAction(
        "TS8",
        msg("your Phoenix is in double check: only a Phoenix move answers it"),
        [m.readable for m in legal if m.kind == PHOENIX],
    )


def _with_article(name: str, a: Text, an: Text) -> Text:
    """``a``, or ``an`` when ``name`` starts with a vowel (the Eagle): English takes "an"
    there, so such a text is two messages, one text in other languages."""
    return an if name[0] in "AEIOU" else a
