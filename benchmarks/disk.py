"""The disk's own speed, measured in the same run as the figures that depend on it: a
commit that must be durable waits for at least one fsync, so a latency is read beside it."""

from __future__ import annotations

import os
import statistics
import time
from pathlib import Path

from .common import Figure

BLOCK = b"\0" * 4096


def fsync_ms(directory: Path, repeat: int = 20) -> float:
    """The median time of writing one 4 KiB block to a file in ``directory`` and fsyncing it."""
    path = directory / "fsync-probe"
    times = []
    with open(path, "wb") as probe:
        for _ in range(repeat):
            start = time.perf_counter()
            probe.write(BLOCK)
            probe.flush()
            os.fsync(probe.fileno())
            times.append((time.perf_counter() - start) * 1000)
    path.unlink()
    return statistics.median(times)


def fsync_figure(directory: Path) -> Figure:
    return Figure("disk: one fsync in this run (p50)", fsync_ms(directory), "ms")
