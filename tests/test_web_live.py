"""The web board's live updates and secrets: the event streams of the match page and of a
player's page (a change the audience cannot see sends it nothing; a turn's end does; a
change another process saves reaches the stream through the database), their end when
the server stops, and twin worlds: two matches that differ only in a hidden Assassin give
byte-identical public states, pictures, streams and states of the opponent."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from aiohttp import ClientResponse, ClientSession
from web_world import ANN, BOB, HERE, World

from bot.service import Terms
from bot.service.testing import Harness
from bot.web import Limits, WebBoard
from rules import Side
from storage import Config

C, O = Side.CHALLENGER, Side.OPPOSITION
WAIT = 5.0  # seconds a test waits for an event at most (they come within milliseconds)


class Events:
    """An open event stream, read chunk by chunk (an event, or a heartbeat comment)."""

    def __init__(self, answer: ClientResponse) -> None:
        self.answer = answer
        self.raw: list[bytes] = []

    async def chunk(self) -> bytes:
        data = await asyncio.wait_for(self.answer.content.readuntil(b"\n\n"), WAIT)
        self.raw.append(data)
        return data

    async def version(self) -> str:
        """The next event's version (heartbeats skipped)."""
        while True:
            data = await self.chunk()
            if data.startswith(b"event: state"):
                return json.loads(data.split(b"data: ", 1)[1])["version"]

    async def nothing_but_heartbeats(self, count: int = 2) -> None:
        for _ in range(count):
            assert (await self.chunk()) == b": heartbeat\n\n"


async def stream(w: World, path: str, token: str | None = None) -> Events:
    assert w.client is not None
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    answer = await w.client.get(path, headers=headers)
    assert answer.status == 200, await answer.text()
    assert answer.headers["Content-Type"] == "text/event-stream"
    events = Events(answer)
    assert await events.chunk() == b"retry: 2000\n\n"
    return events


async def turn(w: World, match: int, side: Side) -> dict[str, Any]:
    token = await w.token(match, side)
    stamp = (await w.me(match, side))["turn"]
    notation = await w.first_action(match, side)
    await w.post("act", token, {"stamp": stamp, "notation": notation})
    return (await w.post("end", token, {"stamp": stamp}))[1]


@pytest.fixture
async def w(tmp_path: Path):
    async with World(tmp_path / "live.sqlite3", heartbeat=0.05) as world:
        yield world


async def test_the_match_page_hears_of_a_turn_and_not_of_a_staged_action(w: World) -> None:
    match = await w.playing()
    events = await stream(w, f"/api/m/{match}/events")
    assert await events.version() == (await w.get(f"/api/m/{match}"))[1]["version"]
    token = await w.token(match, C)
    notation = await w.first_action(match, C)
    assert (await w.post("act", token, {"stamp": 1, "notation": notation}))[0] == 200
    await events.nothing_but_heartbeats()
    await w.post("end", token, {"stamp": 1})
    assert await events.version() == (await w.get(f"/api/m/{match}"))[1]["version"]


async def test_a_players_page_hears_of_the_opponents_turn_end_only(w: World) -> None:
    match = await w.playing()
    bob = await stream(w, "/api/me/events", await w.token(match, O))
    first = await bob.version()
    token = await w.token(match, C)
    await w.post("act", token, {"stamp": 1, "notation": await w.first_action(match, C)})
    await bob.nothing_but_heartbeats()
    await w.post("end", token, {"stamp": 1})
    assert await bob.version() not in (first, "closed")


async def test_a_players_stream_closes_when_the_match_ends(w: World) -> None:
    match = await w.playing()
    bob = await stream(w, "/api/me/events", await w.token(match, O))
    await bob.version()
    await w.post("resign", await w.token(match, C), {"stamp": 1})
    assert await bob.version() == "closed"
    assert await asyncio.wait_for(bob.answer.content.read(), WAIT) == b""


async def test_a_stream_needs_a_good_link_and_a_match(w: World) -> None:
    assert (await w.get("/api/me/events", "bad"))[0] == 401
    assert (await w.get("/api/m/404/events"))[0] == 404


async def test_the_streams_end_when_the_server_stops(w: World) -> None:
    match = await w.playing()
    events = await stream(w, f"/api/m/{match}/events")
    await events.version()
    await w.web.site.hub.stop()
    assert await asyncio.wait_for(events.answer.content.read(), WAIT) == b""


