"""Percentage Scores and the chapter's chart of bands (Ranking Point Value).

Percentages are exact fractions, so a band boundary is never blurred by rounding: a band
"a-b%" holds every score from a% up to, but not including, (b+1)%, and the top band holds 100%.
"""

from __future__ import annotations

from enum import IntEnum
from fractions import Fraction


class Band(IntEnum):
    """A player's band; its value is the rank transition it states (negative: lower ranks)."""

    TWO_LOWER = -2  # 0-19%: two lower ranks, +1 Game Point on every piece the player captured
    ONE_LOWER = -1  # 20-39%: one lower rank
    EVEN = 0  # 40-59%: evenly ranked
    ONE_HIGHER = 1  # 60-79%: one higher rank, the player's captured Cannons give 1 point
    TWO_HIGHER = 2  # 80-95%: two higher ranks, captured Cavalry give 1 point
    THREE_HIGHER = 3  # 96-100%: three higher ranks, a mis-match, captured command pieces give 5

    @property
    def mismatch(self) -> bool:
        """The chart: 96-100% means "the match is considered a mis-match"."""
        return self is Band.THREE_HIGHER


# Lowest whole percentage of each band, highest band first.
_FLOORS = (
    (96, Band.THREE_HIGHER),
    (80, Band.TWO_HIGHER),
    (60, Band.ONE_HIGHER),
    (40, Band.EVEN),
    (20, Band.ONE_LOWER),
    (0, Band.TWO_LOWER),
)


def band_for(percentage: Fraction) -> Band:
    """The band of an Average Percentage Score (0 to 100)."""
    if not 0 <= percentage <= 100:
        raise ValueError(f"a percentage score is between 0 and 100, not {percentage}")
    return next(band for floor, band in _FLOORS if percentage >= floor)


def percentage_scores(first: int, second: int) -> tuple[Fraction, Fraction]:
    """Each player's share of the Total Points Scored in one game, in percent.

    A game in which nobody scored has no Total Points Scored to divide by; each player then
    gets 50%, as neither outscored the other.
    """
    if first < 0 or second < 0:
        raise ValueError("a Personal Score cannot be negative")
    total = first + second
    if total == 0:
        return Fraction(50), Fraction(50)
    share = Fraction(100 * first, total)
    return share, 100 - share


def average(percentages: list[Fraction]) -> Fraction:
    """The Average Percentage Score over the games compared."""
    if not percentages:
        raise ValueError("an average needs at least one game")
    return sum(percentages, Fraction(0)) / len(percentages)
