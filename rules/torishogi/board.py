"""Board geometry (TS1): 7x7 squares as integers 0..48, and their names.

Machines (notation, records, FEN) use Fairy-Stockfish's coordinates: files a..g from the
Challenger's left, ranks 1..7 from the Challenger's side. Square ``rank * 7 + file`` (both
from 0), so a1 is 0, g1 is 6 and g7 is 48. The Challenger moves "up" (towards rank 7), the
Opposition "down".

People read the seed's diagram (``SHOWN``): files 7..1 from the Challenger's left and ranks a..g
from the Opposition's side, the file first, so a1 is 7g, g1 is 1g and g7 is 1a. A name that
starts with a letter is the machines', one that starts with a digit the people's: the two
never collide, so input may use either (``READ``).
"""

from __future__ import annotations

from rules.grid import Grid

SIZE = 7
GRID = Grid(SIZE)
SQUARES = GRID.squares
FILES = GRID.files
RANKS = "1234567"
NAMES = GRID.names  # the machines' names, by square
SQUARE_OF = GRID.numbers
square = GRID.square  # (file, rank), both counted from 0
file_of = GRID.file_of
rank_of = GRID.rank_of
name = GRID.name  # the machines' name of a square (``d2``)
on_board = GRID.on_board
shift = GRID.shift  # (square, dx files right, dy ranks up), None off the board
SHOWN_FILES = "7654321"  # indexed by the machines' file (a..g)
SHOWN_RANKS = "gfedcba"  # indexed by the machines' rank (1..7)
SHOWN: tuple[str, ...] = tuple(f + r for r in SHOWN_RANKS for f in SHOWN_FILES)
READ: dict[str, int] = SQUARE_OF | {name: sq for sq, name in enumerate(SHOWN)}

# The last two ranks of each side (TS5): ranks 6-7 for the Challenger, 1-2 for the Opposition.
ZONE: tuple[frozenset[int], frozenset[int]] = (
    frozenset(sq for sq in SQUARES if sq // SIZE >= SIZE - 2),
    frozenset(sq for sq in SQUARES if sq // SIZE < 2),
)
# Each side's last rank, where an unpromoted Swallow could never move again (TS6).
LAST_RANK: tuple[frozenset[int], frozenset[int]] = (
    frozenset(sq for sq in SQUARES if sq // SIZE == SIZE - 1),
    frozenset(sq for sq in SQUARES if sq // SIZE == 0),
)


def shown(sq: int) -> str:
    """The name players read on the board (``4f``)."""
    return SHOWN[sq]
