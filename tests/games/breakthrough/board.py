"""Breakthrough's board, moves (BT2) and ending (BT3), what a move did, and finished turns."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rules.grid import Grid
from rules.sides import Outcome, Side
from rules.turn import DRAW, RESIGN

GRID = Grid(4)
START = "OOOO/..../..../CCCC C"
WON = "breakthrough"  # a pawn reached the far rank
ALL_TAKEN = "all pawns captured"
BLOCKED = "no legal move"


@dataclass(frozen=True)
class Position:
    """Who stands where (``board[sq]``: the side, or None), and whose move it is."""

    board: tuple[Side | None, ...]
    side: Side

    def fen(self) -> str:
        """Ranks from the far one (4) down, ``C``, ``O`` or ``.`` per square; the side."""
        rows = []
        for rank in reversed(range(GRID.size)):
            row = (self.board[GRID.square(file, rank)] for file in range(GRID.size))
            rows.append("".join("." if who is None else who.letter for who in row))
        return "/".join(rows) + " " + self.side.letter


def parse_fen(fen: str) -> Position:
    """ValueError names what is wrong with a position string."""
    rows, _, letter = fen.strip().partition(" ")
    ranks = rows.split("/")
    if len(ranks) != GRID.size or any(len(row) != GRID.size for row in ranks):
        raise ValueError("a position is four ranks of four squares, then the side to move")
    if letter not in ("C", "O") or any(c not in "CO." for row in ranks for c in row):
        raise ValueError("squares are C, O or ., and the side to move C or O")
    board: list[Side | None] = [None] * len(GRID.squares)
    for rank, row in zip(reversed(range(GRID.size)), ranks, strict=True):
        for file, char in enumerate(row):
            board[GRID.square(file, rank)] = None if char == "." else Side.from_letter(char)
    return Position(tuple(board), Side.from_letter(letter))


@dataclass(frozen=True)
class Move:
    origin: int
    target: int
    captures: bool

    @property
    def text(self) -> str:
        return f"{GRID.name(self.origin)}{'x' if self.captures else '-'}{GRID.name(self.target)}"


def forward(side: Side) -> int:
    return 1 if side == Side.CHALLENGER else -1


def moves_of(position: Position) -> list[Move]:
    """BT2: every legal move of the side to move, by square, then straight before diagonal."""
    side, board = position.side, position.board
    moves = []
    for sq in GRID.squares:
        if board[sq] != side:
            continue
        for files in (0, -1, 1):
            target = GRID.shift(sq, files, forward(side))
            if target is None or board[target] == side:
                continue
            if board[target] is None or files:
                moves.append(Move(sq, target, board[target] is not None))
    return moves


def outcome_of(position: Position) -> Outcome | None:
    """BT3, judged after a move: the side that moved (not to move) may have won."""
    mover = position.side.other
    far = GRID.size - 1 if mover == Side.CHALLENGER else 0
    if any(position.board[GRID.square(f, far)] == mover for f in range(GRID.size)):
        return Outcome(mover, WON)
    if position.side not in position.board:
        return Outcome(mover, ALL_TAKEN)
    if not moves_of(position):
        return Outcome(mover, BLOCKED)
    return None


@dataclass(frozen=True)
class Event:
    """A move played or staged (``text`` its notation), or a game-ending act."""

    side: Side
    text: str
    origin: int | None = None
    target: int | None = None
    captured: bool = False
    hidden: bool = False
    note: str = ""

    def public(self) -> Event:
        return self

    def words(self, names: Sequence[str]) -> str:
        me, them = names[self.side], names[self.side.other]
        if self.text == RESIGN:
            return f"{me} resigns"
        if self.text == DRAW:
            return f"{me} and {them} agree a draw"
        if self.origin is None or self.target is None:
            return f"{me} forfeits on missed turns"
        step = f"{me}'s pawn moves {GRID.name(self.origin)}-{GRID.name(self.target)}"
        return step + (f" and captures {them}'s pawn" if self.captured else "")


@dataclass
class Turn:
    side: Side
    texts: list[str]
    events: list[Event] = field(default_factory=list)
