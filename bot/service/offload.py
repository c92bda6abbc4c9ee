"""Where the expensive steps run: the rules core's end of a turn, whose R30 and R25 searches
cost about 0.35 s at the median on the long board (up to 2 s), and the AI players' searches
(seconds each).

In a worker thread that work still holds the interpreter lock, and every other channel
waits on it; so long-board turn ends go to a separate process: the game is pickled there
and back (a few milliseconds), the searches run on another core, and the match adopts the
returned game with its log entry. Short-board turn ends (about 0.15 ms) stay in a thread.
An AI's turn is searched in a process of its own pool (one core by default), on the game as
that AI may know it: the hidden information of its opponent never leaves the bot's process.

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

import ai
from rules import GameState, IllegalAction
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


def _ai_turn(data: bytes) -> list[str]:
    """In the worker: the whole turn an AI of ``level`` plays on a pickled game."""
    game, level, seconds, seed = pickle.loads(data)
    return ai.decide(game, level, seconds, seed)


def search_payload(game: GameState, level: str, seconds: float, seed: int) -> bytes:
    """The bytes an AI's search job sends to its worker: the game (as the AI may know it)
    and what to search for."""
    return pickle.dumps((game, level, seconds, seed), pickle.HIGHEST_PROTOCOL)


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
    """``processes`` workers for long-board turn ends and ``ai_processes`` for the AI
    players' searches (0: threads only), each pool started when it is first needed (which
    then waits a moment longer for it)."""

    def __init__(self, processes: int, ai_processes: int = 0) -> None:
        self._sizes = {"rules": processes, "ai": ai_processes}
        self._pools: dict[str, ProcessPoolExecutor] = {}

    def _workers(self, kind: str) -> ProcessPoolExecutor | None:
        size = self._sizes[kind]
        if size and kind not in self._pools:
            context = multiprocessing.get_context("spawn")  # no fork of a threaded process
            self._pools[kind] = ProcessPoolExecutor(
                size, mp_context=context, initializer=_die_with, initargs=(os.getpid(),)
            )
        return self._pools.get(kind)

    def close(self) -> None:
        for pool in self._pools.values():
            pool.shutdown(wait=False, cancel_futures=True)
        self._pools = {}

    async def end_turn(self, match: Match, deadline: bool = False) -> GameTurn:
        """``match.end_turn()`` (or its end by the deadline), off the event loop."""
        pool = self._workers("rules") if heavy(match.game) else None
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

    async def ai_turn(self, game: GameState, level: str, seconds: float, seed: int) -> list[str]:
        """The turn an AI of ``level`` plays on ``game`` (already as that AI may know it,
        ``for_player``), searched off the event loop within ``seconds``."""
        pool = self._workers("ai")
        if pool is None:
            return await asyncio.to_thread(ai.decide, game, level, seconds, seed)
        data = search_payload(game, level, seconds, seed)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(pool, _ai_turn, data)
