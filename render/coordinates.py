"""Each game's coordinates picture, for its quick start (``/tora help``): its start position
with the coordinates on the board's edges, as the game's drawing draws it."""

from __future__ import annotations

import functools

from .drawings import drawing_of


@functools.cache
def coordinates_of(game: str) -> bytes:
    """The PNG of game ``game``'s coordinates (drawn once); ValueError for a game the
    registry does not know."""
    return drawing_of(game).coordinates()
