"""Which drawing worker draws a picture (``offload``'s images): each worker has a pool of its
own (a lane), and a match's pictures go to the same one, so that what its last pictures left
in that worker's caches (the boards under the strip, bands, blends, status lines) serves the
next ones; unless that would keep a picture waiting while another worker is idle."""

from __future__ import annotations

import zlib
from collections import Counter
from collections.abc import Hashable, Iterator
from contextlib import contextmanager
from typing import Any

from .ports import Status

# Drawings a worker may have waiting beyond the least busy one's (``lane_for``), and a match's
# own that its next picture may wait behind there: 1, so that a turn end's second picture is
# drawn after its first, from what it left, and no picture waits behind more while a worker
# is idle.
SPILL = 1


def lane_name(number: int) -> str:
    """The pool of drawing worker ``number`` (the first: ``draw``)."""
    return f"draw{number}" if number else "draw"


def shown(args: tuple[Any, ...]) -> Hashable:
    """Who a drawing of ``Offload.draw`` shows: the players of its status, or None."""
    status = next((arg for arg in args if isinstance(arg, Status)), None)
    return None if status is None else (status.challenger, status.opposition)


class Lanes:
    """The lanes of ``workers`` drawing workers, and the drawings each has waiting (or being
    drawn), by the players they show."""

    def __init__(self, workers: int) -> None:
        self.names = [lane_name(n) for n in range(workers)]
        self._queued = dict.fromkeys(self.names, 0)
        self._showing: dict[str, Counter[Hashable]] = {lane: Counter() for lane in self.names}

    @contextmanager
    def waiting(self, shown: Hashable) -> Iterator[str]:
        """The lane for a drawing showing ``shown`` (``lane_for``), counted there while the
        block draws it."""
        lane = self.lane_for(shown)
        self._queued[lane] += 1
        self._showing[lane][shown] += 1
        try:
            yield lane
        finally:
            self._queued[lane] -= 1
            self._showing[lane][shown] -= 1
            if not self._showing[lane][shown]:
                del self._showing[lane][shown]

    def lane_for(self, shown: Hashable) -> str:
        """The lane for an image showing ``shown`` (a match's players; None: anything): the
        same one for the same players, so that the bands, the sprites and the images their
        last pictures left in its caches serve the next ones (drawn in turn, not at once in
        two workers: about 1.4 ms of CPU an image where alternating workers took 2.0 to
        2.7). It waits there behind up to ``SPILL`` of the same players' pictures and nothing
        else (a turn end's public board and the next player's own are drawn one after the
        other, the second mostly from what the first left: its board under the strip, its
        bands); behind anything more only while that worker has fewer than ``SPILL`` more
        drawings waiting (or being drawn) than the least busy one: else it goes to that one,
        so that no picture waits long while a worker is idle (a worker stuck on a picture,
        or its pool being replaced, holds up one more of its match's at most)."""
        least = min(self.names, key=self._queued.__getitem__)
        if shown is None:
            return least
        own = self.names[zlib.crc32(repr(shown).encode()) % len(self.names)]
        waiting = self._queued[own]
        if waiting == self._showing[own][shown] and waiting <= SPILL:  # a turn end's first
            return own
        return own if waiting - self._queued[least] < SPILL else least
