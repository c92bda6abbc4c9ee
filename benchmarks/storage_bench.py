"""Storage figures (issue 4): durable appends, concurrent append latency, load time, size.

Every figure uses a real SQLite file in a temporary directory, WAL + synchronous=FULL (the
defaults), and real random short-board play through ``storage.Match``. Append figures time
``Store.save`` only: validating the action is the rules core's cost, measured by rules_bench.
The concurrent appends are measured on PostgreSQL too where ``TORA_BENCH_POSTGRES`` names a
server (issue 26): their p99 beside the disk's fsync, measured in the same run.
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import asyncpg

from rules.tora import Game, IllegalAction, Options
from storage import Config, Match, Store
from storage.backends.postgres_sql import args, translate
from storage.hosting import saving
from storage.matches.games import state_version
from storage.matches.models import State
from storage.matches.writes import Append

from .common import Figure, median, postgres_schema
from .disk import fsync_ms

SAVES = 2000
WRITERS, SAVES_PER_WRITER = 10, 200
WARM_ROUNDS = 20  # rounds of WRITERS saves not timed, see _ten_writers
LOAD_ACTIONS = 2000
FLOOR_ROW = b"\0" * 200  # about a log entry's size


async def _match(store: Store) -> Match:
    for user_id in (1, 2):
        await store.save_player(user_id, f"player {user_id}")
    # the highest point target keeps the series going (R28) past the longest match measured
    return await store.create_match(1, 1, 2, Game(Options(board="short", target=999)))


def _step(match: Match, rng: random.Random) -> None:
    """A random action, or a turn end (undoing the last action if R30 refuses it). A turn
    end that would leave the opponent trapped (R25 ends even a series) is not taken, so the
    one match can reach any length."""
    game = match.game
    if game.actions_left and rng.random() < 0.7:
        match.act(game.notation(rng.choice(game.legal_actions())))
        return
    trial = game.copy()
    try:
        trial.end_turn()
    except IllegalAction:
        match.undo()
        return
    if not trial.is_over():
        match.end_turn()
    elif game.staged():
        match.undo()
    else:
        match.act(game.notation(rng.choice(game.legal_actions())))


async def _timed_saves(store: Store, match: Match, rng: random.Random, saves: int) -> list[float]:
    """Milliseconds of each ``save`` of one new log entry."""
    times = []
    for _ in range(saves):
        _step(match, rng)
        start = time.perf_counter()
        await store.save(match)
        times.append((time.perf_counter() - start) * 1000)
    return times


async def _one_writer(path: Path) -> Figure:
    async with await Store.open(Config(path=path)) as store:
        times = await _timed_saves(store, await _match(store), random.Random(1), SAVES)
    return Figure(
        "durable appends, WAL+FULL, one writer (save only)",
        1000 * len(times) / sum(times),
        "/s",
        2000,
        higher_is_better=True,
    )


async def _ten_writers(config: Config) -> list[float]:
    """Milliseconds of each save of WRITERS matches saving at once: rounds in which every
    writer first plays its next step (the rules core's work, not timed), then all of them
    save at the same moment. The matches start at different points (a few untimed saves
    each), as real ones do, so that their snapshots (one save in 32) do not all fall in the
    same round. The first rounds are not timed either: a running bot's connections have
    prepared their statements long before (a PostgreSQL connection prepares and plans a
    statement afresh for its first uses, up to several milliseconds each)."""
    times: list[float] = []

    async def timed(match: Match, kept: list[float]) -> None:
        start = time.perf_counter()
        await store.save(match)
        kept.append((time.perf_counter() - start) * 1000)

    async with await Store.open(config) as store:
        matches = [await _match(store) for _ in range(WRITERS)]
        rngs = [random.Random(n) for n in range(WRITERS)]
        for n, (match, rng) in enumerate(zip(matches, rngs, strict=True)):
            await _timed_saves(store, match, rng, 3 * n)
        for round_ in range(WARM_ROUNDS + SAVES_PER_WRITER):
            for match, rng in zip(matches, rngs, strict=True):
                _step(match, rng)
            kept = times if round_ >= WARM_ROUNDS else []
            await asyncio.gather(*(timed(match, kept) for match in matches))
    return times


def p99(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def _postgres_ten_writers(fsync_ms: float) -> Iterator[Figure]:
    """The concurrent appends on PostgreSQL: a commit waits for the server's WAL fsync, so
    the target is a few of this disk's fsyncs (the saves waiting together are written by
    one statement and committed together, ``storage.hosting.saving``). Beside them, the
    least ten durable rows cost on this server (``_floor``)."""
    with postgres_schema("storage") as config:
        if config is None:
            return
        times = asyncio.run(_ten_writers(config))
        label = f"one append with {WRITERS} concurrent writers, PostgreSQL"
        yield Figure(f"{label} (p99)", p99(times), "ms", round(3 * fsync_ms, 2))
        yield Figure("  same, p50", median(times), "ms")
        work = asyncio.run(_server_work(config))
        yield Figure(
            f"reference: the server's work for {WRITERS} saves, their statement without a"
            " commit (p50)",
            median(work),
            "ms",
        )
        floor = asyncio.run(_floor(config))
        yield Figure(
            f"reference: {WRITERS} one-row INSERTs in one statement, committed (p99)",
            p99(floor),
            "ms",
        )
        yield Figure("  same, p50", median(floor), "ms")


async def _server_work(config: Config) -> list[float]:
    """Milliseconds of the one statement PostgreSQL's writer sends for WRITERS saves queued
    together (``saving.statement``: their matches moved on and their entries written), run
    on a connection of its own in a transaction then rolled back: the server's own work for
    them and one round trip, without the commit. In rounds of ``_ten_writers``'s steps
    (without their snapshots), each then saved for real (not timed)."""
    conn = await asyncpg.connect(config.url, server_settings={"search_path": config.schema})
    times: list[float] = []
    try:
        async with await Store.open(config) as store:
            matches = [await _match(store) for _ in range(WRITERS)]
            rngs = [random.Random(n) for n in range(WRITERS)]
            for round_ in range(WARM_ROUNDS + SAVES_PER_WRITER):
                for match, rng in zip(matches, rngs, strict=True):
                    _step(match, rng)
                sql, parameters = saving.statement([_save(match) for match in matches], 0.0)
                transaction = conn.transaction()
                await transaction.start()
                start = time.perf_counter()
                await conn.fetch(translate(sql), *args(parameters))
                if round_ >= WARM_ROUNDS:
                    times.append((time.perf_counter() - start) * 1000)
                await transaction.rollback()
                await asyncio.gather(*(store.save(match) for match in matches))
    finally:
        await conn.close()
    return times


def _save(match: Match) -> saving.Save:
    """What ``Store.save`` writes for ``match``, but a snapshot."""
    game = match.game
    request = Append(match.id, match.version, list(match.pending), State.of(game), match.deadline)
    return saving.Save(request, state_version(game))


async def _floor(config: Config) -> list[float]:
    """Milliseconds of each commit of the least WRITERS durable appends can be, in as many
    rounds as ``_ten_writers`` times: one statement inserting WRITERS rows of about a log
    entry's size, on a connection of its own (asyncpg, on this loop, no writer thread), in
    the server's own transaction: one round trip and one WAL fsync. A save writes more (its
    match's row, its entry, their indexes) and its writer adds BEGIN and COMMIT round trips
    (to tell, should the connection be lost, whether it committed)."""
    conn = await asyncpg.connect(config.url)
    try:
        await conn.execute(f'CREATE TABLE "{config.schema}".floor (n int, seq int, data bytea)')
        insert = (
            f'INSERT INTO "{config.schema}".floor'
            " SELECT * FROM unnest($1::int[], $2::int[], $3::bytea[])"
        )
        numbers, rows = list(range(WRITERS)), [FLOOR_ROW] * WRITERS
        times: list[float] = []
        for seq in range(WARM_ROUNDS + SAVES_PER_WRITER):
            start = time.perf_counter()
            await conn.execute(insert, numbers, [seq] * WRITERS, rows)
            if seq >= WARM_ROUNDS:
                times.append((time.perf_counter() - start) * 1000)
        return times
    finally:
        await conn.close()


async def _long_match(path: Path) -> tuple[int, int]:
    """A match of LOAD_ACTIONS actions (plus its turn ends and undos); its id, its entries."""
    async with await Store.open(Config(path=path)) as store:
        match = await _match(store)
        rng = random.Random(2)
        actions = 0
        while actions < LOAD_ACTIONS:
            _step(match, rng)
            actions += match.pending[-1].kind == "act"
            await store.save(match)
        return match.id, match.seq


async def _loads(path: Path, match_id: int, repeat: int) -> list[float]:
    async with await Store.open(Config(path=path)) as store:
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            await store.load(match_id)
            times.append((time.perf_counter() - start) * 1000)
    return times


def _size_per_thousand(path: Path, entries: int) -> tuple[float, float]:
    """KB per 1,000 log entries of the whole file (after a checkpoint) and of its snapshot."""
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    snapshot = conn.execute("SELECT sum(length(data)) FROM snapshots").fetchone()[0]
    conn.close()
    per = 1000 / entries / 1024
    return path.stat().st_size * per, snapshot * per


def _drop_snapshots(path: Path) -> None:
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("DELETE FROM snapshots")
    conn.close()


def run() -> Iterator[Figure]:
    with tempfile.TemporaryDirectory(prefix="tora-bench-") as tmp:
        base = Path(tmp)
        # what every durable commit waits for at least once: this disk's fsync
        fsync = Figure("reference: one fsync of this disk (p50)", fsync_ms(base, 200), "ms")
        yield fsync
        yield asyncio.run(_one_writer(base / "one.sqlite3"))
        times = asyncio.run(_ten_writers(Config(path=base / "ten.sqlite3")))
        yield Figure(f"one append with {WRITERS} concurrent writers (p99)", p99(times), "ms", 5)
        yield from _postgres_ten_writers(fsync.value)
        path = base / "long.sqlite3"
        match_id, entries = asyncio.run(_long_match(path))
        loads = asyncio.run(_loads(path, match_id, 30))
        yield Figure(
            f"load a {LOAD_ACTIONS}-action match ({entries} entries) with snapshots (p50)",
            median(loads),
            "ms",
            20,
        )
        yield Figure("  same, worst of 30 loads", max(loads), "ms")
        whole, snapshot = _size_per_thousand(path, entries)
        yield Figure("database size per 1,000 log entries", whole, "KB")
        yield Figure("  of which its one snapshot (a pickled Game)", snapshot, "KB")
        _drop_snapshots(path)
        yield Figure(
            "  load the same match from its whole log",
            asyncio.run(_loads(path, match_id, 1))[0],
            "ms",
        )
