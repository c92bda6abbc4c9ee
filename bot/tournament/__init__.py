"""Tournaments by chapter 10 of TORA's rule book, the game whose type offers a tournament
scoring (``scoring``).

The format is plain arithmetic: Game Point Values with their handicaps, four-game matches to
an organiser's target, the Ranking Point Value and its bands, Current and Transitional Ranks
per board size, pairings and the order of tied champions (the names exported here). The desk
(``desk``: the ``/tora-tournament`` commands) and the running tournament (``flow``: scoring
each game as it ends, opening the next) store and post through storage and the match service.
Decisions where the chapter is open: docs/TOURNAMENTS.md.
"""

from .bands import Band, band_for, percentage_scores
from .champions import Standing, order_champions
from .handicap import game_point_value, rank_handicap
from .match import (
    TARGET_BOUNDS,
    GameResult,
    Match,
    MatchScore,
    MatchSetup,
    RankingComparison,
    Seat,
    check_target,
    decide_tie_breaker,
)
from .points import Board, Captures, army, personal_score
from .transition import PlayerRank, Transition, ranks_after

__all__ = [
    "TARGET_BOUNDS",
    "Band",
    "Board",
    "Captures",
    "GameResult",
    "Match",
    "MatchScore",
    "MatchSetup",
    "PlayerRank",
    "RankingComparison",
    "Seat",
    "Standing",
    "Transition",
    "army",
    "band_for",
    "check_target",
    "decide_tie_breaker",
    "game_point_value",
    "order_champions",
    "percentage_scores",
    "personal_score",
    "rank_handicap",
    "ranks_after",
]
