"""Torii's evaluation for its search (``ai.torii.state``), in hundredths of a Follower, for a
side, read from the position alone (nothing in a Torii position is hidden).

The two ways to win weigh most: Followers placed (TI9) and Torii built (TI10). A Torii is
worth more than the Followers its line gives back (four against the three a build returns),
so the search builds when it can; the seam's evaluation (``ai.torii.evaluate``) weighs a
Torii at 2.5 Followers and so sees a build as a loss. A line of three of a side's Followers
whose fourth square is not under the opponent's Torii is a threat of the next Torii, and one
Follower or one Torii short of a win is worth a bonus of its own.
"""

from __future__ import annotations

from rules import Side
from rules.torii import LINES, Position, follower, gate

FOLLOWER = 100
TORII = 400
THREAT = 60  # a line three of a side's Followers hold, its fourth square open to them
NEAR_WIN = 150  # eight Followers placed, or three Torii built
FOLLOWERS, TORII_COUNT = 9, 4


def progress(cells: bytes, side: Side) -> int:
    """What ``side`` has towards its two wins."""
    mine, guarded, theirs_guarded = follower(side), gate(side), gate(side.other)
    built = cells.count(guarded)
    placed = cells.count(mine) + built
    score = FOLLOWER * placed + TORII * built
    if placed == FOLLOWERS - 1:
        score += NEAR_WIN
    if built == TORII_COUNT - 1:
        score += NEAR_WIN
    for line in LINES:
        own = blocked = 0
        for sq in line:
            cell = cells[sq]
            if cell in (mine, guarded):
                own += 1
            elif cell == theirs_guarded:
                blocked = 1
        if own == 3 and not blocked:
            score += THREAT
    return score


def evaluate(pos: Position, side: Side) -> int:
    """``side``'s standing in ``pos`` (an unfinished game)."""
    return progress(pos.cells, side) - progress(pos.cells, side.other)
