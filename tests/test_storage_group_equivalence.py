"""PostgreSQL's grouped saves (``storage.hosting.saving``) write exactly what the same saves
write one by one: for random rounds of saves queued together, with stale copies, stale
hosted matches, closed matches, two saves of one match and due snapshots among them (each
hosted match saved with a new value in every column a turn's save may change), every
caller's answer and every row of the database (but the clock's times) are the same as when
each save is made alone, in the same order, on a database of its own."""

from __future__ import annotations

import asyncio
import functools
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
from backends import config as database
from backends import drop, postgres_missing, raw_sql
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from storage_workload import GUILD
from test_storage_postgres_group import Saving, _changed, _hosted, _play, _queued_together

from rules.tora import Game, Options
from storage import Config, Hosted, Match, Store
from storage.hosting.hosted import WRITTEN

pytestmark = pytest.mark.postgres

HOW = ("fresh", "stale", "stale hosted", "closed", "twice")


@dataclass(frozen=True)
class Plan:
    """One match of a round: hosted or not, the actions saved before the round, the
    actions its save in the round stages, and what happened to it meanwhile (``HOW``)."""

    hosted: bool
    before: int
    staged: int
    how: str


plans = st.builds(
    Plan,
    hosted=st.booleans(),
    before=st.integers(0, 3),
    staged=st.integers(1, 3),
    how=st.sampled_from(HOW),
)


@pytest.fixture(autouse=True)
def _postgres() -> None:
    if reason := postgres_missing():
        pytest.skip(reason)


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(round_=st.lists(plans, min_size=2, max_size=5))
def test_saves_grouped_write_what_each_save_writes_alone(
    tmp_path: Path, together_runs: list[int], round_: list[Plan]
) -> None:
    grouped, alone = asyncio.run(_both(tmp_path, round_, together_runs))
    assert grouped == alone


async def _both(tmp_path: Path, round_: list[Plan], groups: list[int]) -> tuple[Any, Any]:
    """The round's answers and rows, grouped and alone (checking that they were grouped)."""
    results = []
    for together in (True, False):
        config = database("postgres", tmp_path, writers=1, snapshot_every=2)
        try:
            async with await Store.open(config) as store:
                groups.clear()
                answers = await _round(store, round_, together)
                assert groups == ([len(answers)] if together else []), "one group of all"
            results.append((answers, await _rows(config)))
        finally:
            await drop(config)
    return results[0], results[1]


async def _round(store: Store, round_: list[Plan], together: bool) -> list[object]:
    """Prepare every match of ``round_``, then make its saves, queued together while the
    writer is held busy (``together``) or one after another; each save's answer."""
    for user_id, name in ((1, "ann"), (2, "bob")):
        await store.save_player(user_id, name)
    saves: list[Saving] = []
    for channel, plan in enumerate(round_, 100):
        saves += await _prepared(store, plan, channel)
    if not together:
        return [await _answer(save) for save in saves]
    return await _queued_together(store, [functools.partial(_answer, save) for save in saves])


async def _prepared(store: Store, plan: Plan, channel: int) -> list[Saving]:
    """A match played as ``plan`` says up to the round, and its save (two for "twice")."""
    hosted: Hosted | None = None
    if plan.hosted:
        hosted, match = await _hosted(store, channel)
    else:
        match = await store.create_match(GUILD, 1, 2, Game(Options(board="short")))
    for _ in range(plan.before):
        _play(match)
        hosted = await _save(store, match, hosted)
    copy = await store.load(match.id)
    if plan.how == "stale":  # another copy of the match saved meanwhile
        _play(copy)
        hosted = await _save(store, copy, hosted)
    elif plan.how == "stale hosted" and hosted is not None:
        await store.hosting.update(hosted)
    elif plan.how == "closed":
        await store.save(match, close="aborted")
    for _ in range(plan.staged):
        _play(match)
    moved = None if hosted is None else _changed(hosted)
    saves = [lambda: _save(store, match, moved)]
    if plan.how == "twice":
        _play(copy)
        saves.append(lambda: _save(store, copy, moved))
    return saves


async def _save(store: Store, match: Match, hosted: Hosted | None) -> Hosted | None:
    if hosted is None:
        await store.save(match)
        return None
    return await store.save_hosted(match, hosted)


async def _answer(save: Saving) -> object:
    """What a save answered, without the clock's times: its error's kind, or done."""
    try:
        answer = await save()
    except Exception as exc:
        return type(exc).__name__
    return "done" if answer is None else ("done", replace(answer, created_at=0.0, updated_at=0.0))


async def _rows(config: Config) -> dict[str, list[tuple[object, ...]]]:
    """Every row a save writes, without the clock's times."""
    queries = {
        "matches": "SELECT id, status, side_to_act, round, score_c, score_o, result, version,"
        " last_seq, turn_deadline, closed FROM matches ORDER BY id",
        "actions": "SELECT match_id, seq, turn, side, kind, arg, public, hidden FROM actions"
        " ORDER BY match_id, seq",
        "snapshots": "SELECT match_id, seq, state_version, data FROM snapshots ORDER BY match_id",
        "hosted": f"SELECT id, version, {', '.join(name for name, _kind in WRITTEN)}"
        " FROM hosted_matches ORDER BY id",
    }
    return {name: await raw_sql(config, query) for name, query in queries.items()}
