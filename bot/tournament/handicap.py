"""Handicaps on Game Points: the rank-differential tables and the band effects, as the
tournament game's scoring states them (TORA's chapter 10).

Handicaps change Game Points only, never the Ranking Point Value (chapter 10: "Handicaps are
always applied to Game Point Value and NEVER to the Ranking Point Value").
"""

from __future__ import annotations

from .bands import Band
from .points import Board, Captures
from .scoring import scoring


def rank_handicap(board: Board, ranks: tuple[int, int]) -> tuple[int, int]:
    """Game Points added to each player's match total for the difference of their ranks (a
    higher rank number is the stronger player)."""
    return scoring().rank_handicap(board, ranks)


def band_values(assassins: bool, band: Band) -> dict[str, int]:
    """What each captured piece is worth in Game Points to a player in ``band`` (the effects
    add up as the bands rise; at 0-19% every piece is worth 1 more)."""
    return scoring().values(assassins, band)


def game_point_value(captures: Captures, assassins: bool, band: Band = Band.EVEN) -> int:
    """A player's Game Point Value for one game: captures at the values of their band."""
    values = band_values(assassins, band)
    return sum(count * values[name] for name, count in captures.counts().items())
