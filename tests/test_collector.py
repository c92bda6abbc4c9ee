"""The bot's processes space out the garbage collector's passes (bot/collector.py): the bot
once started up, and every worker from its first step; the bot's own process collects while
nothing waits on it."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import multiprocessing
import os
import threading
import weakref
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from bot import collector
from bot.lifeline import start_worker
from bot.service import Hosted, Message, Pointing, Status, digest
from bot.service.testing import DigestRenderer, Harness, RecordingDelivery
from rules import GameView
from tests.service_helpers import ANN, HERE, busy_while, gated, started, until


def test_tuning_sets_aside_what_exists_and_spaces_out_collections() -> None:
    before = gc.get_threshold()
    try:
        collector.tune()
        assert gc.get_threshold() == (collector.YOUNG, collector.MIDDLE, collector.OLD)
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


async def test_a_worker_collects_as_the_bot_does() -> None:
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(
        1, mp_context=context, initializer=start_worker, initargs=(os.getpid(),)
    ) as pool:
        found = await asyncio.get_running_loop().run_in_executor(pool, gc.get_threshold)
    assert found == (collector.YOUNG, collector.MIDDLE, collector.OLD)


class _Cycle:
    """Garbage only a collection frees: it refers to itself."""

    def __init__(self) -> None:
        self.me = self


@contextlib.contextmanager
def _collecting_only_when_asked() -> Iterator[None]:
    before = gc.get_threshold()
    gc.disable()
    gc.collect()
    try:
        yield
    finally:
        gc.set_threshold(*before)
        gc.enable()


def test_an_idle_look_collects_the_young_once_enough_wait_and_the_older_in_turn() -> None:
    with _collecting_only_when_asked():
        kept: list[list[int]] = [[] for _ in range(collector.SOFT // 2)]
        assert collector.collect_idle() is None  # too few young objects: not worth a pause
        kept += [[] for _ in range(collector.SOFT + 100)]
        found: list[int | None] = []
        for _round in range(collector.IDLE_MIDDLE):
            found.append(collector.collect_idle())
            kept += [[] for _ in range(collector.SOFT + 100)]
        assert found == [0] * collector.IDLE_MIDDLE
        assert collector.collect_idle() == 1  # the middle generation's turn, as Python counts
        assert len(kept) > collector.SOFT


def test_an_idle_look_walks_the_oldest_generation_only_once_a_quarter_more_has_moved_in() -> None:
    """A full collection walks every long-lived object (75-290 ms for a big bot): like
    Python, the idle looks make one only once the objects moved into the oldest generation
    since the last one are more than a quarter of those it held then."""
    with _collecting_only_when_asked():
        collector.count_oldest()
        oldest = len(gc.get_objects(2))
        for _middle in range(collector.OLD):
            gc.collect(1)  # as many middle collections as Python spaces full ones by
        kept: list[list[int]] = []
        found: list[int | None] = []
        while 2 not in found and len(found) < 1_000:
            kept += [[] for _ in range(collector.SOFT + 100)]
            found.append(collector.collect_idle())
        assert found[: collector.IDLE_MIDDLE + 1] == [0] * collector.IDLE_MIDDLE + [1]
        assert found[-1] == 2, "the oldest generation is walked in the end"
        assert len(kept) > oldest / 4


def test_a_long_idle_collection_is_logged(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(collector, "LONG", 0.0)
    with _collecting_only_when_asked(), caplog.at_level(logging.INFO, logger="bot.collector"):
        kept = [[] for _ in range(collector.SOFT + 100)]
        assert collector.collect_idle() == 0
        assert len(kept) > collector.SOFT
    [record] = [r for r in caplog.records if r.name == "bot.collector"]
    assert record.generation == 0  # type: ignore[attr-defined]


async def test_the_bot_collects_its_garbage_only_while_nothing_waits_on_it() -> None:
    """A collection stops the whole process: while a request is under way (``busy``), the
    garbage waits; once nothing is, it is collected."""
    with _collecting_only_when_asked():
        busy = True
        cycle = _Cycle()
        gone = weakref.ref(cycle)
        del cycle
        filler: list[list[int]] = [[] for _ in range(collector.SOFT + 100)]
        collecting = asyncio.create_task(collector.collect_when_idle(lambda: busy, every=0.001))
        try:
            for _look in range(20):
                await asyncio.sleep(0.001)
            assert gone() is not None, "collected while a request was under way"
            busy = False
            await until(lambda: gone() is None)
        finally:
            collecting.cancel()
        del filler


async def test_the_idle_collector_goes_on_after_a_look_fails() -> None:
    looks = 0

    def busy() -> bool:
        nonlocal looks
        looks += 1
        if looks == 1:
            raise RuntimeError("a look failed")
        return False

    with _collecting_only_when_asked():
        cycle = _Cycle()
        gone = weakref.ref(cycle)
        del cycle
        filler: list[list[int]] = [[] for _ in range(collector.SOFT + 100)]
        collecting = asyncio.create_task(collector.collect_when_idle(busy, every=0.001))
        try:
            await until(lambda: gone() is None)
        finally:
            collecting.cancel()
        assert looks > 1
        del filler


async def test_the_service_is_busy_while_a_command_or_a_delivery_is_under_way(
    tmp_path: Path,
) -> None:
    drawing, posting = threading.Event(), asyncio.Event()
    renderer, delivery = _GatedRenderer(drawing), _GatedDelivery(posting)
    async with Harness(tmp_path / "t.sqlite3", renderer=renderer, delivery=delivery) as h:
        service = h.running
        drawing.set()
        posting.set()
        await started(service)
        await service.deliver()
        assert not service.busy()
        drawing.clear()
        renderer.waiting = False
        drawn = service.board(HERE, ANN)
        why = "the board is being drawn for ann's command"
        await busy_while(service, drawn, lambda: renderer.waiting, drawing.set, why)
        posting.clear()
        delivery.waiting = False
        await service.end_turn(HERE, ANN)
        why = "ann's turn is being posted"
        await busy_while(service, service.deliver(), lambda: delivery.waiting, posting.set, why)


async def test_the_service_is_busy_while_a_menu_or_its_choices_are_under_way(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every call that takes a channel's lock counts, not only commands: the Play panel's
    menu and the autocomplete's choices too."""
    async with Harness(tmp_path / "t.sqlite3") as h:
        service = h.running
        await started(service)
        loading, reading = asyncio.Event(), asyncio.Event()
        monkeypatch.setattr(service, "_table", gated(service._table, reading, loading))
        for call in (service.menu(HERE, ANN), service.choices(HERE, ANN)):
            loading.clear()
            reading.clear()
            why = "ann's menu or choices are being read"
            await busy_while(service, call, reading.is_set, loading.set, why)


