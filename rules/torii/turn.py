"""One turn in progress (TI5-TI17): its working state, what may come next, and each effect.

``Work`` is the mutable scratch copy of a position while a turn is played. The functions
ending in ``_options`` say what the rules allow next; the ``do_`` functions apply one choice
without checking it (the generator only offers allowed choices; the notation reader checks
each choice against the options first, to name the ruling that forbids it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from rules.sides import Side

from .actions import Build, Move
from .board import (
    ORTHOGONAL,
    Step,
    plain_step,
    same_lane,
    steps_from,
)
from .state import (
    ALL_TILES,
    BOAR,
    CRANE,
    DEER,
    EMPTY,
    KITSUNE,
    TILES,
    Position,
    Setup,
    gate,
    has_torii,
    owner,
)


@dataclass(frozen=True, slots=True)
class BuildLog:
    """What one Torii did: the Followers it returned to the builder's supply, the opponent's
    Followers the Tatsu swept away (TI16), the builder's own Monkey flip (TI15)."""

    square: int
    line: int
    returned: tuple[int, ...]
    removed: tuple[int, ...]
    flip: Side | None = None
    show_line: bool = False  # the notation names the line: the square was on several formed lines


@dataclass(slots=True)
class Work:
    setup: Setup
    me: Side
    cells: bytearray
    spirits: list[int]
    used: list[int]
    start: int  # the square the steps start from (TI7): after a Crane's flight, its end
    tile: int = 0
    fly_from: int | None = None
    push_from: int | None = None
    torii_move: tuple[int, int] | None = None
    torii_bumped: Side | None = None  # owner of the Follower a Boar's Torii pushed off
    steps: list[Step] = field(default_factory=list)
    placed: list[int] = field(default_factory=list)
    replaced: list[int] = field(default_factory=list)
    builds: list[BuildLog] = field(default_factory=list)
    owed: int = 0  # the opponent's Monkey decisions this turn causes (TI15)
    won: str | None = None

    @property
    def them(self) -> Side:
        return self.me.other

    @property
    def here(self) -> int:
        return self.spirits[self.me]

    @property
    def landings(self) -> tuple[int, ...]:
        return tuple(step.landing for step in self.steps)

    def copy(self) -> Work:
        return Work(
            self.setup,
            self.me,
            bytearray(self.cells),
            list(self.spirits),
            list(self.used),
            self.start,
            self.tile,
            self.fly_from,
            self.push_from,
            self.torii_move,
            self.torii_bumped,
            list(self.steps),
            list(self.placed),
            list(self.replaced),
            list(self.builds),
            self.owed,
            self.won,
        )

    def move(self) -> Move:
        """The turn played so far, as an action."""
        return Move(
            tile=self.tile,
            landings=self.landings,
            fly=self.start if self.fly_from is not None else None,
            push=self.spirits[self.them] if self.push_from is not None else None,
            torii=self.torii_move,
            builds=tuple(Build(b.square, b.line, b.flip) for b in self.builds),
        )

    def result(self) -> Position:
        """The position after the turn: the next side to act, or first the opponent's Monkey
        decisions owed for the Torii that did not win (TI15; the reset waits for them). A won
        turn has no reset, and its position names the winner once nothing is owed: a
        decision owed for a Torii before the winning one still comes (``monkey.decide``)."""
        used = list(self.used)
        if not self.won and not self.owed:
            used[self.me] = reset(used[self.me])
        side = self.me if self.won and not self.owed else self.them
        return Position(
            bytes(self.cells),
            (self.spirits[0], self.spirits[1]),
            (used[0], used[1]),
            side,
            self.owed,
        )


def begin(pos: Position, setup: Setup) -> Work:
    me = pos.side
    return Work(setup, me, bytearray(pos.cells), list(pos.spirits), list(pos.used), pos.spirits[me])


def reset(used: int) -> int:
    """TI11: all three tiles used at the end of a turn turn back to unused."""
    return 0 if used == ALL_TILES else used


# ---- before the steps: the Crane's flight, the tile, the Kitsune's and the Boar's moves ----


def flight_options(work: Work) -> list[int]:
    """TI14: a square with a Torii outside the opponent's lanes (a flight goes somewhere)."""
    if not work.setup.has(work.me, CRANE) or work.tile or work.fly_from is not None:
        return []
    opponent = work.spirits[work.them]
    return [
        sq
        for sq, cell in enumerate(work.cells)
        if has_torii(cell)
        and not same_lane(sq, opponent)
        and sq != work.here
        and any(tile_has_path(work, tile, sq) for tile in unused_tiles(work))
    ]


