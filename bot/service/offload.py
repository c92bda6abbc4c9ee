"""Where the rules core's expensive step runs: the end of a turn, whose R30 and R25 searches
cost about 0.35 s at the median on the long board (up to 2 s).

In a worker thread that work still holds the interpreter lock, and every other channel
waits on it; so long-board turn ends go to a separate process: the game is pickled there
and back (a few milliseconds), the searches run on another core, and the match adopts the
returned game with its log entry. Short-board turn ends (about 0.15 ms) stay in a thread.

A worker never outlives the bot: it asks the kernel for SIGKILL when its parent dies (Linux)
and, everywhere, watches its parent and exits once it is gone, so a bot killed with SIGKILL
leaves no orphans behind (each restart would otherwise add its own).
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import multiprocessing
import os
import pickle
import signal
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor

from rules import IllegalAction
from rules.protocol import GameTurn
from storage import Match, heavy
from storage.log import DEADLINE, END, Step, play


def _end_turn(data: bytes) -> bytes:
    """In the worker: end the turn of a pickled game; the game, entry and turn pickled back,
    or the refusal's parts (an IllegalAction does not unpickle by itself)."""
    game, kind = pickle.loads(data)
    try:
        entry, turn = play(game, Step(kind))
    except IllegalAction as exc:
        return pickle.dumps(("refused", exc.rule, exc.reason, exc.allowed))
    return pickle.dumps(("ended", game, entry, turn), protocol=pickle.HIGHEST_PROTOCOL)


PR_SET_PDEATHSIG = 1  # prctl(2)
WATCH_EVERY = 0.5  # seconds between a worker's looks at its parent


def _die_with(parent: int) -> None:
    """In each worker, at its start: exit as soon as ``parent`` (the bot) is gone."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # it died before we asked
        os._exit(0)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(WATCH_EVERY)
        os._exit(0)

    threading.Thread(target=watch, name="tora-parent-watch", daemon=True).start()


class Offload:
    """``processes`` workers for long-board turn ends (0: threads only), started when the
    first one is needed (which then waits a moment longer for them)."""

    def __init__(self, processes: int) -> None:
        self._processes = processes
        self._pool: ProcessPoolExecutor | None = None

    def _workers(self) -> ProcessPoolExecutor | None:
        if self._processes and self._pool is None:
            context = multiprocessing.get_context("spawn")  # no fork of a threaded process
            self._pool = ProcessPoolExecutor(
                self._processes, mp_context=context, initializer=_die_with, initargs=(os.getpid(),)
            )
        return self._pool

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    async def end_turn(self, match: Match, deadline: bool = False) -> GameTurn:
        """``match.end_turn()`` (or its end by the deadline), off the event loop."""
        pool = self._workers() if heavy(match.game) else None
        if pool is None:
            ender = match.end_turn_by_deadline if deadline else match.end_turn
            return await asyncio.to_thread(ender)
        data = pickle.dumps((match.game, DEADLINE if deadline else END), pickle.HIGHEST_PROTOCOL)
        loop = asyncio.get_running_loop()
        answer = pickle.loads(await loop.run_in_executor(pool, _end_turn, data))
        if answer[0] == "refused":
            _kind, rule, reason, allowed = answer
            raise IllegalAction(rule, reason, allowed)
        _kind, game, entry, turn = answer
        match.adopt(game, entry)
        return turn
