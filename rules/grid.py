"""A square board whose squares are numbers, rank after rank: square ``rank * size + file``
(both counted from 0), so a1 is 0 and the last square is the far corner. A square is named by
its file letter and its rank number from the first player's side (``a1``, ``c3``), as chess
and Fairy-Stockfish write them; names are read in any case.

Torii's 6x6 board and ToriShogi's 7x7 board are grids (each adds its own names, lanes and
zones). TORA's boards are not: a square there packs its ``h`` and ``v`` into the bits of one
number, so that a step is a single addition, and is written ``v5h7`` (R2)."""

from __future__ import annotations

from collections.abc import Mapping

from .protocol import Placed, SquareMap

LETTERS = "abcdefghijklmnopqrstuvwxyz"


class Grid:
    """The squares of a ``size`` x ``size`` board and their names."""

    __slots__ = ("files", "names", "numbers", "size", "squares")

    def __init__(self, size: int) -> None:
        if not 1 <= size <= len(LETTERS):
            raise ValueError(f"a grid has 1 to {len(LETTERS)} files, not {size}")
        self.size = size
        self.files = LETTERS[:size]
        self.squares = range(size * size)
        self.names: tuple[str, ...] = tuple(
            f"{file}{rank + 1}" for rank in range(size) for file in self.files
        )
        self.numbers: dict[str, int] = {name: sq for sq, name in enumerate(self.names)}

    def square(self, file: int, rank: int) -> int:
        """The square of ``file`` and ``rank``, both counted from 0."""
        return rank * self.size + file

    def file_of(self, sq: int) -> int:
        return sq % self.size

    def rank_of(self, sq: int) -> int:
        return sq // self.size

    def name(self, sq: int) -> str:
        """``c3``."""
        return self.names[sq]

    def parse(self, text: str) -> int | None:
        """The square ``text`` names (any case), or None."""
        return self.numbers.get(text.lower())

    def on_board(self, file: int, rank: int) -> bool:
        return 0 <= file < self.size and 0 <= rank < self.size

    def shift(self, sq: int, files: int, ranks: int) -> int | None:
        """The square ``files`` files right and ``ranks`` ranks up of ``sq`` (as the first
        player sees the board), None off the board."""
        file, rank = sq % self.size + files, sq // self.size + ranks
        return rank * self.size + file if self.on_board(file, rank) else None

    def square_map(self, pieces: Mapping[str, Placed], touched: tuple[str, ...] = ()) -> SquareMap:
        """The board as ``rules.protocol.SquareMap`` says it, with ``pieces`` and ``touched``
        by square name (``name``): files a.., ranks 1.. from the first player's side."""
        ranks = tuple(str(rank + 1) for rank in range(self.size))
        return SquareMap(tuple(self.files), ranks, self.names, pieces, touched)
