"""The matchmaking queue on a real SQLite file: pairing close ratings, the gap widening with
waiting time, leaving, expiry, bots refused."""

from __future__ import annotations

import pytest
from ladder_fixtures import GUILD, ManualClock, finished, open_store

from bot.ladder.errors import LadderError, NotFound
from bot.ladder.queue import EXPIRE_AFTER, HOUR, Matchmaking, allowed_gap
from bot.ladder.results import Results
from storage import Away, Config

CHANNEL = 77


def test_the_allowed_gap_widens_with_waiting_and_is_capped() -> None:
    assert allowed_gap(0) == 100
    assert allowed_gap(2 * HOUR) == 200
    assert allowed_gap(100 * HOUR) == 400


async def test_far_ratings_pair_once_the_gap_has_widened(db: Config) -> None:
    async with await open_store(db) as store:
        clock = ManualClock()
        results, queue = Results(store, clock), Matchmaking(store, clock)
        await results.record_match(await finished(store, 1, 2, "C"))  # ann 1662, bob 1338
        assert await queue.join(GUILD, "short", 1, CHANNEL) == []
        assert await queue.join(GUILD, "short", 2, CHANNEL + 1) == []  # 325 apart
        assert await queue.join(GUILD, "long", 4, CHANNEL) == []  # another board's queue
        assert await queue.join(GUILD, "short", 3, CHANNEL + 2) == []  # cid: 1500, 162 off
        clock.advance(HOUR)
        assert await queue.pair(GUILD, "short") == []  # 150 allowed
        clock.advance(HOUR / 2)
        pairs = await queue.pair(GUILD, "short")  # 175 allowed: ann waited longest
        assert [(p.first_id, p.second_id, p.channel_id, round(p.gap)) for p in pairs] == [
            (1, 3, CHANNEL, 162)
        ]
        assert [e.player_id for e in await queue.waiting(GUILD, "short")] == [2]


async def test_the_longest_waiter_gets_the_closest_rating(db: Config) -> None:
    async with await open_store(db) as store:
        clock = ManualClock()
        queue = Matchmaking(store, clock)
        assert await queue.join(GUILD, "short", 1, CHANNEL) == []
        pairs = await queue.join(GUILD, "short", 2, CHANNEL + 1)
        assert [(p.first_id, p.second_id, p.channel_id, p.gap) for p in pairs] == [
            (1, 2, CHANNEL, 0.0)
        ]
        assert await queue.waiting(GUILD, "short") == []


async def test_leaving_twice_joining_and_bots(db: Config) -> None:
    async with await open_store(db) as store:
        queue = Matchmaking(store, ManualClock())
        await queue.join(GUILD, "short", 1, CHANNEL)
        with pytest.raises(LadderError, match="already waiting"):
            await queue.join(GUILD, "short", 1, CHANNEL)
        await queue.leave(GUILD, "short", 1)
        with pytest.raises(NotFound, match="not waiting"):
            await queue.leave(GUILD, "short", 1)
        await store.ladders.set_bot(5)
        with pytest.raises(LadderError, match="Bot accounts"):
            await queue.join(GUILD, "short", 5, CHANNEL)
        with pytest.raises(LadderError, match="not `huge`"):
            await queue.join(GUILD, "huge", 1, CHANNEL)


async def test_stale_entries_expire(db: Config) -> None:
    async with await open_store(db) as store:
        clock = ManualClock()
        results, queue = Results(store, clock), Matchmaking(store, clock)
        for _ in range(6):
            await results.record_match(await finished(store, 1, 2, "C"))
        await queue.join(GUILD, "short", 1, CHANNEL)
        clock.advance(EXPIRE_AFTER - HOUR)
        await queue.join(GUILD, "long", 3, CHANNEL)
        assert await queue.join(GUILD, "short", 2, CHANNEL) == []  # more than 400 apart
        clock.advance(2 * HOUR)
        expired = await queue.expire()
        assert [(e.board, e.player_id, e.channel_id) for e in expired] == [("short", 1, CHANNEL)]
        assert [e.player_id for e in await queue.waiting(GUILD, "short")] == [2]
        assert [e.player_id for e in await queue.waiting(GUILD, "long")] == [3]


async def test_a_player_taking_away_days_is_not_paired_until_back(db: Config) -> None:
    async with await open_store(db) as store:
        clock = ManualClock()
        queue = Matchmaking(store, clock)
        await store.add_away(Away(GUILD, 1, clock() - HOUR, clock() + 2 * HOUR))
        assert await queue.join(GUILD, "short", 1, CHANNEL) == []
        assert await queue.join(GUILD, "short", 2, CHANNEL + 1) == []  # ann is away
        clock.advance(2 * HOUR)
        pairs = await queue.pair(GUILD, "short")  # she is back
        assert [(p.first_id, p.second_id) for p in pairs] == [(1, 2)]
