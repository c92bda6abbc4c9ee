"""Handicaps on Game Points: the rank-differential tables and the band effects.

Handicaps change Game Points only, never the Ranking Point Value (chapter 10: "Handicaps are
always applied to Game Point Value and NEVER to the Ranking Point Value").
"""

from __future__ import annotations

from .bands import Band
from .points import Board, Captures, piece_values

# Rank differential -> (lower ranked player, higher ranked player); 8 stands for "8+".
LONG_HANDICAPS: dict[int, tuple[int, int]] = {
    4: (0, -4),
    5: (6, -8),
    6: (12, -12),
    7: (18, -16),
    8: (24, -20),
}
SHORT_HANDICAPS: dict[int, tuple[int, int]] = {
    4: (0, -1),
    5: (1, -2),
    6: (2, -3),
    7: (4, -4),
    8: (6, -5),
}
TABLES = {Board.LONG: LONG_HANDICAPS, Board.SHORT: SHORT_HANDICAPS}
FIRST_ROW = 4  # "Players within 3 ranks of each other do not use this table."
LAST_ROW = 8  # "8+": larger differentials use this row too


def rank_handicap(board: Board, ranks: tuple[int, int]) -> tuple[int, int]:
    """Game Points added to each player's match total for the difference of their ranks.

    A higher rank number is the stronger player (the chapter's Player A goes from rank 2 to
    rank 3 by playing better), so the lower number is the "Lower Ranked Player".
    """
    first, second = ranks
    differential = abs(first - second)
    if differential < FIRST_ROW:
        return 0, 0
    lower, higher = TABLES[board][min(differential, LAST_ROW)]
    return (lower, higher) if first < second else (higher, lower)


def band_values(assassins: bool, band: Band) -> dict[str, int]:
    """What each captured piece is worth in Game Points to a player in ``band``.

    The effects add up as the bands rise: a player at 80-95% also has Cannons at 1 point, one
    at 96-100% Cannons and Cavalry at 1 and command pieces at 5, so a better score never
    earns more Game Points from the same captures. At 0-19% every piece is worth 1 more.
    """
    values = piece_values(assassins)
    if band >= Band.ONE_HIGHER:
        values["cannons"] = 1
    if band >= Band.TWO_HIGHER:
        values["cavalry"] = 1
    if band >= Band.THREE_HIGHER:
        values["command"] = 5
    if band is Band.TWO_LOWER:
        values = {name: value + 1 for name, value in values.items()}
    return values


def game_point_value(captures: Captures, assassins: bool, band: Band = Band.EVEN) -> int:
    """A player's Game Point Value for one game: captures at the values of their band."""
    values = band_values(assassins, band)
    return sum(count * values[name] for name, count in captures.counts().items())
