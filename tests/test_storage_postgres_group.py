"""PostgreSQL's grouped saves (``sql.Together``, ``saving.together``): saves of several
matches that queue up while the writer is busy are written by one statement in one
transaction, and each caller is still answered as if its save had run alone: its own new
versions and log entries (the same rows as alone), its own refusal (StaleMatch,
MatchClosed, StaleHosted, UnknownPlayer) with nothing of it written, and the others written
all the same. A group cut off inside its COMMIT, or whose COMMIT went through unheard,
writes each save exactly once; a match or hosted match changed by another process while
the group's statement waits for its row is never written without the other; saves that
cannot be grouped (posts, plans, a match's end) are written too."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import asyncpg
import pytest
import test_storage_postgres_round_trips as round_trips
from backends import (
    DIE_IN_FIRST_COMMIT,
    drop,
    lose_commit_answers,
    postgres_missing,
    raw_sql,
)
from backends import config as database
from storage_workload import GUILD, PLAYERS
from test_storage_hidden import ASSASSINS, C_MOVES, STARTS
from test_storage_postgres_round_trips import Counted, _posts

from bot.service import phases
from rules import ActionError
from rules.tora import STATE_VERSION, Game, Options, Side
from storage import (
    Config,
    Hosted,
    Match,
    MatchClosed,
    NewMatch,
    StaleHosted,
    StaleMatch,
    Store,
    UnknownPlayer,
)
from storage.backends.postgres import SyncConnection
from storage.hosting import saving
from storage.matches.games import spec_of
from storage.matches.log import fingerprint

pytestmark = pytest.mark.postgres
SNAPSHOT_EVERY = 4
counted = round_trips.counted  # the statements sent, counted (a fixture)
Saving = Callable[[], Awaitable[Any]]


@pytest.fixture
async def pg(tmp_path: Path) -> AsyncIterator[Config]:
    """One writer (so that the saves queue up behind a busy job), a snapshot every few
    entries (so that a save can be due one)."""
    if reason := postgres_missing():
        pytest.skip(reason)
    config = database("postgres", tmp_path, writers=1, snapshot_every=SNAPSHOT_EVERY)
    yield config
    await drop(config)


@pytest.fixture
async def store(pg: Config) -> AsyncIterator[Store]:
    async with await Store.open(pg) as opened:
        for user_id, name in PLAYERS:
            await opened.save_player(user_id, name)
        yield opened


async def _match(store: Store) -> Match:
    """A short-board match between the two players, no hosted match."""
    return await store.create_match(GUILD, 1, 2, Game(Options(board="short")))


async def _hosted(store: Store, channel: int) -> tuple[Hosted, Match]:
    """A short-board hosted match in ``channel``, started (``_playing``'s, in a channel of
    its own: a channel holds one live hosted match)."""
    hosted = await store.hosting.create(Hosted(0, GUILD, channel, 1, 2, "{}", phases.CHALLENGE))
    hosted = replace(hosted, phase=phases.PLAYING, challenger_id=1, opposition_id=2)
    new = NewMatch(GUILD, channel, 1, 2, spec_of(Game(Options(board="short"))), deadline=99.0)
    return await store.hosting.start(hosted, new)


def _changed(hosted: Hosted) -> Hosted:
    """``hosted`` with a new value in each column a turn's save may change."""
    return replace(
        hosted,
        ready="c",
        due_at=1234.5,
        remind_at=1200.25,
        paused_left=7.5,
        offers='{"draw": "c"}',
        missed=(1, 0),
        turn=2,
        clocks=(60.0, 4.5),
    )


def _deadline(match: Match, deadline: float) -> Match:
    """``match`` with its running turn's deadline moved (saved with what was played)."""
    match.deadline = deadline
    return match


def _play(match: Match, steps: int = 1) -> Match:
    """``steps`` steps of the side to act: its first legal action, or its turn's end once
    it has none left (what R30 refuses taken back first, as a player would)."""
    for _ in range(steps):
        game = match.game
        if game.actions_left and (legal := game.legal_actions()):
            match.act(game.notation(legal[0]))
            continue
        while True:
            try:
                match.end_turn()
                break
            except ActionError:
                match.undo()
    return match


def _queued(store: Store) -> int:
    """How many jobs wait for the store's writer."""
    return len(store._writer._queue._items)


