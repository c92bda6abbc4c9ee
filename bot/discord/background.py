"""Work an adapter's part starts and does not wait for (disabling stale buttons): each task
kept until it ends, so that it is not collected half done, its failure logged (the next
change of what it looked after looks again), all of it awaited by ``idle`` (tests compare
what users see once it is done) and cancelled by ``close``."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

log = logging.getLogger(__name__)


class Background:
    def __init__(self, failing: str) -> None:
        self._failing = failing  # what the log says could not be done
        self._tasks: set[asyncio.Task[None]] = set()

    def start(self, work: Coroutine[Any, Any, None], name: str) -> None:
        task = asyncio.create_task(work, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        task.add_done_callback(self._logged)

    def _logged(self, task: asyncio.Task[None]) -> None:
        if not task.cancelled() and (exc := task.exception()) is not None:
            log.error("%s failed", self._failing, exc_info=exc)

    async def idle(self) -> None:
        """Wait for the work under way, and for what it started meanwhile."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*list(self._tasks), return_exceptions=True)