async def test_a_closed_page_frees_its_stream_at_once(w: World) -> None:
    """A page closed (or reloaded) gives back its place among the address's few streams
    within a moment, not at the next heartbeat, so reopening the board is never refused.
    Served as ``python -m bot`` serves it (the test client would cancel the stream's
    handler when its client goes, which the real server does not)."""
    match = await w.playing()
    one = Limits(streams=1)
    board = WebBoard(w.service, w.links, "127.0.0.1", 0, limits=one, heartbeat=60.0)
    await board.start()
    try:
        async with ClientSession() as session:
            for _ in range(2):  # the second refused if the first still held the place
                answer = await session.get(f"{board.url}/api/m/{match}/events")
                assert answer.status == 200, await answer.text()
                await asyncio.wait_for(answer.content.readuntil(b"\n\n"), WAIT)
                answer.close()
                await _until(lambda: board.site.hub.watched == 0)
    finally:
        await board.stop()


async def test_a_replaced_links_open_stream_is_closed_and_tells_nothing_more(w: World) -> None:
    """After ``/tora board link:new`` the old link is refused at once; its page's open
    stream, which was let in with it, is closed at its next event rather than going on
    telling whoever holds the old link when the player stages an action."""
    match = await w.playing()
    old = await w.token(match, C)
    events = await stream(w, "/api/me/events", old)
    await events.version()
    new = await w.links.renew(match, C)
    assert (await w.get("/api/me", old))[0] == 401
    notation = await w.first_action(match, C)
    assert (await w.post("act", new, {"stamp": 1, "notation": notation}))[0] == 200
    assert await events.version() == "closed"
    assert await asyncio.wait_for(events.answer.content.read(), WAIT) == b""


async def test_a_forgotten_open_board_does_not_hold_back_the_turns_reminder(
    tmp_path: Path,
) -> None:
    """A player's page left open follows the match by its stream; the stream's checks
    after each change are not the player looking at their turn, so the reminder they asked
    for still comes (only a page they load or an action they take counts as a look)."""
    async with World(tmp_path / "remind.sqlite3", heartbeat=3600) as w:
        await w.service.records.set_notify(ANN, "reminders", "50,80")
        match = await w.playing(Terms(game="torishogi", turn_seconds=36000, rated=False))
        events = await stream(w, "/api/me/events", await w.token(match, C))
        await events.version()
        assert (await w.post("draw", await w.token(match, O), {"stamp": 1}))[0] == 200
        assert await events.version()  # the stream heard of the proposal, and checked
        await w.h.advance(5 * 3600)
        reminders = [d for d in w.h.delivery.user(ANN.id) if "Reminder" in d.message.text]
        assert reminders, "the 50 % reminder of her turn"


async def _until(done: Callable[[], bool]) -> None:
    """Wait (a few milliseconds at a time, ``WAIT`` seconds at most) until ``done()``."""
    async with asyncio.timeout(WAIT):
        while not done():
            await asyncio.sleep(0.01)


async def test_a_turn_ended_by_another_process_reaches_the_stream(db: Config) -> None:
    """Two services on one database (each backend): the second ends a turn, the first's
    page hears of it through the poll of the watched matches' versions."""
    async with World(db, heartbeat=0.05, poll=0.02) as w:
        match = await w.playing()
        events = await stream(w, f"/api/m/{match}/events")
        first = await events.version()
        async with Harness(db) as other:
            service = other.service
            assert service is not None
            notation = await w.first_action(match, C)
            await service.play(HERE, ANN, notation)
            await service.end_turn(HERE, ANN)
        assert await events.version() != first
        _status, state = await w.get(f"/api/m/{match}")
        assert state["turn"] == 2 and [p["to_act"] for p in state["players"]] == [False, True]


async def test_a_change_saved_here_is_worked_out_once_not_again_by_the_poll(
    tmp_path: Path,
) -> None:
    async with World(tmp_path / "once.sqlite3", heartbeat=30.0, poll=0.02) as w:
        match = await w.playing()
        events = await stream(w, f"/api/m/{match}/events")
        await events.version()
        hub = w.web.site.hub
        # the first polls find the match new to them and work it out: wait until they have
        # (a sleep of 0.1 s was too short for them on a loaded machine, and the test counted
        # their refresh as one of the change's)
        while hub._polled or hub._worked.get(match) != hub._stored.get(match, ()):
            await asyncio.sleep(0.01)
        asked: list[object] = []
        version = hub.version

        async def counted(match: int, side: Side | None) -> str:
            asked.append(side)
            return await version(match, side)

        hub.version = counted
        await w.post("end", await w.token(match, C), {"stamp": 1})
        assert await events.version()
        await asyncio.sleep(0.1)  # polls after the change
        assert asked == [None]  # the hook's refresh alone


