"""The bounded stores of kept answers (``movegen``, ``walk``, ``jeopardy``, ``restriction``)."""

from __future__ import annotations

from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


def keep(store: dict[K, V], key: K, value: V, limit: int) -> V:
    """``value``, kept in ``store`` under ``key``; a full store drops its oldest answer first.

    One answer goes for each new one: emptying a full store at once frees thousands of
    objects in one go (6-7 ms for a full store of a piece's actions, inside the turn end
    that happened to fill it), and the answers a search asks for next are its newest."""
    if len(store) >= limit:
        del store[next(iter(store))]
    store[key] = value
    return value
