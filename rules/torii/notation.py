"""Turn notation (TI19): reading a player's text into a ``Spec``, and the canonical text.

Canonical form, tokens separated by one space::

    [fly SQ] TILE [push SQ | torii SQ-SQ] SQ... {build SQ [SQ-SQ] [flip C|O]}...

``fly d4``: the Crane's flight (TI14), before the tile. ``push b3``: where the Kitsune sends
the opponent's Spirit (TI13), after tile 1. ``torii c3-c4``: the Boar's Torii move (TI17),
after tile 1. Then the landing squares, one per step. Then one ``build`` per Torii, naming the
Follower it covers, plus the line when that Follower is on several formed lines, plus the
builder's own Monkey flip (``flip C`` / ``flip O``; nothing written is no flip). A Monkey
decision is ``flip C``, ``flip O`` or ``flip none``; a turn without a move is ``pass``.

Input is forgiving: any case, extra spaces and commas, a direction instead of a landing square
(``3 up up right``, diagonals as ``up-left``, ``ul`` or ``nw``), ``tile 3`` for ``3``, the tile
left out (the number of steps), ``flip none`` after a build, a line given when it is not
needed, and builds left out when only one way to build can follow. Reading is one pass over
at most ``MAX_TEXT`` characters.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NoReturn

from rules.errors import MalformedAction, echo
from rules.sides import Side
from rules.words import Text, msg, msg_n

from .actions import PASS, PASS_TEXT, Decision, Pass, flip_text
from .board import Direction, line_between, line_name, name, parse_direction, parse_square
from .turn import Work

MAX_TEXT = 300
HINT = msg(
    "Write a turn as the tile and the landing squares, like '3 c3 c4 c6', or with directions, "
    "'3 up up up'; add 'build c6' for each Torii; powers: 'fly d4 2 ...', '1 push b3 c3', "
    "'1 torii c3-c4 d2'; a Monkey decision is 'flip C', 'flip O' or 'flip none'"
)
KEYWORDS = ("fly", "push", "torii", "build", "flip")


@dataclass
class BuildSpec:
    """``flip``: None when left out or written ``flip none`` (the same: no flip)."""

    square: int
    line: int | None = None
    flip: Side | None = None


@dataclass
class Spec:
    """A turn as written: squares named or directions, lines and flips possibly left out."""

    tile: int | None = None
    fly: int | None = None
    push: int | Direction | None = None
    torii: tuple[int, int] | None = None
    steps: list[int | Direction] = field(default_factory=list)
    builds: list[BuildSpec] = field(default_factory=list)


def read(text: str) -> Spec | Pass | Decision:
    """The action ``text`` writes, not yet checked against a position."""
    if len(text) > MAX_TEXT:
        raise MalformedAction(
            text[:40] + "...",
            msg_n(
                "it is {n} character long, the limit is {limit}",
                "it is {n} characters long, the limit is {limit}",
                len(text),
                limit=MAX_TEXT,
            ),
            HINT,
        )
    tokens = text.replace(",", " ").lower().split()
    if not tokens:
        raise MalformedAction(text, msg("it is empty"), HINT)
    if tokens == [PASS_TEXT]:
        return PASS
    if tokens[0] == "flip":
        if len(tokens) != 2:
            said = msg("a Monkey decision is 'flip' and C, O or none")
            raise MalformedAction(text, said, HINT)
        return Decision(_flip_target(text, tokens[1]))
    return _Reader(text, tokens).spec()


class _Reader:
    def __init__(self, text: str, tokens: list[str]) -> None:
        self.text = text
        self.tokens = tokens
        self.at = 0

    def peek(self) -> str | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def take(self, what: Text) -> str:
        token = self.peek()
        if token is None:
            self.fail(msg("{what} is missing at the end", what=what))
        self.at += 1
        return token

    def fail(self, reason: Text) -> NoReturn:
        raise MalformedAction(self.text, reason, HINT)

    def square(self, what: Text) -> int:
        token = self.take(what)
        sq = parse_square(token)
        if sq is None:
            self.fail(
                msg(
                    "{token} is not a square (a1 to f6) where {what} was expected",
                    token=echo(token),
                    what=what,
                )
            )
        return sq

    def spec(self) -> Spec:
        spec = Spec()
        if self.peek() == "fly":
            self.at += 1
            spec.fly = self.square(msg("the square to fly to"))
        if self.peek() == "tile":
            self.at += 1
            if self.peek() not in ("1", "2", "3"):
                self.fail(msg("'tile' is followed by 1, 2 or 3"))
        if self.peek() in ("1", "2", "3"):
            spec.tile = int(self.take(msg("the tile")))
        if self.peek() == "push":
            self.at += 1
            spec.push = self.square_or_direction(self.take(msg("where the Spirit is pushed")))
        elif self.peek() == "torii":
            self.at += 1
            spec.torii = self.pair(self.take(msg("the Torii's move, like c3-c4")))
        while (token := self.peek()) is not None and token not in KEYWORDS:
            self.at += 1
            spec.steps.append(self.square_or_direction(token))
        while self.peek() == "build":
            self.at += 1
            spec.builds.append(self.build())
        token = self.peek()
        if token is not None:
            self.fail(msg("{token} is out of place", token=echo(token)))
        if spec.tile is None and not spec.steps:
            self.fail(msg("it names no tile and no step"))
        return spec

    def build(self) -> BuildSpec:
        build = BuildSpec(self.square(msg("the Follower to build on")))
        token = self.peek()
        if token is not None and "-" in token and parse_direction(token) is None:
            self.at += 1
            start, end = self.pair(token)
            line = line_between(start, end)
            if line is None:
                self.fail(
                    msg(
                        "{token} is not a line of 4 squares in a row or a column", token=echo(token)
                    )
                )
            build.line = line
        if self.peek() == "flip":
            self.at += 1
            build.flip = _flip_target(self.text, self.take(msg("the side whose tile 1 flips")))
        return build

    def pair(self, token: str) -> tuple[int, int]:
        first, dash, second = token.partition("-")
        a, b = parse_square(first), parse_square(second)
        if not dash or a is None or b is None:
            self.fail(
                msg("{token} is not two squares joined by '-', like c3-c4", token=echo(token))
            )
        return a, b

    def square_or_direction(self, token: str) -> int | Direction:
        if token.isdigit():
            self.fail(
                msg("{token} is out of place: the tile (1, 2 or 3) comes first", token=echo(token))
            )
        sq = parse_square(token)
        if sq is not None:
            return sq
        direction = parse_direction(token)
        if direction is None:
            self.fail(
                msg(
                    "{token} is neither a square (a1 to f6) nor a direction (up, down...)",
                    token=echo(token),
                )
            )
        return direction


def _flip_target(text: str, token: str) -> Side | None:
    if token in ("none", "nothing", "-"):
        return None
    if token in ("c", "challenger"):
        return Side.CHALLENGER
    if token in ("o", "opposition"):
        return Side.OPPOSITION
    said = msg("flip names C, O or none, not {token}", token=echo(token))
    raise MalformedAction(text, said, HINT)


def write(work: Work) -> str:
    """The canonical text of a turn played in ``work``."""
    parts: list[str] = []
    if work.fly_from is not None:
        parts += ["fly", name(work.start)]
    parts.append(str(work.tile))
    if work.push_from is not None:
        parts += ["push", name(work.spirits[work.them])]
    if work.torii_move is not None:
        origin, to = work.torii_move
        parts += ["torii", f"{name(origin)}-{name(to)}"]
    parts += [name(sq) for sq in work.landings]
    for build in work.builds:
        parts += ["build", name(build.square)]
        if build.show_line:
            parts.append(line_name(build.line))
        if build.flip is not None:
            parts.append(flip_text(build.flip))
    return " ".join(parts)
