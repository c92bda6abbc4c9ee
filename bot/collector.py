"""The garbage collector's settings for the bot's processes (the bot and its workers).

The rules core keeps many small long-lived objects (each live match's position, kept menus,
action lists and views) and makes many short-lived ones for every request. With Python's
defaults, a young collection runs every 700 allocations, so a request pays for several, and
each collection of the older generations walks every kept object again: measured on a
random short TORA game, 103-109 ms of CPU a game with the defaults, 88-97 ms with these
settings. After start-up what it made (modules, message catalogs, fonts, the registry) is
set aside for good (``gc.freeze``: never walked again), and the young generation is
collected every ``YOUNG`` allocations: at most that many container objects of cyclic
garbage (a few megabytes) wait for it."""

from __future__ import annotations

import gc

YOUNG = 50_000  # allocations between young collections (Python's default: 700)
MIDDLE = 20  # young collections between middle ones (default 10)
OLD = 100  # middle collections between full ones, beside Python's own 25 % rule (default 10)


def tune() -> None:
    """Set aside what exists now and space the collections out (call once started up)."""
    gc.freeze()
    gc.set_threshold(YOUNG, MIDDLE, OLD)