async def _queued_together(store: Store, saves: Sequence[Saving]) -> list[Any]:
    """Run ``saves`` queued in this order while the store's one writer is busy with another
    job, so that it finds them all waiting (``test_storage_postgres_batch``'s, for a
    store's saves); each one's result or error."""
    started, gate = threading.Event(), threading.Event()

    def busy(conn: SyncConnection) -> None:
        started.set()
        gate.wait(10)

    first = asyncio.create_task(store._writer.run(busy))
    await asyncio.to_thread(started.wait, 10)
    tasks = []
    for save in saves:  # each queued before the next (a match's end reads first)
        tasks.append(asyncio.create_task(save()))
        async with asyncio.timeout(10):
            while _queued(store) < len(tasks):
                await asyncio.sleep(0.01)
    gate.set()
    await first
    return await asyncio.gather(*tasks, return_exceptions=True)


async def _logged(config: Config, match_id: int) -> list[int]:
    """The log entries stored for a match, by number."""
    return [row[0] for row in await _entries(config, match_id)]


async def _entries(config: Config, match_id: int) -> list[tuple]:
    """The log entries stored for a match, as written (all but their match and time)."""
    return await raw_sql(
        config,
        "SELECT seq, turn, side, kind, arg, public, hidden FROM actions WHERE match_id = ?"
        " ORDER BY seq",
        match_id,
    )


async def _as_played(store: Store, match: Match) -> Match:
    """``match`` loaded again, checked to be the game as played, every entry logged once."""
    loaded = await store.load(match.id)
    assert fingerprint(loaded.game) == fingerprint(match.game)
    assert loaded.game.staged() == match.game.staged()
    assert (loaded.version, loaded.seq) == (match.version, match.seq)
    assert loaded.deadline == match.deadline
    assert await _logged(store.config, match.id) == list(range(1, match.seq + 1))
    return loaded


async def test_saves_of_several_matches_queued_together_cost_one_statement_and_land(
    counted: Counted, store: Store, together_runs: list[int]
) -> None:
    """Plain and hosted saves queued together: one statement for all, each caller answered
    as alone (``counted`` comes first: it counts on the connections the store opens)."""
    plain = [await _match(store) for _ in range(3)]
    hosted = [await _hosted(store, channel) for channel in (101, 102)]
    hosted[0] = _changed(hosted[0][0]), hosted[0][1]
    for _warm_up in range(2):  # every statement prepared once, as in a running bot
        await _queued_together(store, [lambda m=m: store.save(_play(m)) for m in plain])
    seqs = [match.seq for match in plain]
    counted.take()
    together_runs.clear()

    answers = await _queued_together(
        store,
        [
            lambda: store.save(_play(plain[0])),
            lambda: store.save_hosted(_play(hosted[0][1]), hosted[0][0]),
            lambda: store.save(_play(plain[1], 3)),
            lambda: store.save_hosted(_play(hosted[1][1], 2), hosted[1][0]),
            lambda: store.save(_deadline(_play(plain[2]), 4321.5)),
        ],
    )
    sent = counted.take()

    group = sent[sent.index("COMMIT") + 1 :]  # after the busy job's
    assert len(group) == 3, group  # BEGIN, the group's statement, COMMIT
    assert group[0].startswith("BEGIN") and "unnest" in group[1] and group[2] == "COMMIT"
    assert together_runs == [5], "one run of the group for all five saves"
    first, first_hosted, second, second_hosted, third = answers
    assert first == [seqs[0] + 1] and second == [seqs[1] + n for n in (1, 2, 3)]
    assert third == [seqs[2] + 1]
    for (was, match), updated in zip(hosted, (first_hosted, second_hosted), strict=True):
        assert isinstance(updated, Hosted) and updated.version == was.version + 1
        assert await store.hosting.versions(was.id) == (updated.version, match.version)
        assert await store.hosting.get(was.id) == updated, "stored as answered"
        assert (await store.match_info(match.id)).updated_at == updated.updated_at
    for match in (*plain, *(match for _hosted_match, match in hosted)):
        await _as_played(store, match)


async def _assassins(store: Store) -> Match:
    """A long-board match with Assassins (``test_storage_hidden``'s), its first turn played
    with a hidden move: a heavy game, due a snapshot at each turn's end."""
    match = await store.create_match(GUILD, 1, 2, Game(ASSASSINS, assassin_starts=STARTS))
    match.act(C_MOVES[0])
    match.end_turn()
    return match