# ---- twin worlds -----------------------------------------------------------------------------
TWIN_TERMS = Terms(options={"board": "long", "assassins": True})
ANN_STARTS = ("v3h17", "v14h17")
ANN_WALKS = {"v3h17": "X v3h17-v4h16", "v14h17": "X v14h17-v14h16"}


async def twin(w: World, ann_start: str) -> int:
    service = w.service
    reply = await service.challenge(HERE, ANN, BOB, TWIN_TERMS)
    await service.accept(HERE, BOB)
    await service.setup(HERE, ANN, {"strategy": "aggressive", "ruler": "Q", "assassin": ann_start})
    await service.setup(HERE, BOB, {"strategy": "defensive", "ruler": "K", "assassin": "v17h1"})
    assert reply.stamp is not None
    return reply.stamp.match


async def seen_by_bob_and_anyone(w: World, match: int, events: list[Events]) -> list[Any]:
    """Everything bob and a spectator may read, as bytes."""
    assert w.client is not None
    seen: list[Any] = []
    token = await w.token(match, O)
    for path, auth in (
        (f"/api/m/{match}", None),
        (f"/api/m/{match}/board.png", None),
        (f"/api/m/{match}/record", None),
        ("/api/me", token),
        ("/api/me/board.png", token),
    ):
        headers = {} if auth is None else {"Authorization": f"Bearer {auth}"}
        async with w.client.get(path, headers=headers) as answer:
            seen.append((path, answer.status, await answer.read()))
    seen.append([b"".join(e.raw) for e in events])
    return seen


async def test_twin_worlds_look_the_same_on_the_web_to_all_but_the_owner(
    tmp_path: Path,
) -> None:
    async with (
        World(tmp_path / "a.sqlite3", heartbeat=3600) as a,
        World(tmp_path / "b.sqlite3", heartbeat=3600) as b,
    ):
        worlds = (a, b)
        matches = [await twin(world, at) for world, at in zip(worlds, ANN_STARTS, strict=True)]
        streams = [
            [
                await stream(world, f"/api/m/{match}/events"),
                await stream(world, "/api/me/events", await world.token(match, O)),
            ]
            for world, match in zip(worlds, matches, strict=True)
        ]
        for events in streams:
            for stream_ in events:
                await stream_.version()
        assert await seen_by_bob_and_anyone(a, matches[0], streams[0]) == (
            await seen_by_bob_and_anyone(b, matches[1], streams[1])
        )
        mine = [await world.me(match, C) for world, match in zip(worlds, matches, strict=True)]
        assert mine[0] != mine[1]  # ann sees her own Assassin, and its actions
        public_action = await a.first_action(matches[0], C)
        for world, match, start in zip(worlds, matches, ANN_STARTS, strict=True):
            token = await world.token(match, C)
            for notation in (ANN_WALKS[start], public_action):
                status, body, _ = await world.post("act", token, {"stamp": 1, "notation": notation})
                assert status == 200, body
            assert (await world.post("end", token, {"stamp": 1}))[0] == 200
        for events in streams:
            for stream_ in events:
                await stream_.version()
        seen = [
            await seen_by_bob_and_anyone(world, match, events)
            for world, match, events in zip(worlds, matches, streams, strict=True)
        ]
        assert seen[0] == seen[1]


async def test_r44_an_ended_matchs_replay_shows_the_assassin_moves_its_end_published(
    tmp_path: Path,
) -> None:
    """Twin long-board matches: ann's first turn moves her hidden Assassin (a different walk
    in each) and a Cavalry; bob plays; ann resigns. The end publishes her Assassin's moves
    (R44): the record says "C: X v3h17-v4h16 ; ...", and so do the match page's move list
    and the replay's picture of that turn, which said "ann's hidden Assassin acts, unseen"
    ("X ?") and drew it unseen, each turn drawn as the public saw it while it was played."""
    async with (
        World(tmp_path / "a.sqlite3") as a,
        World(tmp_path / "b.sqlite3") as b,
    ):
        pictures = []
        for world, start in ((a, ANN_STARTS[0]), (b, ANN_STARTS[1])):
            match = await twin(world, start)
            walk = ANN_WALKS[start]
            ann = await world.token(match, C)
            for notation in (walk, await world.first_action(match, C)):
                assert (await world.post("act", ann, {"stamp": 1, "notation": notation}))[0] == 200
            assert (await world.post("end", ann, {"stamp": 1}))[0] == 200
            await turn(world, match, O)
            await world.service.resign(HERE, ANN)
            _status, record = await world.get(f"/api/m/{match}/record")
            assert f"C: {walk} ;" in record.decode()
            _status, state = await world.get(f"/api/m/{match}")
            assert walk in [m["notation"] for m in state["moves"] if m["turn"] == 1]
            path = f"/api/m/{match}/board.png?turn=1&v={state['replay']}"
            status, picture = await world.get(path)
            assert status == 200
            pictures.append(picture)
        assert pictures[0] != pictures[1]  # each draws its own Assassin's move


