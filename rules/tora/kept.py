"""The bounded stores of kept answers (``movegen``, ``walk``, ``jeopardy``, ``restriction``)."""

from __future__ import annotations

import contextlib
from itertools import islice
from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")

# A full store drops this share of its answers, its oldest, before it keeps a new one.
_DROPPED = 128


def keep(store: dict[K, V], key: K, value: V, limit: int) -> V:
    """``value``, kept in ``store`` under ``key``; a full store drops its oldest answers first.

    A full store drops a hundred-and-twenty-eighth of its answers at once, oldest first. Not
    one for each new one: a dict finds its oldest key by stepping over the places of the keys
    deleted before it, so dropping them one at a time walks up to the whole store for every
    answer kept (6-8 us at 1,024-2,048 answers; 0.6 us in small batches). Not many at once
    either: emptying a full store frees thousands of objects in one go (6-7 ms for a full
    store of a piece's actions, inside the turn end that happened to fill it), the answers
    a search asks for next are its newest, and the garbage collector counts the objects
    made less those freed only down to zero: a larger burst of frees is more of them uncounted,
    and more collections."""
    while len(store) >= limit:
        # threads share the stores (rules steps run in worker threads and on the event loop):
        # another may be dropping the same oldest answers, or adding one as it is found
        with contextlib.suppress(RuntimeError):
            for old in list(islice(store, max(1, limit // _DROPPED))):
                store.pop(old, None)
    store[key] = value
    return value