async def _snapshot(config: Config, match_id: int) -> list[tuple]:
    """A match's snapshot as stored: the entry it stands at, its state version, its data."""
    query = "SELECT seq, state_version, data FROM snapshots WHERE match_id = ?"
    return await raw_sql(config, query, match_id)


async def test_a_group_writes_what_each_save_would_write_alone(
    store: Store, pg: Config, together_runs: list[int], caplog: pytest.LogCaptureFixture
) -> None:
    """Each grouped save's log entries (a hidden one too) and its snapshot, when one is due,
    are those its twin saved alone wrote; a load starts from the group's snapshot, and the
    group replaces a match's snapshot when the next is due."""
    due, hidden = _play(await _match(store), SNAPSHOT_EVERY), await _assassins(store)
    twins = [_play(await _match(store), SNAPSHOT_EVERY), await _assassins(store)]
    for twin in twins:
        await store.save(twin)  # alone, as the writer writes a save it cannot group

    answers = await _queued_together(store, [lambda: store.save(due), lambda: store.save(hidden)])

    assert answers == [list(range(1, SNAPSHOT_EVERY + 1)), [1, 2]]
    for match, twin in zip((due, hidden), twins, strict=True):
        assert await _entries(pg, match.id) == await _entries(pg, twin.id)
        assert await _snapshot(pg, match.id) == await _snapshot(pg, twin.id)
        assert match.snapshot_seq == match.seq
        loaded = await _as_played(store, match)
        assert loaded.snapshot_seq == match.seq, "loaded from the group's snapshot"

    await _queued_together(
        store, [lambda: store.save(_play(due, SNAPSHOT_EVERY)), lambda: store.save(_play(hidden))]
    )
    assert [row[:2] for row in await _snapshot(pg, due.id)] == [(2 * SNAPSHOT_EVERY, STATE_VERSION)]
    assert (await _as_played(store, due)).snapshot_seq == 2 * SNAPSHOT_EVERY
    assert "ignoring its snapshot" not in caplog.text
    assert together_runs == [2, 2]


async def test_refused_saves_of_a_group_write_nothing_and_the_others_land(
    store: Store, pg: Config, together_runs: list[int]
) -> None:
    """A match saved meanwhile by another process (StaleMatch), one aborted (MatchClosed),
    a hosted match changed meanwhile (StaleHosted), one naming a player the store does not
    know (UnknownPlayer), and two copies of one match: the first written, the second
    refused (StaleMatch), as alone."""
    fresh, stale, closed, twice = [await _match(store) for _ in range(4)]
    (moved_on, behind), (hosted, alongside), (invited, unplayed) = [
        await _hosted(store, c) for c in (101, 102, 103)
    ]
    async with await Store.open(pg) as other:  # another process saves one of the matches
        await other.save(_play(await other.load(stale.id)))
    await store.save(_play(closed), close="aborted")
    changed = await store.hosting.update(moved_on)  # its store's copy is now behind
    first, second = await store.load(twice.id), await store.load(twice.id)
    logged = {m.id: await _logged(pg, m.id) for m in (stale, closed, behind, unplayed)}

    answers = await _queued_together(
        store,
        [
            lambda: store.save(_play(fresh)),
            lambda: store.save(_play(stale)),
            lambda: store.save(_play(closed)),
            lambda: store.save_hosted(_play(behind), moved_on),
            lambda: store.save(_play(first)),
            lambda: store.save(_play(second, 2)),
            lambda: store.save_hosted(_play(alongside), hosted),
            lambda: store.save_hosted(_play(unplayed), replace(invited, invitee_id=3)),
        ],
    )

    assert together_runs == [8]
    written, old, shut, left, once, again, hosted_written, unknown = answers
    assert isinstance(unknown, UnknownPlayer) and unknown.user_id == 3
    assert written == [1] and once == [1]
    assert isinstance(old, StaleMatch) and old.match_id == stale.id
    assert isinstance(shut, MatchClosed) and shut.how == "aborted"
    assert isinstance(left, StaleHosted) and left.hosted_id == moved_on.id
    assert isinstance(again, StaleMatch) and again.match_id == twice.id
    assert isinstance(hosted_written, Hosted) and hosted_written.version == hosted.version + 1
    for match in (fresh, first, alongside):
        await _as_played(store, match)
    for match_id, entries in logged.items():
        assert await _logged(pg, match_id) == entries, f"nothing of match {match_id}'s save"
    assert await store.hosting.versions(moved_on.id) == (changed.version, behind.version)
    assert await store.hosting.versions(hosted.id) == (hosted_written.version, alongside.version)
    assert await store.hosting.get(invited.id) == invited


