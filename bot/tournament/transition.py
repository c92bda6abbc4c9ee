"""Current and Transitional Ranks, and how a transition is resolved (chapter 10).

A match with a ranking comparison says, for each player, which rank they played like: the
opponent's Current Rank moved by the player's band ("Match 2 gives Player A a Transitional
Rank of +2 against another Rank 3 (which means Player A played as if he/she was 2 ranks
higher than that Rank 3)"). When that differs from the player's Current Rank, the player is in
transition towards it, and the next four ranked matches decide: the rank that at least three
of them support, if it lies beyond the Current Rank on the transition's side, becomes the new
Current Rank, never going past the Transitional Rank; otherwise the transition is discarded.
"""

from __future__ import annotations

from dataclasses import dataclass

from .bands import Band
from .match import STARTING_RANK, Match, Seat
from .points import Board

MATCHES_TO_RESOLVE = 4  # "3 out of the player's next four opponents"
MATCHES_TO_AGREE = 3


@dataclass(frozen=True)
class Transition:
    """A pending Transitional Rank and the ranks the player has played like since."""

    rank: int
    played_like: tuple[int, ...] = ()


@dataclass(frozen=True)
class PlayerRank:
    """One player's tournament rank on one board size: kept per board, beside (never mixed
    with) the Glicko-2 ladder rating."""

    board: Board
    rank: int = STARTING_RANK
    transition: Transition | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "board", Board(self.board))
        if self.rank < STARTING_RANK:
            raise ValueError(f"ranks start at {STARTING_RANK}, not {self.rank}")

    def after(self, opponent_rank: int, band: Band | None) -> PlayerRank:
        """The rank after a match against a player of ``opponent_rank``; ``band`` is this
        player's band, None when the match had no ranking comparison (it states nothing)."""
        if band is None:
            return self
        played_like = max(STARTING_RANK, opponent_rank + band)
        if self.transition is None:
            if played_like == self.rank:
                return self
            return PlayerRank(self.board, self.rank, Transition(played_like))
        evidence = (*self.transition.played_like, played_like)
        if len(evidence) < MATCHES_TO_RESOLVE:
            return PlayerRank(self.board, self.rank, Transition(self.transition.rank, evidence))
        return PlayerRank(self.board, resolve(self.rank, self.transition.rank, evidence))


def resolve(current: int, transitional: int, played_like: tuple[int, ...]) -> int:
    """The new Current Rank once the four matches after the transition are played."""
    upward = transitional > current
    supported = sorted(played_like, reverse=upward)[MATCHES_TO_AGREE - 1]
    if upward and supported > current:
        return min(transitional, supported)
    if not upward and supported < current:
        return max(transitional, supported)
    return current


def ranks_after(
    match: Match, ranks: tuple[PlayerRank, PlayerRank]
) -> tuple[PlayerRank, PlayerRank]:
    """Both players' ranks after a finished match; ``ranks`` by seat, as they were before it."""
    if not match.finished:
        raise ValueError("ranks change only when the match is over")
    setup = match.setup
    for seat, player in zip(Seat, ranks, strict=True):
        if player.board is not setup.board:
            raise ValueError(f"a {setup.board}-board match cannot change a {player.board} rank")
        if player.rank != setup.ranks[seat]:
            raise ValueError(
                f"seat {seat.name} played at rank {setup.ranks[seat]}, not {player.rank}"
            )
    ranking = match.score.ranking
    bands = ranking.bands if ranking else (None, None)
    return (
        ranks[0].after(setup.ranks[1], bands[0]),
        ranks[1].after(setup.ranks[0], bands[1]),
    )
