"""When a player's clock stands still: their time away (``away_days`` rows) and, in a match
with weekends off, their own Saturdays and Sundays (in the time zone of their settings).
A turn's deadline is when its time has run outside those (``run_until``); what is left of
a turn is the running time between now and its deadline (``running_between``)."""

from __future__ import annotations

import datetime as dt
import zoneinfo
from collections.abc import Sequence

from rules import Side
from storage import Away, Hosted, Store

from .models import is_robot
from .people import load_player
from .terms import Terms

Interval = tuple[float, float]
HORIZON = 400 * 86400.0  # how far ahead weekends are laid out (longer than any turn)


def weekends(zone: zoneinfo.ZoneInfo, start: float, end: float) -> list[Interval]:
    """Each Saturday 00:00 to Monday 00:00 in ``zone`` that overlaps [start, end]."""
    day = dt.datetime.fromtimestamp(start, zone).date()
    saturday = day - dt.timedelta(days=(day.weekday() - 5) % 7)
    found: list[Interval] = []
    while True:
        begin = dt.datetime.combine(saturday, dt.time(), zone).timestamp()
        finish = dt.datetime.combine(saturday + dt.timedelta(days=2), dt.time(), zone).timestamp()
        if begin > end:
            return found
        if finish > start:
            found.append((begin, finish))
        saturday += dt.timedelta(days=7)


def merged(intervals: Sequence[Interval]) -> list[Interval]:
    """The intervals sorted, overlapping ones joined."""
    out: list[Interval] = []
    for begin, finish in sorted(intervals):
        if out and begin <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], finish))
        elif finish > begin:
            out.append((begin, finish))
    return out


def run_until(start: float, seconds: float, stops: Sequence[Interval]) -> float:
    """When ``seconds`` of running time have passed after ``start``, the clock standing
    still through ``stops`` (merged)."""
    now, left = start, seconds
    for begin, finish in stops:
        if finish <= now:
            continue
        if begin > now:
            if begin - now >= left:
                return now + left
            left -= begin - now
        now = finish
    return now + left


def running_between(start: float, end: float, stops: Sequence[Interval]) -> float:
    """The running time from ``start`` to ``end`` (none while stopped)."""
    if end <= start:
        return 0.0
    still = sum(max(0.0, min(end, finish) - max(start, begin)) for begin, finish in stops)
    return max(0.0, end - start - still)


async def stops_of(
    store: Store, terms: Terms, hosted: Hosted, side: Side, since: float
) -> list[Interval]:
    """When ``side``'s clock stands still from ``since`` on: their time away in the
    match's server (if away days apply to it), and their weekends if the match has weekends
    off."""
    return (await stops_by_side(store, terms, hosted, (side,), since))[side]


def away_users(terms: Terms, hosted: Hosted, sides: Sequence[Side]) -> list[int]:
    """The players of ``sides`` whose time away stops their clocks (none in a match
    without away days, never an AI), each once."""
    if not terms.away_days:
        return []
    return sorted({hosted.player(side) for side in sides if not is_robot(hosted.player(side))})


async def stops_by_side(
    store: Store,
    terms: Terms,
    hosted: Hosted,
    sides: Sequence[Side],
    since: float,
    aways: Sequence[Away] | None = None,
) -> dict[Side, list[Interval]]:
    """``stops_of`` each of ``sides``, their time away read at once (one read for a turn
    end, which settles one clock and starts the other), or given: ``aways``, the times
    away of ``away_users`` that end after ``since``, read already."""
    people = {side: hosted.player(side) for side in sides if not is_robot(hosted.player(side))}
    if aways is None:
        users = away_users(terms, hosted, sides)
        aways = await store.aways(hosted.guild_id, users, since) if users else []
    found: dict[Side, list[Interval]] = {
        side: [
            (a.starts_at, a.ends_at) for a in aways if side in people and a.user_id == people[side]
        ]
        for side in sides
    }
    if terms.weekends_off:
        for side, user in people.items():
            zone = (await load_player(store, user)).zone
            found[side] += weekends(zone, since, since + HORIZON)
    return {side: merged(intervals) for side, intervals in found.items()}
