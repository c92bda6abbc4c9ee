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

SIZE = 7
SQUARES = range(SIZE * SIZE)
FILES = "abcdefg"
RANKS = "1234567"
NAMES: tuple[str, ...] = tuple(f + r for r in RANKS for f in FILES)
SQUARE_OF: dict[str, int] = {name: sq for sq, name in enumerate(NAMES)}
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


def square(file: int, rank: int) -> int:
    """The square of ``file`` and ``rank`` counted from 0."""
    return rank * SIZE + file


def file_of(sq: int) -> int:
    return sq % SIZE


def rank_of(sq: int) -> int:
    return sq // SIZE


def name(sq: int) -> str:
    """The machines' name of ``sq`` (``d2``)."""
    return NAMES[sq]


def shown(sq: int) -> str:
    """The name players read on the board (``4f``)."""
    return SHOWN[sq]


def on_board(file: int, rank: int) -> bool:
    return 0 <= file < SIZE and 0 <= rank < SIZE


def shift(sq: int, dx: int, dy: int) -> int | None:
    """The square ``dx`` files right and ``dy`` ranks up of ``sq``, None off the board."""
    file, rank = file_of(sq) + dx, rank_of(sq) + dy
    return square(file, rank) if on_board(file, rank) else None
