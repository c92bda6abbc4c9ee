"""Where the web board's pictures are drawn: in a worker process of their own. Drawing and
compressing a board takes a few milliseconds of Pillow; in a worker thread that still holds
the interpreter lock, so every click being served meanwhile waits on it (measured: the
click load's tail). In a process it runs on another core: what is drawn (a view, its status
and marks: the audience's own, nothing more) is pickled there and the PNG comes back.

The workers start with the server (``start``: the first page's picture waits for no
process to start). A drawing that does not pickle, and a painter of no processes
(``processes=0``: the tests), draw in a worker thread as before. A pool broken under a job
(its worker killed) is replaced at once and the job drawn again; a worker never outlives
the bot (``bot.lifeline``)."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import pickle
import traceback
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from bot.lifeline import die_with_parent
from render.drawings import drawing_of

log = logging.getLogger(__name__)
PAINTERS = 1  # worker processes that draw the web board's pictures


class PaintingFailed(RuntimeError):
    """A drawing raised in the worker; the message is the worker's traceback."""


def _warm() -> None:
    """In a new worker: import every game's drawing, so the first picture does not wait."""
    drawing_of("tora")


def _paint(job: bytes) -> tuple[bool, bytes | str]:
    """In the worker: the PNG a pickled drawing draws, or the traceback it raised."""
    try:
        return True, pickle.loads(job)()
    except Exception:
        return False, traceback.format_exc()


class Painter:
    """Draws pictures in ``processes`` worker processes, started by ``start`` (or by the
    first picture)."""

    def __init__(self, processes: int = PAINTERS) -> None:
        self.processes = processes
        self._pool: ProcessPoolExecutor | None = None

    def start(self) -> None:
        """Start the workers now, and have them import the drawings, so that the first
        page's picture does not wait for either."""
        if self.processes:
            self._workers().submit(_warm)

    async def paint(self, draw: Callable[[], bytes]) -> bytes:
        """``draw()``, off the event loop."""
        if not self.processes:
            return await asyncio.to_thread(draw)
        try:
            job = pickle.dumps(draw, pickle.HIGHEST_PROTOCOL)
        except Exception:
            log.exception("a picture that does not pickle is drawn in a thread")
            return await asyncio.to_thread(draw)
        pool = self._workers()
        try:
            done, answer = await self._run(pool, job)
        except BrokenProcessPool:
            self._replace(pool)
            done, answer = await self._run(self._workers(), job)
        if not done:
            raise PaintingFailed(str(answer))
        assert isinstance(answer, bytes)
        return answer

    @staticmethod
    async def _run(pool: ProcessPoolExecutor, job: bytes) -> tuple[bool, bytes | str]:
        return await asyncio.get_running_loop().run_in_executor(pool, _paint, job)

    def _workers(self) -> ProcessPoolExecutor:
        if self._pool is None:
            context = multiprocessing.get_context("spawn")  # no fork of a threaded process
            self._pool = ProcessPoolExecutor(
                self.processes,
                mp_context=context,
                initializer=die_with_parent,
                initargs=(os.getpid(),),
            )
        return self._pool

    def _replace(self, broken: ProcessPoolExecutor) -> None:
        """Drop ``broken`` (once, however many of its jobs notice) for a new pool."""
        if self._pool is broken:
            log.error("a picture's worker died and broke its pool; a new pool draws again")
            self.close()

    def close(self) -> None:
        """Stop the workers (a later picture starts new ones)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
