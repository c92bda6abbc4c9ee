"""Each game's coordinates picture, for its quick start (``/tora help``): its start position
with the coordinates on the board's edges, as that game's drawing package draws it."""

from __future__ import annotations

import functools
from collections.abc import Callable

from .tora.examples import coordinates_png as tora
from .torii.examples import coordinates_png as torii
from .torishogi.examples import coordinates_png as torishogi

COORDINATES: dict[str, Callable[[], bytes]] = {
    "tora": tora,
    "torishogi": torishogi,
    "torii": torii,
}


@functools.cache
def coordinates_of(game: str) -> bytes:
    """The PNG of game ``game``'s coordinates (drawn once); KeyError for a game without one."""
    return COORDINATES[game]()
