"""The web board's pictures drawn by the service's drawing worker (the pool that draws the
Discord images): the very pictures a thread draws, for every game and audience; a worker
killed under the load is replaced and the picture drawn again; a drawing that cannot be sent
there, or fails there, is drawn in a thread."""

from __future__ import annotations

import dataclasses
import os
import signal
from collections.abc import AsyncIterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest
from web_world import ANN, BOB, HERE, World

from bot.app.boards import Boards
from bot.service import Terms
from bot.service.offload import Offload
from bot.service.testing import Harness
from rules import Side

C, O = Side.CHALLENGER, Side.OPPOSITION
DRAWING = dataclasses.replace(Harness(Path("unused")).settings, draw_processes=1)


@pytest.fixture
async def w(tmp_path: Path) -> AsyncIterator[World]:
    async with World(tmp_path / "painter.sqlite3", settings=DRAWING) as world:
        yield world


def drawers(w: World) -> ProcessPoolExecutor | None:
    """The service's pool of drawing workers, if it started."""
    return w.service._ctx.offload._pools.get("draw")


async def started(w: World, terms: Terms) -> int:
    reply = await w.service.challenge(HERE, ANN, BOB, terms)
    await w.service.accept(HERE, BOB)
    assert reply.stamp is not None
    match = reply.stamp.match
    for user, side in ((ANN, C), (BOB, O)):
        form = (await w.me(match, side))["setup"]
        if form is not None:  # each question's first option
            answers = {f["name"]: f["options"][0] for f in form["fields"] if f["options"]}
            await w.service.setup(HERE, user, answers)
    return match


@pytest.mark.parametrize(
    "terms",
    [
        Terms(options={"board": "long", "assassins": True}),
        Terms(game="torishogi"),
        Terms(game="torii"),
    ],
    ids=["tora-assassins", "torishogi", "torii"],
)
async def test_a_worker_draws_the_pictures_a_thread_draws(
    w: World, terms: Terms, caplog: pytest.LogCaptureFixture
) -> None:
    match = await started(w, terms)
    in_thread = Boards(w.service)
    token = await w.token(match, C)
    state = await w.me(match, C)
    group = state["choices"][0]["key"]
    status, own = await w.get(f"/api/me/board.png?pick={group}", token)
    assert status == 200 and own == await in_thread.own_png(match, C, group, False)
    status, public = await w.get(f"/api/m/{match}/board.png")
    assert status == 200 and public == (await in_thread.public_png(match, False))[0]
    assert drawers(w) is not None
    assert not [r for r in caplog.records if "pickle" in r.getMessage()]  # none in a thread


async def test_a_killed_worker_is_replaced_and_the_picture_drawn(w: World) -> None:
    match = await w.playing()
    token = await w.token(match, C)
    assert (await w.get("/api/me/board.png", token))[0] == 200
    pool = drawers(w)
    assert pool is not None
    for pid in list(pool._processes):
        os.kill(pid, signal.SIGKILL)
    group = (await w.me(match, C))["choices"][0]["key"]
    status, png = await w.get(f"/api/me/board.png?pick={group}", token)
    assert status == 200 and png.startswith(b"\x89PNG")


async def test_a_drawing_that_cannot_be_sent_is_drawn_in_a_thread() -> None:
    offload = Offload(0, 0, draw_processes=1)
    try:
        assert await offload.paint(lambda: b"drawn here") == b"drawn here"
        assert "draw" not in offload._pools  # no worker was started for it
    finally:
        offload.close()


def failing() -> bytes:
    raise ValueError("no such board")


async def test_a_drawing_that_fails_in_the_worker_is_drawn_again_here_and_says_why(
    caplog: pytest.LogCaptureFixture,
) -> None:
    offload = Offload(0, 0, draw_processes=1)
    try:
        with pytest.raises(ValueError, match="no such board"):
            await offload.paint(failing)
        assert any("no such board" in r.getMessage() for r in caplog.records)  # the worker's
    finally:
        offload.close()


async def test_the_worker_is_started_with_the_service(tmp_path: Path) -> None:
    async with World(tmp_path / "started.sqlite3", settings=DRAWING) as w:
        pool = drawers(w)
        assert pool is not None  # before any picture was asked for
        match = await w.playing()
        assert (await w.get(f"/api/m/{match}/board.png"))[0] == 200
        assert drawers(w) is pool