async def test_a_save_left_out_for_its_hosted_match_stays_before_its_match_s_next_save(
    store: Store, pg: Config
) -> None:
    """The answers are those of the saves run one by one in their order. A save the group
    leaves out because an earlier one holds its hosted match runs alone after the group;
    a later save of its match must wait for it too, not be written by the group first (which
    would answer the earlier save StaleMatch and write the later one)."""
    (first_hosted, stale), (second_hosted, shared) = [await _hosted(store, c) for c in (101, 102)]
    async with await Store.open(pg) as other:  # another process saves the first match
        await other.save(_play(await other.load(stale.id)))
    earlier, later = await store.load(shared.id), await store.load(shared.id)
    kept = await _logged(pg, stale.id)

    refused, written, behind = await _queued_together(
        store,
        [
            lambda: store.save_hosted(_play(stale), first_hosted),
            lambda: store.save_hosted(_play(earlier), first_hosted),
            lambda: store.save_hosted(_play(later), second_hosted),
        ],
    )

    assert isinstance(refused, StaleMatch) and refused.match_id == stale.id
    assert isinstance(written, Hosted) and written.version == first_hosted.version + 1
    assert isinstance(behind, StaleMatch) and behind.match_id == shared.id
    await _as_played(store, earlier)
    assert await _logged(pg, stale.id) == kept
    assert await store.hosting.get(second_hosted.id) == second_hosted


async def test_a_group_cut_off_inside_its_commit_is_applied_once(
    store: Store, pg: Config, together_runs: list[int], caplog: pytest.LogCaptureFixture
) -> None:
    """The server ends the connection inside the group's COMMIT (a deferred trigger on the
    log, once): it did not commit, and the whole group runs again."""
    plain = [await _match(store) for _ in range(2)]
    hosted = [await _hosted(store, channel) for channel in (101, 102)]
    for statement in DIE_IN_FIRST_COMMIT:  # on the log, which the group writes
        await raw_sql(pg, statement.replace(" ON marks ", " ON actions "))

    answers = await _queued_together(
        store,
        [lambda m=m: store.save(_play(m, 2)) for m in plain]
        + [lambda h=h, m=m: store.save_hosted(_play(m), h) for h, m in hosted],
    )

    assert together_runs == [4, 4], "cut off, then run again as a whole"
    assert answers[:2] == [[1, 2], [1, 2]]
    for (was, match), updated in zip(hosted, answers[2:], strict=True):
        assert isinstance(updated, Hosted) and updated.version == was.version + 1
        assert await store.hosting.versions(was.id) == (updated.version, match.version)
    for match in (*plain, *(match for _hosted_match, match in hosted)):
        await _as_played(store, match)
    assert "lost inside a COMMIT; running the job again" in caplog.text