async def test_the_watched_matches_versions_are_read_at_once(db: Config) -> None:
    async with World(db) as w:
        first = await w.playing()
        before = await w.service.watched_versions([first, 404])
        assert list(before) == [first]
        await w.post(
            "act", await w.token(first, C), {"stamp": 1, "notation": await w.first_action(first, C)}
        )
        after = await w.service.watched_versions([first])
        assert after[first] != before[first]
        assert await w.service.watched_versions([]) == {}


async def test_a_change_the_poll_reads_while_the_hook_works_it_out_is_worked_out_once() -> None:
    """Regression (CI): the poll read the stored versions of a change while the service's
    hook was refreshing it, before the refresh had noted them, and had the match worked out
    a second time."""
    from types import SimpleNamespace

    from bot.web.events import Hub, Stream

    versions = {1: (5, None)}
    gate = asyncio.Event()
    reads = 0

    async def watched_versions(matches: list[int]) -> dict[int, tuple[int, None]]:
        nonlocal reads
        reads += 1
        if reads == 1:
            await gate.wait()  # the hook's refresh reads first, and slowly
        return {m: versions[m] for m in matches}

    asked: list[object] = []

    async def version(match: int, side: Side | None) -> str:
        asked.append(side)
        return f"v{versions[match][0]}"

    service = SimpleNamespace(watched_versions=watched_versions, on_change=lambda hook: None)
    hub = Hub(service, version, poll=3600.0, heartbeat=3600.0)  # type: ignore[arg-type]
    hub._streams[1] = {Stream((1, None), None, 0.0)}  # type: ignore[arg-type]
    hub._stored[1] = versions[1]
    versions[1] = (6, None)  # a change saved here
    hub.changed(1)
    refreshing = asyncio.create_task(hub.refresh_pending())
    await asyncio.sleep(0)
    await hub.look_for_changes()  # the poll reads it while the refresh waits on its read
    gate.set()
    await refreshing
    await hub.refresh_pending()  # what the poll found
    assert asked == [None]


async def _heard(events: Events) -> None:
    """Keep whatever the stream has sent by now (after a moment for the hub to send it)."""
    await asyncio.sleep(0.2)
    events.raw.append(events.answer.content.read_nowait())


async def test_an_action_staged_after_the_clock_moved_tells_the_opponent_and_match_page_nothing(
    tmp_path: Path,
) -> None:
    """Twin worlds ten quiet minutes into a turn: in one the player to act stages an
    action, in the other nothing happens. A spectator and the opponent must not be able to
    tell them apart: no event when it is staged, the same states and pictures. (The board
    picture once carried the status line's "due in ..." text, so every state's version
    moved with the clock, and the first change after a minute, hidden or not, sent one.)"""
    async with (
        World(tmp_path / "a.sqlite3", heartbeat=3600) as a,
        World(tmp_path / "b.sqlite3", heartbeat=3600) as b,
    ):
        worlds = (a, b)
        matches = [await world.playing() for world in worlds]
        streams = await watched(worlds, matches)
        for world in worlds:
            world.h.clock.advance(600)
        notation = await a.first_action(matches[0], C)
        staged = await a.post(
            "act", await a.token(matches[0], C), {"stamp": 1, "notation": notation}
        )
        assert staged[0] == 200
        seen = await seen_in_each(worlds, matches, streams)
        assert seen[0] == seen[1]


async def watched(worlds: tuple[World, ...], matches: list[int]) -> list[list[Events]]:
    """Each world's match watched by a spectator's stream and its opponent's (bob's), each
    past its first state and its first poll (the matches are new to them)."""
    streams = []
    for world, match in zip(worlds, matches, strict=True):
        events = [
            await stream(world, f"/api/m/{match}/events"),
            await stream(world, "/api/me/events", await world.token(match, O)),
        ]
        for stream_ in events:
            await stream_.version()
        streams.append(events)
    await asyncio.sleep(0.1)
    return streams


