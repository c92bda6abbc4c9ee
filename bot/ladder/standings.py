"""A rated result applied to both players' standings, and a whole season replayed from its
results: the one rule both recording and recomputing use, so a recompute is deterministic
and gives what recording the same results one by one gave.

Every rated result is its own Glicko-2 rating period for both players. Idle time counts too:
for every whole ``PERIOD`` (7 days) a player went without a rated result, their deviation
first grows by one period (``inflate``), so a rating left alone for weeks becomes
provisional again and moves faster at its next result.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from storage.competitions.ladders import ResultRow, Standing

from .glicko2 import Rating, inflate, play

DAY = 86400.0
PERIOD = 7 * DAY


def idle_periods(last_played: float, now: float) -> int:
    return max(0, int((now - last_played) // PERIOD))


def fresh(player_id: int, at: float) -> Standing:
    start = Rating()
    return Standing(player_id, start.rating, start.deviation, start.volatility, 0, 0, 0, 0, at, 0)


def glicko(standing: Standing) -> Rating:
    return Rating(standing.rating, standing.deviation, standing.volatility)


def current(standing: Standing, now: float) -> Rating:
    """The rating as it stands at ``now``: deviation grown for the idle periods since."""
    return inflate(glicko(standing), idle_periods(standing.last_played, now))


def _after(standing: Standing, rating: Rating, score: float, at: float) -> Standing:
    win, loss = score == 1.0, score == 0.0
    if win:
        streak = max(standing.streak, 0) + 1
    elif loss:
        streak = min(standing.streak, 0) - 1
    else:
        streak = 0
    return replace(
        standing,
        rating=rating.rating,
        deviation=rating.deviation,
        volatility=rating.volatility,
        games=standing.games + 1,
        wins=standing.wins + win,
        losses=standing.losses + loss,
        draws=standing.draws + (not win and not loss),
        last_played=at,
        streak=streak,
    )


@dataclass(frozen=True)
class Applied:
    first: Standing
    second: Standing
    first_change: float
    second_change: float


def apply(first: Standing, second: Standing, score: float, at: float) -> Applied:
    """Both standings after a result at ``at`` in which ``first`` scored ``score``."""
    new_first, new_second = play(current(first, at), current(second, at), score)
    return Applied(
        _after(first, new_first, score, at),
        _after(second, new_second, 1.0 - score, at),
        new_first.rating - first.rating,
        new_second.rating - second.rating,
    )


def replay(results: Iterable[ResultRow]) -> tuple[dict[int, Standing], list[Applied]]:
    """Every player's standing after ``results`` (in order, from fresh ratings), and what
    each result did."""
    standings: dict[int, Standing] = {}
    applied = []
    for result in results:
        first = standings.get(result.first_id) or fresh(result.first_id, result.played_at)
        second = standings.get(result.second_id) or fresh(result.second_id, result.played_at)
        step = apply(first, second, result.score, result.played_at)
        standings[result.first_id], standings[result.second_id] = step.first, step.second
        applied.append(step)
    return standings, applied
