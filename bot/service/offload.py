"""Where the rules core's expensive step runs: the end of a turn, whose R30 and R25 searches
cost about 0.35 s at the median on the long board (up to 2 s).

In a worker thread that work still holds the interpreter lock, and every other channel
waits on it; so long-board turn ends go to a separate process: the game is pickled there
and back (a few milliseconds), the searches run on another core, and the match adopts the
returned game with its log entry. Short-board turn ends (about 0.15 ms) stay in a thread.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import pickle
from concurrent.futures import ProcessPoolExecutor

from rules import LONG, IllegalAction, Turn
from storage import Match
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


class Offload:
    """``processes`` workers for long-board turn ends (0: threads only), started when the
    first one is needed (which then waits a moment longer for them)."""

    def __init__(self, processes: int) -> None:
        self._processes = processes
        self._pool: ProcessPoolExecutor | None = None

    def _workers(self) -> ProcessPoolExecutor | None:
        if self._processes and self._pool is None:
            context = multiprocessing.get_context("spawn")  # no fork of a threaded process
            self._pool = ProcessPoolExecutor(self._processes, mp_context=context)
        return self._pool

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    async def end_turn(self, match: Match, deadline: bool = False) -> Turn:
        """``match.end_turn()`` (or its end by the deadline), off the event loop."""
        pool = self._workers() if match.game.options.board == LONG else None
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
