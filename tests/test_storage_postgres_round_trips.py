"""How many round trips to the PostgreSQL server a player's command costs the store: each one
is a wait on the server (and on a loaded machine a wake-up of its process), so their number
is what the latency of a command under load follows. Counted, not timed: every statement
asyncpg sends is counted (each one round trip; the statements are prepared by then)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from backends import config as database
from backends import drop, lose_commit_answers, postgres_missing, raw_sql
from storage_workload import GUILD

from bot.service import phases
from rules.tora import Game, Options
from storage import Config, Hosted, Match, NewMatch, Post, Store
from storage.matches.games import spec_of

pytestmark = pytest.mark.postgres


class Counted:
    """The statements sent on every connection opened while counting."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    def take(self) -> list[str]:
        sent, self.sent = self.sent, []
        return sent


def _counting(counted: Counted) -> type[asyncpg.Connection]:
    """A connection class that notes each statement it sends (``fetchval`` and
    ``fetchrow`` go through none of the others, ``execute`` with arguments neither)."""

    class Counting(asyncpg.Connection):  # type: ignore[misc]
        async def execute(self, query: str, *args: Any, **kwargs: Any) -> str:
            counted.sent.append(query)
            return await super().execute(query, *args, **kwargs)

        async def executemany(self, command: str, args: Any, **kwargs: Any) -> None:
            counted.sent.append(command)
            await super().executemany(command, args, **kwargs)

        async def fetch(self, query: str, *args: Any, **kwargs: Any) -> list[Any]:
            counted.sent.append(query)
            return await super().fetch(query, *args, **kwargs)

        async def fetchval(self, query: str, *args: Any, **kwargs: Any) -> Any:
            counted.sent.append(query)
            return await super().fetchval(query, *args, **kwargs)

        async def fetchrow(self, query: str, *args: Any, **kwargs: Any) -> Any:
            counted.sent.append(query)
            return await super().fetchrow(query, *args, **kwargs)

    return Counting


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counted]:
    counted = Counted()
    connection_class = _counting(counted)
    connect, create_pool = asyncpg.connect, asyncpg.create_pool

    def counting_connect(*args: Any, **kwargs: Any) -> Any:
        return connect(*args, connection_class=connection_class, **kwargs)

    def counting_pool(*args: Any, **kwargs: Any) -> Any:
        return create_pool(*args, connection_class=connection_class, **kwargs)

    monkeypatch.setattr(asyncpg, "connect", counting_connect)
    monkeypatch.setattr(asyncpg, "create_pool", counting_pool)
    yield counted


@pytest.fixture
async def pg(tmp_path: Path) -> AsyncIterator[Config]:
    if reason := postgres_missing():
        pytest.skip(reason)
    config = database("postgres", tmp_path)
    yield config
    await drop(config)


async def _playing(store: Store) -> tuple[Hosted, Match]:
    """A short-board hosted match between two players, started."""
    for user_id, name in ((1, "ann"), (2, "bob")):
        await store.save_player(user_id, name)
    hosted = await store.hosting.create(Hosted(0, GUILD, 100, 1, 2, "{}", phases.CHALLENGE))
    hosted = replace(hosted, phase=phases.PLAYING, challenger_id=1, opposition_id=2)
    new = NewMatch(GUILD, 100, 1, 2, spec_of(Game(Options(board="short"))), deadline=99.0)
    return await store.hosting.start(hosted, new)


def _act(match: Match) -> None:
    game = match.game
    match.act(game.notation(game.legal_actions()[0]))


def _posts(match: Match) -> list[Post]:
    """What a turn's end announces: the board in the channel, the news to the next player."""
    image = (("board.png", b"\x89PNG" + bytes(match.seq)),)
    return [Post(100, "turn ended", files=image), Post(100, "your turn", 2, (2,), image)]


