"""Torii's evaluation for its search (``ai.torii.state``), in hundredths of a Follower, for a
side, read from the position alone (nothing in a Torii position is hidden).

The two ways to win weigh most: Followers placed (TI9) and Torii built (TI10). A Torii is
worth more than the Followers its line gives back (four against the three a build returns),
so the search builds when it can; the seam's evaluation (``ai.torii.evaluate``) weighs a
Torii at 2.5 Followers and so sees a build as a loss. A line of three of a side's Followers
whose fourth square is not under the opponent's Torii is a threat of the next Torii, and one
Torii short of a win is worth a bonus of its own.

Most games end in the race to nine Followers, and a search of a few turns stops at a
position where the side to move may finish it: a side whose Followers left to place are no
more than its longest unused tile's steps can win on its turn (unless its landings are
already its own), so the side to move is given ``RACE_NOW`` for it and the other side, who
must first survive a turn, ``RACE_NEXT``.
"""

from __future__ import annotations

from rules import Side
from rules.torii import LINES, Position, follower, gate

FOLLOWER = 100
TORII = 350
THREAT = 60  # a line three of a side's Followers hold, its fourth square open to them
NEAR_WIN = 150  # three Torii built
RACE_NOW = 800  # the side to move can place its last Followers this turn
RACE_NEXT = 250  # the other side could on its next turn
FOLLOWERS, TORII_COUNT = 9, 4


def progress(cells: bytes, side: Side) -> int:
    """What ``side`` has towards its two wins."""
    mine, guarded, theirs_guarded = follower(side), gate(side), gate(side.other)
    built = cells.count(guarded)
    placed = cells.count(mine) + built
    score = FOLLOWER * placed + TORII * built
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


def longest_tile(used: int) -> int:
    """The most steps an unused tile of a side gives on its next turn (all used: they are
    reset at the end of the turn, so only a Monkey's flip leaves them so, and then 0)."""
    return next((tile for tile in (3, 2, 1) if not used >> (tile - 1) & 1), 0)


def race(pos: Position, side: Side, moving: bool) -> int:
    """``side``'s bonus for being able to place its last Followers on its next turn."""
    left = FOLLOWERS - pos.cells.count(follower(side)) - pos.cells.count(gate(side))
    if left > longest_tile(pos.used[side]):
        return 0
    return RACE_NOW if moving else RACE_NEXT


def evaluate(pos: Position, side: Side) -> int:
    """``side``'s standing in ``pos`` (an unfinished game), ``side`` to move."""
    other = side.other
    return (
        progress(pos.cells, side)
        + race(pos, side, True)
        - progress(pos.cells, other)
        - race(pos, other, False)
    )
