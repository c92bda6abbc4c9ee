"""The match setup (Spirits, powers) and the position (TI2, TI3, TI4).

A position is immutable and hashable: ``perft`` tells positions apart by equality, and a game
copies by sharing them. Supplies, Torii left and the winner are not stored: every Follower is
on the board or in its owner's supply, every Torii on the board or left, and a player has won
exactly when their supply or their Torii are used up (TI9, TI10, TI18).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.sides import Side

from .board import SQUARES, same_lane, square

FOLLOWERS = 9  # TI2
TORII = 4  # TI2
TILES = (1, 2, 3)  # TI2
ALL_TILES = 0b111  # bit t-1 of a used-tiles mask stands for tile t

SPIRITS = ("Deer", "Kitsune", "Crane", "Monkey", "Tatsu", "Boar")  # TI4
DEER, KITSUNE, CRANE, MONKEY, TATSU, BOAR = SPIRITS

# A cell holds nothing, a Follower, or a Follower with a Torii over it. A Torii is only ever
# over a Follower of its own owner: it is built over one (TI10), moves with it (TI17), and
# nothing else reaches a square with a Torii (TI9, TI16).
EMPTY = 0


def follower(side: Side) -> int:
    return 1 + side


def gate(side: Side) -> int:
    """A Follower of ``side`` under a Torii of ``side``."""
    return 3 + side


def owner(cell: int) -> Side | None:
    return None if cell == EMPTY else Side((cell - 1) % 2)


def has_torii(cell: int) -> bool:
    return cell >= 3


START_SQUARES = (square(2, 1), square(3, 4))  # TI3: c2 and d5


def spirit_named(text: str) -> str:
    """The Spirit ``text`` names (any case); ValueError lists the six."""
    for spirit in SPIRITS:
        if spirit.lower() == text.strip().lower():
            return spirit
    raise ValueError(f"a Spirit is one of {', '.join(SPIRITS)}, not {text!r}")


@dataclass(frozen=True, slots=True)
class Setup:
    """What a match fixes before the first turn: each side's Spirit and whether powers play."""

    spirits: tuple[str, str]
    powers: bool = True

    def has(self, side: Side, spirit: str) -> bool:
        """Whether ``side`` has ``spirit``'s power (without powers a Spirit is a token)."""
        return self.powers and self.spirits[side] == spirit


@dataclass(frozen=True, slots=True)
class Position:
    """``cells``: 36 cell codes. ``used``: each side's mask of used tiles. ``side``: who must
    decide now. ``owed``: Monkey decisions ``side`` owes on the turn the other side just
    played (TI15), 0 on a normal turn; that turn's reset (TI11) waits for them."""

    cells: bytes
    spirits: tuple[int, int]
    used: tuple[int, int]
    side: Side
    owed: int = 0

    @property
    def actions(self) -> int:
        """The actions ``side`` stages in the turn: one decision per Torii built (TI15),
        else the move or the pass."""
        return max(self.owed, 1)

    def count(self, code: int) -> int:
        return self.cells.count(code)

    def followers_on_board(self, side: Side) -> int:
        return self.count(follower(side)) + self.count(gate(side))

    def supply(self, side: Side) -> int:
        return FOLLOWERS - self.followers_on_board(side)

    def torii_left(self, side: Side) -> int:
        return TORII - self.count(gate(side))

    def winner(self) -> Side | None:
        """TI18: the side whose Followers or Torii are all placed."""
        for side in Side:
            if self.supply(side) == 0 or self.torii_left(side) == 0:
                return side
        return None

    def unused(self, side: Side) -> tuple[int, ...]:
        return tuple(t for t in TILES if not self.used[side] >> (t - 1) & 1)


def start_position() -> Position:
    """TI3: no Followers on the board, Spirits on c2 and d5, the Challenger's tile 2 used."""
    return Position(bytes(len(SQUARES)), START_SQUARES, (0b010, 0), Side.CHALLENGER)


def check_spirits_apart(spirits: tuple[int, int]) -> None:
    if same_lane(*spirits):
        raise ValueError("the two Spirits may never stand in one lane (TI6)")
