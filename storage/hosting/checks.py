"""The check that a hosted match's copy in memory is current (``Hosting.versions``), which the
service makes before every command: the checks that come while one is being read are read
together, in the next query (group reading, as the writers' group commit).

Each check is answered by a query that started after it was asked, so it sees every change
committed before it was asked, as its own query would: the answer is as exact as one read
alone. At most one query is under way at a time, so a check waits at most for the one under
way and then its own; when checks come one at a time (no query under way), each is read
alone, by a task started at once. On PostgreSQL each query is a round trip to the server and a
borrowed connection, so at a high rate of commands this cuts both.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence

Versions = tuple[int, int | None]
ReadMany = Callable[[Sequence[int]], Awaitable[dict[int, Versions]]]


class VersionChecks:
    """``check(hosted_id)``: the stored versions of a hosted match (None if it is gone),
    read with the other checks waiting at the time by ``read_many``."""

    def __init__(self, read_many: ReadMany) -> None:
        self._read_many = read_many
        self._waiting: dict[int, list[asyncio.Future[Versions | None]]] = {}
        self._reading: asyncio.Task[None] | None = None

    async def check(self, hosted_id: int) -> Versions | None:
        future: asyncio.Future[Versions | None] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(hosted_id, []).append(future)
        if self._reading is None:
            self._reading = asyncio.create_task(self._read_all())
        return await future

    async def _read_all(self) -> None:
        """Read what waits, again and again until nothing does (one query at a time)."""
        try:
            while self._waiting:
                taken, self._waiting = self._waiting, {}
                await self._answer(taken)
        finally:
            self._reading = None
            left, self._waiting = self._waiting, {}  # cancelled: nobody reads for them
            for futures in left.values():
                _settle(futures, None, asyncio.CancelledError())

    async def _answer(self, taken: dict[int, list[asyncio.Future[Versions | None]]]) -> None:
        """One query for the checks ``taken``; its error is each of theirs."""
        try:
            found = await self._read_many(list(taken))
        except Exception as exc:
            for futures in taken.values():
                _settle(futures, None, exc)
            return
        except BaseException:  # cancelled (or the process stopping): nobody reads for them
            for futures in taken.values():
                _settle(futures, None, asyncio.CancelledError())
            raise
        for hosted_id, futures in taken.items():
            _settle(futures, found.get(hosted_id), None)


def _settle(
    futures: list[asyncio.Future[Versions | None]],
    result: Versions | None,
    error: BaseException | None,
) -> None:
    for future in futures:
        if future.done():  # its caller was cancelled
            continue
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)