async def test_the_channels_locks_are_not_kept_for_every_channel_ever_asked_in(
    tmp_path: Path,
) -> None:
    """Every command and every autocomplete keystroke (``choices``: not rate limited) takes
    its channel's lock, made on first use and never let go: a bot in many servers kept one
    for every channel and every DM ever typed in, for as long as it ran (and one per server
    and per player). A lock nobody holds nor waits for is as good as a new one: it need not
    be kept."""
    from bot.service import Place, User

    async with Harness(tmp_path / "locks.sqlite3") as h:
        assert h.service is not None
        for channel in range(1000, 1500):  # a keystroke in each: no match there
            assert await h.service.choices(Place(1, channel), User(7, "eve"), "a") == []
        locks = h.service._locks
        kept = len(locks._locks), len(locks._servers), len(locks._players)
        assert not locks.busy()
    assert kept == (0, 0, 0), f"locks kept (channels, servers, players), none held: {kept}"


async def test_the_service_is_busy_while_an_ending_is_announced(tmp_path: Path) -> None:
    """The listeners of a match's end (the ladder's rating, a tournament's next round) run
    after the channel's lock is let go: they count too."""
    async with Harness(tmp_path / "t.sqlite3") as h:
        service = h.running
        await started(service)
        announcing, announced = asyncio.Event(), asyncio.Event()

        async def listener(hosted: Hosted) -> None:
            announcing.set()
            await announced.wait()

        service.on_ended(listener)
        why = "ann's resignation is being announced"
        await busy_while(service, service.resign(HERE, ANN), announcing.is_set, announced.set, why)


async def test_the_service_is_busy_while_the_clocks_and_the_digests_are_looked_after(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The clock's work (claiming the deadlines, reminders and expiries that have come) and
    the daily digests' count too: a collection then would hold up a turn's end at its
    deadline or a player's digest."""
    async with Harness(tmp_path / "t.sqlite3") as h:
        service, store = h.running, h.running._ctx.store
        await started(service)
        assert not service.busy()
        h.clock.advance(digest.EVERY)  # the digests are looked for again
        for owner, read in ((store, "players_with"), (store.hosting, "claim_due")):
            reading, going_on = asyncio.Event(), asyncio.Event()
            monkeypatch.setattr(owner, read, gated(getattr(owner, read), reading, going_on))
            why = f"the service is reading {read} for its clocks"
            await busy_while(service, service.run_due(), reading.is_set, going_on.set, why)


async def test_the_service_is_busy_while_its_timers_read_when_the_next_clock_comes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The timers' read of when the next clock comes (``next_due``) counts too: a
    collection then would hold up the deadline it is about to find come."""
    async with Harness(tmp_path / "t.sqlite3") as h:
        service, hosting = h.running, h.running._ctx.store.hosting
        await started(service)
        reading, going_on = asyncio.Event(), asyncio.Event()
        monkeypatch.setattr(hosting, "next_due", gated(hosting.next_due, reading, going_on))
        timers = asyncio.create_task(service._timer_loop())  # the harness runs no loop
        try:
            await until(reading.is_set)
            assert service.busy(), "the timers are reading when the next clock comes"
            going_on.set()
            await until(lambda: not service.busy())
        finally:
            timers.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await timers


class _GatedRenderer(DigestRenderer):
    """Draws a player's board once ``gate`` is open (in the thread that draws it)."""

    def __init__(self, gate: threading.Event) -> None:
        self.gate = gate
        self.waiting = False

    def private(
        self, view: GameView, status: Status, marks: Pointing | None = None, language: str = "en"
    ) -> bytes:
        self.waiting = True
        self.gate.wait()
        return super().private(view, status, marks, language)


class _GatedDelivery(RecordingDelivery):
    """A delivery whose posts wait for ``gate``."""

    def __init__(self, gate: asyncio.Event) -> None:
        super().__init__()
        self.gate = gate
        self.waiting = False

    async def post(self, channel_id: int, message: Message, key: str) -> None:
        self.waiting = True
        await self.gate.wait()
        await super().post(channel_id, message, key)
