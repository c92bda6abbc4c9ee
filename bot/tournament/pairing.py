"""Pairing a tier: equal ranks together where possible, a substitute for an odd one out.

Chapter 10: "Tournament Judges do their best to pit equal ranked players against each other",
and "if there is ever an uneven tier (where there is 1 player left without someone to play
against), a Substitute Player of comparable rank should be picked to play against such a
player."
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Entrant:
    player_id: int
    rank: int  # the Current Rank on the tournament's board


@dataclass(frozen=True)
class Pairing:
    """A match of the tier; ``first`` is the Challenger of its odd games. With ``substitute``
    the second player is a substitute, whose result counts for the first player only."""

    first: Entrant
    second: Entrant
    substitute: bool = False


class NoSubstitute(ValueError):
    """An odd tier and nobody to play the player left over."""


def pair_tier(players: Sequence[Entrant], substitutes: Sequence[Entrant]) -> list[Pairing]:
    """Pair ``players`` (at least two, in seeding order: equal ranks keep it) strongest first.

    Sorted by rank, neighbours are paired, which pairs equal ranks wherever their numbers
    allow. In an odd tier the player left over is the one whose absence leaves the smallest
    total rank difference between neighbours (the lowest seed among equals); they play the
    substitute of the closest rank (the first offered among equals).
    """
    if len(players) < 2:
        raise ValueError("a tier needs at least two players")
    ordered = sorted(players, key=lambda entrant: -entrant.rank)
    leftover = None
    if len(ordered) % 2:
        index = _odd_one_out(ordered)
        leftover = ordered.pop(index)
    pairings = [Pairing(ordered[i], ordered[i + 1]) for i in range(0, len(ordered), 2)]
    if leftover is not None:
        if not substitutes:
            raise NoSubstitute(f"player {leftover.player_id} has nobody to play")
        closest = min(substitutes, key=lambda s: abs(s.rank - leftover.rank))
        pairings.append(Pairing(leftover, closest, substitute=True))
    return pairings


def _odd_one_out(ordered: list[Entrant]) -> int:
    """Which player to leave out of an odd, rank-sorted list: only an even index keeps the
    rest in neighbouring pairs."""

    def cost(index: int) -> int:
        rest = ordered[:index] + ordered[index + 1 :]
        return sum(rest[i].rank - rest[i + 1].rank for i in range(0, len(rest), 2))

    candidates = range(0, len(ordered), 2)
    return min(candidates, key=lambda index: (cost(index), -index))
