"""Ordering tournament champions: Game Points, then the win/loss record, then tie-breakers.

"Tournament Champions who tie in Game Point Values have their win/loss record for that
tournament compared. If it remains a tie, they play tie breaker game(s), until won by point
value." The tie-breaker games themselves are decided by ``match.decide_tie_breaker``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from itertools import groupby
from typing import Generic, TypeVar

PlayerId = TypeVar("PlayerId")


@dataclass(frozen=True)
class Standing(Generic[PlayerId]):
    """A player's tournament totals: the Game Points of all their matches, matches won and lost."""

    player: PlayerId
    game_points: int
    wins: int
    losses: int

    def __post_init__(self) -> None:
        if self.wins < 0 or self.losses < 0:
            raise ValueError("wins and losses cannot be negative")

    @property
    def record(self) -> Fraction:
        """The share of matches won, so players with different numbers of matches compare."""
        played = self.wins + self.losses
        return Fraction(self.wins, played) if played else Fraction(0)

    def _key(self) -> tuple[int, Fraction]:
        return self.game_points, self.record


def order_champions(
    standings: Iterable[Standing[PlayerId]],
) -> list[tuple[Standing[PlayerId], ...]]:
    """Best first, grouped: players in one group are still tied after Game Points and win/loss
    record and play tie-breaker games; a group's order is the order given."""
    ordered = sorted(standings, key=Standing._key, reverse=True)
    return [tuple(group) for _, group in groupby(ordered, key=Standing._key)]
