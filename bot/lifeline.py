"""A worker process never outlives the bot. The worker pools (``bot.service.offload``) start
each worker with ``start_worker``: ``die_with_parent`` before anything else of ours runs
(then the bot's garbage collector settings, ``bot.collector``). This module and that one
import the standard library alone, so a worker started just before the bot is killed learns
of it within moments, not after importing the rules, the engines and storage (seconds on a
loaded machine).

Two ways, both at once: on Linux the kernel sends the worker SIGKILL when its parent dies
(``prctl(PR_SET_PDEATHSIG)``, checked against a parent that died before it was asked); and,
everywhere, a thread waits on the pipe from the parent that only the parent's death closes
(multiprocessing's parent sentinel), falling back to a look at the parent every half
second."""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import threading
import time

from bot.collector import tune as tune_collector

PR_SET_PDEATHSIG = 1  # prctl(2)
WATCH_EVERY = 0.5  # seconds between looks at the parent where no sentinel is given


def start_worker(parent: int) -> None:
    """A worker's first steps: exit with the bot's process, and collect garbage as the bot
    does (its searches and drawings keep many small objects too)."""
    die_with_parent(parent)
    tune_collector()


def die_with_parent(parent: int) -> None:
    """In a worker, first thing: exit as soon as ``parent`` (the bot's process) is gone."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # it died before we asked
        os._exit(0)
    threading.Thread(target=_watch, args=(parent,), name="tora-lifeline", daemon=True).start()


def _watch(parent: int) -> None:
    sentinel = getattr(multiprocessing.parent_process(), "sentinel", None)
    if sentinel is not None:
        with contextlib.suppress(OSError, ValueError):
            multiprocessing.connection.wait([sentinel])  # returns once the pipe closes
    while os.getppid() == parent:  # (or if it ever returned early: look until it is gone)
        time.sleep(WATCH_EVERY)
    os._exit(0)