def do_fly(work: Work, sq: int) -> None:
    work.fly_from = work.here
    work.spirits[work.me] = sq
    work.start = sq


def tile_options(work: Work) -> list[int]:
    """TI5, TI8: an unused tile with at least one complete path (with the powers that come
    with it)."""
    return [t for t in unused_tiles(work) if tile_has_path(work, t)]


def unused_tiles(work: Work) -> list[int]:
    return [t for t in TILES if not work.used[work.me] >> (t - 1) & 1]


def tile_has_path(work: Work, tile: int, start: int | None = None) -> bool:
    """Whether ``tile`` has a complete path from ``start`` (default: where the Spirit is),
    counting the Kitsune's push first (TI13)."""
    here = work.here if start is None else start
    if paths(here, work.spirits[work.them], tile, deer(work)):
        return True
    return tile == 1 and bool(push_options_for(work, here))


def do_tile(work: Work, tile: int) -> None:
    work.tile = tile
    work.used[work.me] |= 1 << (tile - 1)


def deer(work: Work) -> bool:
    return work.setup.has(work.me, DEER)


def push_options(work: Work) -> list[Step]:
    """TI13: the Kitsune, using tile 1, first moves the opponent's Spirit one orthogonal
    step, jumping the Kitsune's lanes, if a tile-1 path follows."""
    if work.tile != 1 or work.push_from is not None or work.torii_move or work.steps:
        return []
    return push_options_for(work)


def push_options_for(work: Work, start: int | None = None) -> list[Step]:
    if not work.setup.has(work.me, KITSUNE):
        return []
    here = work.here if start is None else start
    opponent = work.spirits[work.them]
    return [
        step
        for step in steps_from(opponent, here, diagonal=False)
        if paths(here, step.landing, 1, deer(work))
    ]


def do_push(work: Work, landing: int) -> None:
    work.push_from = work.spirits[work.them]
    work.spirits[work.them] = landing


def torii_options(work: Work) -> list[tuple[int, int]]:
    """TI17: the Boar, using tile 1, first moves one of its Torii (with its Follower) one
    plain orthogonal step onto a square without a Torii."""
    if (
        work.tile != 1
        or not work.setup.has(work.me, BOAR)
        or work.torii_move
        or work.push_from is not None
        or work.steps
    ):
        return []
    mine = gate(work.me)
    moves = []
    for sq, cell in enumerate(work.cells):
        if cell != mine:
            continue
        for direction in ORTHOGONAL:
            to = plain_step(sq, direction)
            if to is not None and not has_torii(work.cells[to]):
                moves.append((sq, to))
    return sorted(moves)


def do_torii(work: Work, origin: int, to: int) -> None:
    work.torii_bumped = owner(work.cells[to])
    work.cells[to] = work.cells[origin]
    work.cells[origin] = EMPTY
    work.torii_move = (origin, to)


# ---- the steps (TI5, TI6, TI7, TI12) --------------------------------------------------------


@lru_cache(maxsize=16384)
def paths(start: int, blocker: int, count: int, diagonal: bool) -> tuple[tuple[Step, ...], ...]:
    """Every complete path of ``count`` steps from ``start`` with the other Spirit on
    ``blocker``: no landing twice, never on ``start`` (TI7); with ``diagonal`` (the Deer),
    at most one diagonal step (TI12)."""
    out: list[tuple[Step, ...]] = []

    def extend(at: int, taken: tuple[Step, ...], diagonal_left: bool) -> None:
        if len(taken) == count:
            out.append(taken)
            return
        seen = {start, *(s.landing for s in taken)}
        for step in steps_from(at, blocker, diagonal_left):
            if step.landing not in seen:
                extend(step.landing, (*taken, step), diagonal_left and not step.direction.diagonal)

    extend(start, (), diagonal)
    return tuple(out)


def step_options(work: Work) -> list[Step]:
    """The next step's possible landings (whether a complete path follows is not asked)."""
    if len(work.steps) >= work.tile:
        return []
    diagonal = deer(work) and not any(s.direction.diagonal for s in work.steps)
    seen = {work.start, *work.landings}
    return [
        s for s in steps_from(work.here, work.spirits[work.them], diagonal) if s.landing not in seen
    ]


def do_step(work: Work, step: Step) -> None:
    work.steps.append(step)
    work.spirits[work.me] = step.landing