async def seen_in_each(
    worlds: tuple[World, ...], matches: list[int], streams: list[list[Events]]
) -> list[Any]:
    """Once each ``watched`` stream has heard what happened: what bob and anyone see of each
    world's match."""
    for events in streams:
        for stream_ in events:
            await _heard(stream_)
    return [
        await seen_by_bob_and_anyone(world, match, events)
        for world, match, events in zip(worlds, matches, streams, strict=True)
    ]


async def torii_playing(w: World) -> int:
    """A Torii match under way, ann (Deer) to play her first turn against bob (Kitsune)."""
    reply = await w.service.challenge(HERE, ANN, BOB, Terms(game="torii"))
    await w.service.accept(HERE, BOB)
    for user, spirit in ((ANN, "Deer"), (BOB, "Kitsune")):
        await w.service.setup(HERE, user, {"spirit": spirit})
    assert reply.stamp is not None
    return reply.stamp.match


async def test_a_staged_torii_turn_tells_the_opponent_and_match_page_nothing(
    tmp_path: Path,
) -> None:
    """Twin Torii matches: in one the player to act stages a turn, in the other nothing
    happens. Torii hides no piece, but the staged turn is private until it ends: the
    spectator's and the opponent's states, pictures and streams are the same to the byte
    (the views once gave everyone the actor's own count of actions left, which dropped to 0
    when a turn was staged and moved the public board picture's address and version)."""
    async with (
        World(tmp_path / "a.sqlite3", heartbeat=3600) as a,
        World(tmp_path / "b.sqlite3", heartbeat=3600) as b,
    ):
        worlds = (a, b)
        matches = [await torii_playing(world) for world in worlds]
        streams = await watched(worlds, matches)
        notation = await a.first_action(matches[0], C)
        staged = await a.post(
            "act", await a.token(matches[0], C), {"stamp": 1, "notation": notation}
        )
        assert staged[0] == 200 and (await a.me(matches[0], C))["staged"] == [notation]
        seen = await seen_in_each(worlds, matches, streams)
        assert seen[0] == seen[1]


def _hub_with_one_stream(watched_versions: Any = None, version: Any = None) -> tuple[Any, Any]:
    """A live-events hub over a stand-in service, one public stream of match 5 open."""
    from bot.web.events import Hub, Stream

    service = SimpleNamespace(on_change=lambda _hook: None, watched_versions=watched_versions)
    hub = Hub(service, version)  # type: ignore[arg-type]
    stream = Stream((5, None), request=None, quiet_since=0.0)  # type: ignore[arg-type]
    hub._streams[5] = {stream}
    hub._sent[(5, None)] = "v1"
    return hub, stream


async def test_a_page_closed_while_the_poll_reads_leaves_nothing_of_its_match_behind() -> None:
    """The poll reads the watched matches' versions (a query: other pages close meanwhile)
    and then noted them for every match it read, watched or not by then: a match whose last
    page closed during the read was kept in ``_stored`` (and marked to refresh) for as long as
    the bot ran. Each such close, a second at a time, adds one: an unbounded growth with
    the pages viewers close."""
    hub: Any = None
    stream: Any = None

    async def watched_versions(matches: list[int]) -> dict[int, tuple[int, int | None]]:
        hub._drop(stream)  # the page goes while the query runs
        return {match: (3, None) for match in matches}

    hub, stream = _hub_with_one_stream(watched_versions=watched_versions)
    await hub.look_for_changes()
    assert hub.watched == 0
    assert 5 not in hub._stored, "a match no page watches is kept by the poll"
    assert 5 not in hub._polled


async def test_a_page_closed_while_its_version_is_worked_out_leaves_no_version_behind() -> None:
    """A refresh works out each audience's version (a read of the match) and then noted it
    as sent, whether or not the audience's last page closed meanwhile: ``_sent`` kept an
    entry per (match, side) for good, one per page closed at the wrong moment; and a page
    of that audience opened later was not told of a state that came back to that version
    (a takeback), as if it had been sent."""
    hub: Any = None
    stream: Any = None

    async def version(_match: int, _side: Any) -> str:
        hub._drop(stream)  # the page goes while its version is read
        return "v2"

    async def watched_versions(matches: list[int]) -> dict[int, tuple[int, int | None]]:
        return {match: (3, None) for match in matches}

    hub, stream = _hub_with_one_stream(watched_versions=watched_versions, version=version)
    await hub.refresh(5)
    assert hub.watched == 0
    assert hub._sent == {}, f"versions kept for audiences nobody watches: {hub._sent}"
