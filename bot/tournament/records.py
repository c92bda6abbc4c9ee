"""What each round gave each player of a Swiss or round robin event, and what it is worth.

Every format reads the same history: per player, one ``RoundRecord`` per round played so far
(an opponent and a colour, or none for a bye or an absence) with its ``Outcome``. Points are
counted in half points (``int``) so that sums and ties are exact; ``PointsTable`` says what
each outcome is worth (a bye's worth is the organiser's setting).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum


class Colour(Enum):
    """The side a player had: ``FIRST`` moves first (the Swiss libraries' "white")."""

    FIRST = "first"
    SECOND = "second"

    @property
    def other(self) -> Colour:
        return Colour.SECOND if self is Colour.FIRST else Colour.FIRST


class Outcome(Enum):
    """How a round ended for one player."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"
    FORFEIT_WIN = "forfeit_win"  # the opponent never played (missed the deadline, withdrew)
    FORFEIT_LOSS = "forfeit_loss"
    BYE = "bye"  # the pairing-allocated bye of an odd round
    ABSENT = "absent"  # not paired: entered late, or withdrawn for the round

    @property
    def played(self) -> bool:
        """Whether a game was played over the board (forfeits and byes were not)."""
        return self in _PLAYED

    @property
    def opposite(self) -> Outcome:
        """The opponent's outcome of the same game."""
        return _OPPOSITE[self]


_PLAYED = frozenset({Outcome.WIN, Outcome.DRAW, Outcome.LOSS})
_OPPOSITE = {
    Outcome.WIN: Outcome.LOSS,
    Outcome.LOSS: Outcome.WIN,
    Outcome.DRAW: Outcome.DRAW,
    Outcome.FORFEIT_WIN: Outcome.FORFEIT_LOSS,
    Outcome.FORFEIT_LOSS: Outcome.FORFEIT_WIN,
    Outcome.BYE: Outcome.BYE,
    Outcome.ABSENT: Outcome.ABSENT,
}


@dataclass(frozen=True)
class RoundRecord:
    """One player's round: ``opponent`` and ``colour`` are None for a bye or an absence."""

    outcome: Outcome
    opponent: int | None = None
    colour: Colour | None = None

    def __post_init__(self) -> None:
        paired = self.outcome not in (Outcome.BYE, Outcome.ABSENT)
        if paired != (self.opponent is not None) or paired != (self.colour is not None):
            raise ValueError(f"a {self.outcome.value} round has an opponent and colour iff paired")


@dataclass(frozen=True)
class Board:
    """A pairing: ``first`` moves first (the Swiss libraries' white)."""

    first: int
    second: int


@dataclass(frozen=True)
class PairedRound:
    """A round's boards in board order, and who has the bye (if anyone). ``bye_first``:
    whether the one with the bye moves first against the ghost their bye stands for (a
    round robin's Berger table seats the ghost too): the AI filling the odd slot takes the
    ghost's seat. A Swiss bye has no seat; its player moves first against the AI."""

    boards: tuple[Board, ...]
    bye: int | None
    bye_first: bool = True


History = Mapping[int, Sequence[RoundRecord]]
"""Each player's records, round by round (index 0 is round 1)."""


@dataclass(frozen=True)
class PointsTable:
    """What each outcome is worth, in half points (a win 2 = one point)."""

    win: int = 2
    draw: int = 1
    loss: int = 0
    bye: int = 2

    def __post_init__(self) -> None:
        if not 0 <= self.loss <= self.draw <= self.win or not 0 <= self.bye <= self.win:
            raise ValueError("points must satisfy 0 <= loss <= draw <= win and 0 <= bye <= win")

    def worth(self, outcome: Outcome) -> int:
        if outcome in (Outcome.WIN, Outcome.FORFEIT_WIN):
            return self.win
        if outcome is Outcome.DRAW:
            return self.draw
        if outcome is Outcome.BYE:
            return self.bye
        return self.loss if outcome in (Outcome.LOSS, Outcome.FORFEIT_LOSS) else 0


STANDARD_POINTS = PointsTable()
"""One point a win, half a draw, a point for the bye."""


def score(records: Sequence[RoundRecord], table: PointsTable) -> int:
    """A player's score in half points."""
    return sum(table.worth(record.outcome) for record in records)


def half_points(value: int) -> str:
    """``5`` -> ``"2½"``: a score in half points as players read it."""
    whole, half = divmod(value, 2)
    if not half:
        return str(whole)
    return f"{whole}½" if whole else "½"
