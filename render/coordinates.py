"""Each game's coordinates picture, for its quick start (``/tora help``): its start position
with the coordinates on the board's edges, as the game's drawing draws it."""

from __future__ import annotations

import functools

from .drawings import drawing_of
from .words import ENGLISH, Words


@functools.lru_cache(maxsize=64)
def coordinates_of(game: str, words: Words = ENGLISH) -> bytes:
    """The PNG of game ``game``'s coordinates, its own words in ``words``' language (drawn
    once per game and language); ValueError for a game the registry does not know."""
    return drawing_of(game).coordinates(words)
