"""Grouped saves racing each other: two stores on one PostgreSQL database (as two processes
of a cluster would be), each with writers of its own, save the same matches (hosted or
not) at once, over and over, each save of a copy read just before. Whatever the groups and the
retries, every save either lands whole (its entries, its match's and hosted match's new
versions) or is refused and leaves nothing, and every match is its log as saved."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from backends import config as database
from backends import drop, postgres_missing, raw_sql
from storage_workload import PLAYERS
from test_storage_postgres_group import _hosted, _match, _play

from storage import Config, Hosted, Match, StaleHosted, StaleMatch, Store

pytestmark = pytest.mark.postgres
MATCHES, PLAYERS_A_MATCH, SAVES = 6, 3, 20  # each "player" of a match saves SAVES times


@pytest.fixture
async def pg(tmp_path: Path) -> AsyncIterator[Config]:
    if reason := postgres_missing():
        pytest.skip(reason)
    config = database("postgres", tmp_path, writers=2)
    yield config
    await drop(config)


async def test_saves_racing_from_two_stores_land_whole_or_not_at_all(
    pg: Config, together_runs: list[int]
) -> None:
    async with await Store.open(pg) as first, await Store.open(pg) as second:
        for user_id, name in PLAYERS:
            await first.save_player(user_id, name)
        started: list[tuple[Hosted | None, Match]] = []
        for channel in range(100, 100 + MATCHES):
            started.append(
                await _hosted(first, channel) if channel % 2 else (None, await _match(first))
            )
        landed: dict[int, list[range]] = {match.id: [] for _hosted_match, match in started}
        players = [
            _player(store, hosted, match.id, landed[match.id], random.Random(n))
            for n, (hosted, match) in enumerate(started)
            for store in (first, second) * PLAYERS_A_MATCH
        ]
        refused = sum(await asyncio.gather(*players))
        for hosted, match in started:
            await _as_saved(first, hosted, match, landed[match.id])
    assert max(together_runs, default=0) > 1, "saves were grouped"
    assert refused > 0, "saves raced each other"


async def _player(
    store: Store, hosted: Hosted | None, match_id: int, landed: list[range], rng: random.Random
) -> int:
    """SAVES saves of ``match_id``, each of a copy read just before with a step or two
    played on it; the new entries' numbers of each save that landed noted in ``landed``.
    How many were refused."""
    refused = 0
    for _ in range(SAVES):
        current = hosted and await _current(store, hosted.id)
        match = await store.load(match_id)
        stored = match.seq
        for _step in range(rng.randint(1, 2)):
            _play(match)
        await asyncio.sleep(rng.random() / 1000)
        try:
            await (store.save(match) if current is None else store.save_hosted(match, current))
        except (StaleMatch, StaleHosted):
            refused += 1
            continue
        landed.append(range(stored + 1, match.seq + 1))
    return refused


async def _current(store: Store, hosted_id: int) -> Hosted:
    hosted = await store.hosting.get(hosted_id)
    assert hosted is not None
    return hosted


async def _as_saved(store: Store, hosted: Hosted | None, match: Match, landed: list[range]) -> None:
    """The match is its log as saved: every entry written by exactly one save that landed,
    numbered without a gap, and the log replays (``load``); the match and its hosted match
    moved on once for each save that landed."""
    loaded = await store.load(match.id)
    seqs = [row[0] for row in await raw_sql(store.config, _SEQS, match.id)]
    assert seqs == list(range(1, loaded.seq + 1))
    assert sorted(seq for saved in landed for seq in saved) == seqs
    assert loaded.version == match.version + len(landed)
    if hosted is not None:
        assert (await _current(store, hosted.id)).version == hosted.version + len(landed)


_SEQS = "SELECT seq FROM actions WHERE match_id = ? ORDER BY seq"
