"""The garbage collector's settings for the bot's processes (the bot and its workers).

The rules core keeps many small long-lived objects (each live match's position, kept menus,
action lists and views) and makes many short-lived ones for every request. With Python's
defaults, a young collection runs every 700 allocations, so a request pays for several, and
each collection of the older generations walks every kept object again: measured on a
random short TORA game, 103-109 ms of CPU a game with the defaults, 88-97 ms with these
settings. After start-up what it made (modules, message catalogs, fonts, the registry) is
set aside for good (``gc.freeze``: never walked again), and the young generation is
collected every ``YOUNG`` allocations: at most that many container objects of cyclic
garbage (a few megabytes) wait for it.

A collection stops everything else the process does, and one of the young generation walks
every object made since the last one and still alive: at ``YOUNG`` 20-35 ms of CPU in the
bot's process in the Discord bench, two or three times in its 20 s, each stalling every
post in flight then (3-6 turn ends a run). So the bot's own process (its event loop)
collects when nothing waits on it (``collect_when_idle``): the young generation once
``SOFT`` objects wait (5-10 ms at most), the middle one every ``IDLE_MIDDLE`` of those, the
oldest by Python's own rule (``_Oldest``); ``YOUNG`` stays the threshold Python collects at by
itself, for a process never idle. A worker runs one job at a time, whose answer is all that waits on
it: it collects at ``YOUNG`` as it goes."""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import Callable

log = logging.getLogger(__name__)

YOUNG = 50_000  # allocations between young collections (Python's default: 700)
MIDDLE = 20  # young collections between middle ones (default 10)
OLD = 100  # middle collections between full ones, beside Python's own 25 % rule (default 10)
SOFT = 5_000  # young objects collected at once when the bot's process is idle
IDLE_MIDDLE = 2  # idle young collections between middle ones (each walks what they left)
LOOK_EVERY = 0.01  # seconds between the idle collector's looks
LONG = 0.01  # seconds: an idle collection longer than this is logged


class _Oldest:
    """What decides a full collection, as CPython 3.11 does (``gcmodule.c``): one is due
    once ``OLD`` middle collections have run and the objects they moved into the oldest
    generation (``pending``) are more than a quarter of those it held after the last full
    one (``total``), so that a big heap is walked in proportion to its growth."""

    pending = 0
    total = 0


def tune() -> None:
    """Set aside what exists now and space the collections out (call once started up)."""
    gc.freeze()
    gc.set_threshold(YOUNG, MIDDLE, OLD)
    count_oldest()


def count_oldest() -> None:
    """Count the oldest generation (after a full collection, or at start)."""
    _Oldest.total = len(gc.get_objects(2))
    _Oldest.pending = 0


def collect_idle() -> int | None:
    """One look of ``collect_when_idle`` at a moment nothing waits: the generation it
    collected (None: none was due)."""
    generation = _due()
    if generation is None:
        return None
    if generation == 1:
        _Oldest.pending += len(gc.get_objects(1))  # its survivors move to the oldest
    started = time.perf_counter()
    gc.collect(generation)
    took = time.perf_counter() - started
    if generation == 2:
        count_oldest()
    if took > LONG:
        log.info(
            "a long idle garbage collection",
            extra={"generation": generation, "ms": round(took * 1000, 1)},
        )
    return generation


def _due() -> int | None:
    """The generation an idle look would collect now: the oldest one due, as Python picks."""
    young, middle, old = gc.get_count()
    if middle < IDLE_MIDDLE:
        return 0 if young >= SOFT else None
    if old >= OLD and _Oldest.pending > _Oldest.total / 4:
        return 2
    return 1


async def collect_when_idle(busy: Callable[[], bool], every: float = LOOK_EVERY) -> None:
    """In the bot's process, for as long as it runs: every ``every`` seconds, collect what
    is due (``collect_idle``) if ``busy()`` says no service call is under way, so that a
    collection stalls nobody's turn (one that begins meanwhile waits for a few
    milliseconds). A look that fails is logged, and the looks go on."""
    while True:
        await asyncio.sleep(every)
        try:
            if not busy():
                collect_idle()
        except Exception:
            log.exception("the idle garbage collector's look failed")
