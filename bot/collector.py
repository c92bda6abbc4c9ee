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
oldest as Python would count; ``YOUNG`` stays the threshold Python collects at by itself,
for a process never idle. A worker runs one job at a time, whose answer is all that waits on
it: it collects at ``YOUNG`` as it goes."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Callable

YOUNG = 50_000  # allocations between young collections (Python's default: 700)
MIDDLE = 20  # young collections between middle ones (default 10)
OLD = 100  # middle collections between full ones, beside Python's own 25 % rule (default 10)
SOFT = 5_000  # young objects collected at once when the bot's process is idle
IDLE_MIDDLE = 2  # idle young collections between middle ones (each walks what they left)
LOOK_EVERY = 0.01  # seconds between the idle collector's looks while a collection is due
RESTING = 10  # times longer between looks while none is


def tune() -> None:
    """Set aside what exists now and space the collections out (call once started up)."""
    gc.freeze()
    gc.set_threshold(YOUNG, MIDDLE, OLD)


def collect_idle() -> int | None:
    """One look of ``collect_when_idle`` at a moment nothing waits: the generation it
    collected (None: none was due)."""
    generation = _due()
    if generation is not None:
        gc.collect(generation)
    return generation


def _due() -> int | None:
    """The generation an idle look would collect now: the oldest one due, as Python picks,
    so that the older ones are walked as often as Python's own counts would walk them."""
    young, middle, old = gc.get_count()
    if old >= OLD and middle >= IDLE_MIDDLE:
        return 2
    if middle >= IDLE_MIDDLE:
        return 1
    return 0 if young >= SOFT else None


async def collect_when_idle(busy: Callable[[], bool], every: float = LOOK_EVERY) -> None:
    """In the bot's process, for as long as it runs: collect what is due (``collect_idle``)
    at a moment ``busy()`` says no request or delivery is under way, so that a collection
    stalls nobody's turn (one that begins meanwhile waits for a few milliseconds). It looks
    every ``every`` seconds while a collection is due, ten times less often otherwise."""
    while True:
        await asyncio.sleep(every if _due() is not None else every * RESTING)
        if not busy():
            collect_idle()
