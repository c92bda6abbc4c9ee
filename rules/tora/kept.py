"""The bounded stores of kept answers (``movegen``, ``walk``, ``jeopardy``, ``restriction``)."""

from __future__ import annotations

import contextlib
from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


def keep(store: dict[K, V], key: K, value: V, limit: int) -> V:
    """``value``, kept in ``store`` under ``key``; a full store drops its oldest answers first.

    One answer goes for each new one: emptying a full store at once frees thousands of
    objects in one go (6-7 ms for a full store of a piece's actions, inside the turn end
    that happened to fill it), and the answers a search asks for next are its newest."""
    while len(store) >= limit:
        # threads share the stores (rules steps run in worker threads and on the event loop):
        # another may have dropped this oldest answer already, or be adding one as it is found
        with contextlib.suppress(KeyError, RuntimeError, StopIteration):
            del store[next(iter(store))]
    store[key] = value
    return value