async def test_a_staged_action_a_turn_end_and_its_delivery_cost_a_few_round_trips(
    pg: Config, counted: Counted
) -> None:
    async with await Store.open(pg) as store:
        hosted, match = await _playing(store)
        for _turn in range(2):  # every statement prepared once, as in a running bot
            _act(match)
            hosted = await store.save_hosted(match, hosted)
            match.end_turn()
            hosted = await store.save_hosted(match, hosted, _posts(match))
        counted.take()

        _act(match)
        hosted = await store.save_hosted(match, hosted)
        staged = counted.take()
        match.end_turn()
        hosted = await store.save_hosted(match, hosted, _posts(match))
        ended = counted.take()
        assert await store.hosting.versions(hosted.id) == (hosted.version, match.version)
        checked = counted.take()
        gone = hosted.id + 1000
        together = [store.hosting.versions(n) for n in (hosted.id, gone, hosted.id)]
        current = (hosted.version, match.version)
        assert await asyncio.gather(*together) == [current, None, current]
        checked_together = counted.take()
        queued = await store.hosting.private_queue()
        counted.take()
        await store.hosting.delivered(queued[0].id)
        delivered = counted.take()
        assert [row.post.text for row in await store.hosting.private_queue()] == [
            row.post.text for row in queued[1:]
        ]
        counted.take()
        assert await store.sharing.claim("channel 100", 0.0, 30.0)
        await store.sharing.release("channel 100")
        leased = counted.take()
        assert await store.sharing.claim("channel 100", 0.0, 30.0)
        counted.take()
        await store.hosting.delivered(queued[1].id, "channel 100", (1.0, 30.0))
        renewed = counted.take()
        await store.hosting.delivered(queued[1].id, "channel 100")
        given_back = counted.take()
        assert await store.sharing.claim("channel 100", 0.0, 30.0)  # it was given back

    # BEGIN; in one statement the match row moved on with the action logged, the hosted
    # match (its players counted) and the transaction's id (asked after a cut COMMIT); COMMIT
    assert len(staged) == 3, staged
    # the same, and the two posts with their images sent together
    assert len(ended) == 4, ended
    assert len(checked) == 1, checked  # whether a copy in memory is still current
    assert len(checked_together) == 1, checked_together  # such checks asked at once: the same
    assert len(delivered) == 1, delivered  # a statement that may run twice: no BEGIN, no COMMIT
    assert len(leased) == 2, leased  # a destination's lease taken and given back: the same
    # a delivered row deleted with its destination's lease renewed, or given back: the same
    assert len(renewed) == 1, renewed
    assert len(given_back) == 1, given_back


async def test_a_turn_whose_commit_is_cut_off_is_saved_once(
    pg: Config, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A save's statement says its transaction's id (no round trip asks for it): a COMMIT
    cut off is still settled by that id, so that the turn is saved exactly once, whether
    the COMMIT went through (its answer lost) or not (run again)."""
    async with await Store.open(pg) as store:
        hosted, match = await _playing(store)
    die_once = (
        "CREATE SEQUENCE once",
        "CREATE FUNCTION die_once() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
        " IF nextval('once') = 1 THEN PERFORM pg_terminate_backend(pg_backend_pid()); END IF;"
        " RETURN NULL; END $$",
        "CREATE CONSTRAINT TRIGGER die AFTER INSERT ON actions DEFERRABLE INITIALLY DEFERRED"
        " FOR EACH ROW EXECUTE FUNCTION die_once()",
    )
    for statement in die_once:
        await raw_sql(pg, statement)
    async with await Store.open(pg) as store:  # the COMMIT did not go through
        match = await store.load(match.id)
        _act(match)
        hosted = await store.save_hosted(match, hosted)
    assert "lost inside a COMMIT; running the job again" in caplog.text

    cut: list[str] = []
    lose_commit_answers(monkeypatch, cut)
    async with await Store.open(pg) as store:  # it went through, its answer was lost
        match = await store.load(match.id)
        match.end_turn()
        hosted = await store.save_hosted(match, hosted, _posts(match))
    assert cut and "lost inside a COMMIT, which went through" in caplog.text

    logged = "SELECT count(*) FROM actions WHERE match_id = ?"
    assert await raw_sql(pg, logged, match.id) == [(2,)], "the action and the turn's end"
    stored = "SELECT h.version, m.version FROM hosted_matches h, matches m WHERE h.id = ?"
    assert await raw_sql(pg, stored + " AND m.id = ?", hosted.id, match.id) == [
        (hosted.version, match.version)
    ]
    assert len(await raw_sql(pg, "SELECT id FROM outbox")) == 2, "the turn's posts, once"
