"""What the web board spares itself on a click: the match service stages an action (and
takes it back) without drawing the preview picture only the Discord reply shows; a state
is worked out once for what its audience sees (the streams' checks after a change hidden
from them, or after the player's own action, build nothing more), and a kept state is
always the one a fresh board would build; the public record is read once a turn."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from web_world import ANN, BOB, HERE, World

from bot.app.boards import Boards
from bot.service import Terms
from rules import Side
from rules.tora import Game

C, O = Side.CHALLENGER, Side.OPPOSITION


@pytest.fixture
async def w(tmp_path: Path) -> AsyncIterator[World]:
    async with World(tmp_path / "costs.sqlite3") as world:
        yield world


async def test_a_staged_action_without_a_preview_has_no_picture_and_the_same_turn(
    w: World,
) -> None:
    match = await w.playing()
    action = await w.first_action(match, Side.CHALLENGER)
    drawn = await w.service.play(HERE, ANN, action)
    assert drawn.files
    undone = await w.service.undo(HERE, ANN, preview=False)
    assert not undone.files and undone.text.startswith("Taken back")
    bare = await w.service.play(HERE, ANN, action, preview=False)
    assert not bare.files and bare.text == drawn.text
    assert (await w.me(match, Side.CHALLENGER))["staged"] == [action]


def count_states(w: World, monkeypatch: pytest.MonkeyPatch, pause: float = 0.0) -> list[int]:
    """A list that grows by one each time the web board builds a state (each build
    taking ``pause`` seconds longer, as a busy server's may)."""
    boards = w.web.site.boards
    built: list[int] = []
    common = boards._common

    async def counted(look: Any, url: str, language: str) -> dict[str, Any]:
        built.append(look.hosted.id)
        await asyncio.sleep(pause)
        return await common(look, url, language)

    monkeypatch.setattr(boards, "_common", counted)
    return built


async def every_audiences_version(w: World, match: int) -> list[str]:
    """What the event streams' checks ask after a change: each audience's version."""
    return [await w.web._version(match, side) for side in (C, O, None)]


async def test_a_click_builds_one_state_whatever_the_streams_ask(
    w: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = await w.playing()
    before = await every_audiences_version(w, match)
    built = count_states(w, monkeypatch)
    token = await w.token(match, C)
    action = await w.first_action(match, C)
    status, state, _ = await w.post("act", token, {"stamp": 1, "notation": action})
    assert status == 200 and state["staged"] == [action]
    after = await every_audiences_version(w, match)
    assert len(built) == 1  # the actor's answer; their stream's check reuses it
    assert after[0] == state["version"] != before[0]
    assert after[1:] == before[1:]  # hidden from the opponent and the public
    assert (await w.me(match, C)) == {k: v for k, v in state.items() if k != "said"}
    assert len(built) == 1


async def test_a_kept_state_is_the_one_a_fresh_board_builds(w: World) -> None:
    match = await w.playing()
    boards = w.web.site.boards

    async def same() -> None:
        fresh = Boards(w.service)
        assert await boards.public(match) == await fresh.public(match)
        for side in Side:
            assert await boards.mine(match, side) == await fresh.mine(match, side)

    await same()
    for user, side in ((ANN, C), (BOB, O), (ANN, C)):
        action = await w.first_action(match, side)
        await w.service.play(HERE, user, action)
        await same()
        await w.service.undo(HERE, user)
        await same()
        await w.service.play(HERE, user, action)
        await w.service.end_turn(HERE, user)
        await same()
    assert len((await boards.public(match))["moves"]) >= 3


async def test_the_public_record_is_read_once_a_turn(
    w: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = await w.playing()
    records = w.web.site.boards.records
    reads: list[int] = []
    record = records.record

    async def counted(match_id: int) -> str:
        reads.append(match_id)
        return await record(match_id)

    monkeypatch.setattr(records, "record", counted)
    for _ in range(2):
        action = await w.first_action(match, C)
        await w.service.play(HERE, ANN, action)
        await every_audiences_version(w, match)
        await w.service.undo(HERE, ANN)
        await every_audiences_version(w, match)
    assert len(reads) == 1
    await w.service.play(HERE, ANN, await w.first_action(match, C))
    await w.service.end_turn(HERE, ANN)
    await every_audiences_version(w, match)
    assert len(reads) == 2


def png_size(png: bytes) -> tuple[int, int]:
    return int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")


async def test_a_click_draws_no_picture_until_the_page_asks_for_it(
    w: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = await w.playing()
    boards = w.web.site.boards
    await w.me(match, C)  # the page opened: its board's layout is known
    painted: list[object] = []
    paint = boards._paint

    async def counted(drawn: Any) -> Any:
        painted.append(drawn.key)
        return await paint(drawn)

    monkeypatch.setattr(boards, "_paint", counted)
    token = await w.token(match, C)
    action = await w.first_action(match, C)
    status, state, _ = await w.post("act", token, {"stamp": 1, "notation": action})
    assert status == 200 and not painted
    status, png = await w.get(state["board"]["url"], token)
    assert status == 200 and len(painted) == 1
    assert png_size(png) == (state["board"]["width"], state["board"]["height"])


@pytest.mark.parametrize(
    "terms",
    [
        Terms(),
        Terms(options={"board": "long", "assassins": True}),
        Terms(game="torishogi"),
        Terms(game="torii"),
    ],
    ids=["tora-short", "tora-long", "torishogi", "torii"],
)
async def test_the_board_size_a_state_gives_is_its_pictures_turn_after_turn(
    w: World, terms: Terms
) -> None:
    """The size is kept by where the squares are, without drawing each new picture: that
    must be the size each picture has, for every audience, turned or not."""
    reply = await w.service.challenge(HERE, ANN, BOB, terms)
    await w.service.accept(HERE, BOB)
    match = reply.stamp.match
    await same_sizes(w, match, C)  # the setup's preview, where the game has a setup
    for user, side in ((ANN, C), (BOB, O)):
        form = (await w.me(match, side))["setup"]
        if form is not None:  # each question's first option
            answers = {f["name"]: f["options"][0] for f in form["fields"] if f["options"]}
            await w.service.setup(HERE, user, answers)
    for turn in range(4):
        side, user = (C, ANN) if turn % 2 == 0 else (O, BOB)
        await same_sizes(w, match, side)
        await w.service.play(HERE, user, await w.first_action(match, side))
        await w.service.end_turn(HERE, user)


async def same_sizes(w: World, match: int, side: Side) -> None:
    token = await w.token(match, side)
    public = (await w.get(f"/api/m/{match}"))[1]
    for state, key in ((await w.me(match, side), token), (public, None)):
        for board in (state["board"], state["board"]["turned"]):
            if board is not None:
                status, png = await w.get(board["url"], key)
                assert status == 200 and png_size(png) == (board["width"], board["height"])


async def test_a_state_taken_back_to_finds_its_actions_worked_out_already(
    w: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = await w.playing()
    before = await w.me(match, C)
    worked: list[int] = []
    work = Game.menu_and_choices

    def counted(game: Any) -> Any:
        worked.append(1)
        return work(game)

    monkeypatch.setattr(Game, "menu_and_choices", counted)
    for action in [a["notation"] for g in before["choices"] for a in g["actions"]][:3]:
        await w.service.play(HERE, ANN, action, preview=False)
        staged = await w.me(match, C)
        await w.service.undo(HERE, ANN, preview=False)
        again = await w.me(match, C)
        assert staged["staged"] == [action] and again["choices"] == before["choices"]
    assert len(worked) == 3  # each staged state's, never the start's again


async def test_an_action_taken_back_answers_the_state_the_page_had_without_building_it(
    w: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = await w.playing()
    before = await w.me(match, C)
    built = count_states(w, monkeypatch)
    token = await w.token(match, C)
    action = await w.first_action(match, C)
    status, staged, _ = await w.post("act", token, {"stamp": 1, "notation": action})
    assert status == 200 and staged["staged"] == [action]
    status, undone, _ = await w.post("undo", token, {"stamp": 1})
    assert status == 200 and undone["staged"] == []
    assert {k: v for k, v in undone.items() if k != "said"} == before
    assert len(built) == 1  # the staged state's alone


async def test_pages_asking_for_a_new_state_at_once_wait_for_one_build(
    w: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = await w.playing()
    await w.service.play(HERE, ANN, await w.first_action(match, C), preview=False)
    built = count_states(w, monkeypatch, pause=0.05)
    token = await w.token(match, C)
    answers = await asyncio.gather(*(w.get("/api/me", token) for _ in range(4)))
    assert len(built) == 1
    assert all(answer == answers[0] for answer in answers) and answers[0][0] == 200


async def test_the_replays_kept_are_bounded_by_their_views_not_by_their_records() -> None:
    """The public views of replayed records (a page's move list, its replay pictures) were
    kept for 64 records whatever their length: a view of TORA's is some 50 kB, a long
    match's record hundreds of them, so 64 long matches' pages held gigabytes. They are
    bounded by the views kept (``REPLAY_VIEWS``), as the pictures are by their bytes."""
    import random
    from types import SimpleNamespace

    from bot.app.boards import REPLAY_VIEWS
    from rules.torishogi import ToriShogiGame
    from rules.torishogi.record import write_record

    rng = random.Random(3)
    game = ToriShogiGame()
    while len(game.history) < 200 and not game.result:
        game.apply(game.notation(rng.choice(game.legal_moves())))
        game.end_turn()
    boards = Boards(SimpleNamespace(records=None))  # type: ignore[arg-type]
    look = SimpleNamespace(terms=SimpleNamespace(game="torishogi"))
    for n in range(70):  # 70 matches' pages, each of a record of 200 turns
        record = write_record(game, {"Challenger": f"p{n}", "Opposition": "q"})

        async def record_of(_look: object, record: str = record) -> str:
            return record

        boards._record_of = record_of  # type: ignore[method-assign]
        views = await boards._replay(look)  # type: ignore[arg-type]
        assert views is not None and len(views) >= 200
    held = sum(len(entry.views or ()) for entry in boards._replays._items.values())
    assert held <= REPLAY_VIEWS, f"{held} views kept, {REPLAY_VIEWS} at most"


async def test_the_pages_of_many_ended_matches_work_out_their_replays_one_at_a_time(
    w: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An ended match's page lists its moves from its replay, a long match's hundreds of
    milliseconds of Python in a thread; one client asking for the pages of many ended
    matches at once (their numbers follow each other) had each worked out together, holding
    the interpreter and the threads every other part of the bot waits for. They are worked
    out one at a time (``REPLAYS_AT_ONCE``), as the bot's costly commands are."""
    import threading
    import time

    from bot.app import boards as boards_module

    drawing_of = boards_module.drawing_of
    running, most = [0], [0]
    lock = threading.Lock()

    def slow_drawing(game: str) -> Any:
        drawing = drawing_of(game)

        class Slow:  # the game's drawing, its replay counted and slowed down
            def __getattr__(self, name: str) -> Any:
                return getattr(drawing, name)

            def views(self, record: str) -> list[Any]:
                with lock:
                    running[0] += 1
                    most[0] = max(most[0], running[0])
                time.sleep(0.05)
                with lock:
                    running[0] -= 1
                return list(drawing.views(record))

        return Slow()

    matches = []
    for _ in range(4):
        matches.append(await w.playing())
        await w.service.resign(HERE, ANN)
    monkeypatch.setattr(boards_module, "drawing_of", slow_drawing)
    answers = await asyncio.gather(*(w.get(f"/api/m/{match}") for match in matches))
    assert [status for status, _state in answers] == [200] * 4, answers
    assert most[0] == 1, f"{most[0]} replays worked out at once"