async def test_a_group_whose_commit_went_through_unheard_is_answered_not_run_again(
    pg: Config, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    cut: list[str] = []
    runs: list[int] = []
    together = saving.together

    def arming(conn: Any, saves: Sequence[saving.Save]) -> list[saving.Written | None]:
        runs.append(len(saves))
        cut.append("armed")  # the COMMIT of this group loses its answer
        return together(conn, saves)

    lose_commit_answers(monkeypatch, cut, when=("armed",))
    monkeypatch.setattr(saving, "together", arming)
    async with await Store.open(pg) as store:
        for user_id, name in PLAYERS:
            await store.save_player(user_id, name)
        plain = [await _match(store) for _ in range(2)]
        hosted, match = await _hosted(store, 101)
        answers = await _queued_together(
            store,
            [lambda m=m: store.save(_play(m)) for m in plain]
            + [lambda: store.save_hosted(_play(match), hosted)],
        )
        assert cut == ["armed", "cut"]
        assert runs == [3], "a group that committed is never run again"
        assert answers[:2] == [[1], [1]]
        updated = answers[2]
        assert isinstance(updated, Hosted) and updated.version == hosted.version + 1
        assert await store.hosting.versions(hosted.id) == (updated.version, match.version)
        for saved in (*plain, match):
            await _as_played(store, saved)
    assert "lost inside a COMMIT, which went through" in caplog.text


async def _waiting_for(config: Config, blocker: int) -> None:
    """Until a statement waits for a lock that the server process ``blocker`` holds."""
    waiting = "SELECT count(*) FROM pg_stat_activity WHERE ?::int = ANY(pg_blocking_pids(pid))"
    async with asyncio.timeout(10):
        while (await raw_sql(config, waiting, blocker))[0][0] == 0:
            await asyncio.sleep(0.02)


@pytest.mark.parametrize("changed", ["hosted_matches", "matches"])
async def test_a_row_changed_while_the_group_waits_for_it_refuses_only_its_save(
    store: Store,
    pg: Config,
    together_runs: list[int],
    changed: str,
) -> None:
    """Another process changes a hosted match (or its match), its transaction open while the
    group's statement reads the old version and waits for the row: once it commits, the
    statement finds the version moved on and leaves that row. Only the save whose row
    changed is refused, and nothing of it is written: neither its match moved on without
    its hosted match nor the other way round; the others are written."""
    hosted = [await _hosted(store, channel) for channel in (101, 102, 103)]
    plain = await _match(store)
    raced, behind = hosted[1]
    logged = await _logged(pg, behind.id)
    other = await asyncpg.connect(pg.url, server_settings={"search_path": pg.schema or ""})
    try:
        changing = other.transaction()
        await changing.start()
        bump = f"UPDATE {changed} SET version = version + 1 WHERE id = $1"
        await other.execute(bump, raced.id if changed == "hosted_matches" else behind.id)
        saves = [lambda h=h, m=m: store.save_hosted(_play(m), h) for h, m in hosted]
        group = asyncio.create_task(
            _queued_together(store, [*saves, lambda: store.save(_play(plain))])
        )
        await _waiting_for(pg, other.get_server_pid())
        await changing.commit()
        first, refused, third, alone = await group
    finally:
        await other.close()

    assert together_runs[0] == 4, "the race met the four saves grouped"
    if changed == "hosted_matches":
        assert isinstance(refused, StaleHosted) and refused.hosted_id == raced.id
        raced, stored = replace(raced, version=raced.version + 1), behind.version
    else:
        assert isinstance(refused, StaleMatch) and refused.match_id == behind.id
        stored = behind.version + 1
    assert await _logged(pg, behind.id) == logged, "the refused save wrote no entry"
    assert await store.hosting.get(raced.id) == raced, "nor its hosted match"
    assert await store.hosting.versions(raced.id) == (raced.version, stored)
    for (was, match), updated in zip(hosted[::2], (first, third), strict=True):
        assert isinstance(updated, Hosted) and updated.version == was.version + 1
        assert await store.hosting.versions(was.id) == (updated.version, match.version)
        await _as_played(store, match)
    assert alone == [1]
    await _as_played(store, plain)


async def test_saves_that_cannot_be_grouped_are_written_among_grouped_ones(
    store: Store, pg: Config, together_runs: list[int]
) -> None:
    """Saves with posts, with plans and one that ends its match, queued between groupable
    saves: each is written as alone, and the groupable ones are grouped all the same."""
    plain = [_play(await _match(store)) for _ in range(3)]
    ending = await _match(store)
    ending.resign(Side.OPPOSITION)
    (posting, turn_ended), (hosted, alongside), (planning, planned) = [
        await _hosted(store, channel) for channel in (101, 102, 103)
    ]
    turn_ended.end_turn()
    posts = _posts(turn_ended)
    plans = {Side.OPPOSITION: ["first plan", "second plan"]}

    answers = await _queued_together(
        store,
        [
            lambda: store.save(plain[0]),
            lambda: store.save_hosted(turn_ended, posting, posts),
            lambda: store.save(plain[1]),
            lambda: store.save(ending),
            lambda: store.save_hosted(_play(alongside), hosted),
            lambda: store.save_hosted(_play(planned), planning, plans=plans),
            lambda: store.save(plain[2]),
        ],
    )

    assert together_runs == [4], "the groupable saves taken together from among the others"
    first, posted, second, ended, updated, with_plans, third = answers
    assert first == second == third == ended == [1]
    for was, now in ((posting, posted), (hosted, updated), (planning, with_plans)):
        assert isinstance(now, Hosted) and now.version == was.version + 1
        assert await store.hosting.get(was.id) == now
    assert len(await raw_sql(pg, "SELECT id FROM outbox")) == len(posts)
    assert await store.hosting.private_plans(planning.id, Side.OPPOSITION) == plans[Side.OPPOSITION]
    for match in (*plain, ending, turn_ended, alongside, planned):
        await _as_played(store, match)
    assert (await store.load(ending.id)).game.is_over()
