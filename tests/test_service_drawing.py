"""Board images are drawn in a worker process (issue 26): a player sees the very images a
renderer in the bot's own process would have drawn, each where it belongs, while the drawing
no longer holds up the other channels' requests; a renderer that cannot be sent to a worker
draws in threads as before."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import pickle
import threading
from pathlib import Path

import pytest

from bot.app.pictures import PillowRenderer
from bot.service import Place, Pointing, Settings, Status, User
from bot.service.offload import Offload, default_draw_workers
from bot.service.testing import DigestRenderer, Harness
from rules import GameView
from rules.tora import Game, Side

HERE, ANN, BOB = Place(1, 100), User(1, "ann"), User(2, "bob")
PNG = b"\x89PNG\r\n\x1a\n"


class WhereDrawn(DigestRenderer):
    """The digest renderer's images, each saying which process drew it."""

    def board(self, view: GameView, status: Status, language: str = "en") -> bytes:
        return f"{os.getpid()}|".encode() + super().board(view, status, language)

    def private(
        self, view: GameView, status: Status, marks: Pointing | None = None, language: str = "en"
    ) -> bytes:
        return f"{os.getpid()}|".encode() + super().private(view, status, marks, language)


class Unsendable(WhereDrawn):
    """A renderer holding something of this process (a lock): it cannot go to a worker."""

    def __init__(self) -> None:
        self.lock = threading.Lock()


class LostOnTheWay(WhereDrawn):
    """A renderer that pickles but cannot be rebuilt in a worker (its class is not there)."""

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return _rebuilt_here_only, (os.getpid(),)


def _rebuilt_here_only(pid: int) -> LostOnTheWay:
    if os.getpid() != pid:
        raise ImportError("no such renderer in this process")
    return LostOnTheWay()


def drawing(renderer: DigestRenderer, path: Path) -> Harness:
    settings = dataclasses.replace(Harness(path).settings, draw_processes=1)
    return Harness(path, settings=settings, renderer=renderer)


Sent = dict[tuple[str, int | None], list[tuple[int, bytes]]]


async def a_turn(h: Harness) -> Sent:
    """A match started and a turn played: the images ann's reply showed and each destination
    was sent, in order, each as (the process that drew it, the image)."""
    service = h.running
    await service.challenge(HERE, ANN, BOB)
    await service.accept(HERE, BOB)
    await service.setup(HERE, ANN, {"strategy": "aggressive"})
    await service.setup(HERE, BOB, {"strategy": "defensive"})
    preview = await service.play(HERE, ANN, "G v5h9-v4h9")
    await service.end_turn(HERE, ANN)
    await h.settle()
    sent: Sent = {("reply", ANN.id): [drawn_by(f.data) for f in preview.files]}
    for delivered in h.delivery.log:
        images = [drawn_by(f.data) for f in delivered.message.files]
        sent.setdefault((delivered.kind, delivered.user_id), []).extend(images)
    return sent


def drawn_by(image: bytes) -> tuple[int, bytes]:
    pid, _bar, rest = image.partition(b"|")
    return int(pid), rest


async def test_images_are_drawn_in_a_worker_and_are_those_drawn_here(tmp_path: Path) -> None:
    async with drawing(WhereDrawn(), tmp_path / "worker.sqlite3") as h:
        in_worker = await a_turn(h)
    async with Harness(tmp_path / "here.sqlite3", renderer=WhereDrawn()) as h:
        in_thread = await a_turn(h)
    assert sum(map(len, in_worker.values())) >= 6  # the preview, the start's 3, the turn's 2
    assert processes(in_worker) and os.getpid() not in processes(in_worker)
    assert processes(in_thread) == {os.getpid()}
    assert images(in_worker) == images(in_thread)


def processes(sent: Sent) -> set[int]:
    return {pid for drawn in sent.values() for pid, _image in drawn}


def images(sent: Sent) -> dict[tuple[str, int | None], list[bytes]]:
    return {to: [image for _pid, image in drawn] for to, drawn in sent.items()}


async def test_a_renderer_that_cannot_go_to_a_worker_draws_here(tmp_path: Path) -> None:
    async with drawing(Unsendable(), tmp_path / "t.sqlite3") as h:
        assert processes(await a_turn(h)) == {os.getpid()}


async def test_images_a_worker_cannot_draw_are_drawn_here(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with drawing(LostOnTheWay(), tmp_path / "lost.sqlite3") as h:
        lost = await a_turn(h)
    async with Harness(tmp_path / "here.sqlite3", renderer=WhereDrawn()) as h:
        here = await a_turn(h)
    assert processes(lost) == {os.getpid()}
    assert images(lost) == images(here)
    assert "drawing it here" in caplog.text


def test_the_png_renderer_sent_to_a_worker_draws_the_same_pngs() -> None:
    game = Game(board="short")
    status = Status("ann", "bob", "due in 1 day")
    renderer = PillowRenderer()
    drawn = renderer.private(game.view_for(Side.CHALLENGER), status)  # now in its cache
    copy = pickle.loads(pickle.dumps(renderer))
    assert copy.private(game.view_for(Side.CHALLENGER), status) == drawn
    assert copy.board(game.view_for(None), status) == renderer.board(game.view_for(None), status)
    assert drawn.startswith(PNG)


async def two_turns_at_once(h: Harness) -> Sent:
    """``a_turn`` in two channels at the same time: what each reply showed and each
    destination was sent."""
    there, cid, dan = Place(1, 200), User(3, "cid"), User(4, "dan")
    service = h.running
    for place, first, second in ((HERE, ANN, BOB), (there, cid, dan)):
        await service.challenge(place, first, second)
        await service.accept(place, second)
        await service.setup(place, first, {"strategy": "aggressive"})
        await service.setup(place, second, {"strategy": "defensive"})

    async def turn(place: Place, user: User) -> list[tuple[int, bytes]]:
        preview = await service.play(place, user, "G v5h9-v4h9")
        await service.end_turn(place, user)
        return [drawn_by(f.data) for f in preview.files]

    previews = await asyncio.gather(turn(HERE, ANN), turn(there, cid))
    await h.settle()
    sent: Sent = {("reply", ANN.id): previews[0], ("reply", cid.id): previews[1]}
    for delivered in h.delivery.log:
        to = (delivered.kind, delivered.user_id or delivered.channel_id)
        sent.setdefault(to, []).extend(drawn_by(f.data) for f in delivered.message.files)
    return sent


async def test_several_drawing_workers_draw_each_image_for_its_own_destination(
    tmp_path: Path,
) -> None:
    """Two channels' turns at once, each drawing two images at once: with two workers every
    destination gets, in order, the very images drawn here one at a time."""
    settings = dataclasses.replace(Harness(tmp_path).settings, draw_processes=2)
    path = tmp_path / "two.sqlite3"
    async with Harness(path, settings=settings, renderer=WhereDrawn()) as h:
        in_workers = await two_turns_at_once(h)
    async with Harness(tmp_path / "here.sqlite3", renderer=WhereDrawn()) as h:
        in_thread = await two_turns_at_once(h)
    assert processes(in_workers) and os.getpid() not in processes(in_workers)
    assert images(in_workers) == images(in_thread)
    assert len(images(in_workers)) >= 6  # two replies, two channels, at least two players


def test_the_drawing_workers_are_one_per_core_unless_configured() -> None:
    assert Settings().draw_processes is None
    assert Offload(0, 0, draw_processes=None).draw_workers == default_draw_workers()
    assert default_draw_workers() == len(os.sched_getaffinity(0))
    assert Offload(0, 0, draw_processes=3).draw_workers == 3
