"""Waiting for the emulator's world to reach a state, without polling loops in tests."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")
POLL = 0.05


class Changes:
    """Every change to the world calls ``changed()``; waiters re-check their condition."""

    def __init__(self) -> None:
        self._event = asyncio.Event()

    def changed(self) -> None:
        self._event.set()
        self._event = asyncio.Event()

    async def next(self) -> None:
        """Returns at the next change."""
        await self._event.wait()

    async def wait_until(self, check: Callable[[], T | None], timeout: float, what: str) -> T:
        """Returns ``check()``'s first truthy result; TimeoutError naming ``what`` otherwise.
        Checks again on every change and every ``POLL`` seconds, for conditions outside
        the world (the client's own state, say)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not (result := check()):
            event = self._event
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"timed out after {timeout} s waiting for {what}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), min(remaining, POLL))
        return result
