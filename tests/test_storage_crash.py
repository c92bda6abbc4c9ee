"""Crash safety: an action acknowledged by the store survives SIGKILL.

A subprocess (tests/storage_workload.py) plays and saves random matches as fast as it can,
printing the number of every log entry once its save has returned. The test kills it with SIGKILL
at random moments, reopens the database, and checks that every acknowledged entry is there
and that every match loads and replays (the same check as ``python -m storage check``).
"""

from __future__ import annotations

import io
import os
import random
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

from storage import Config, Store
from storage.tools.maintenance import check

ROOT = Path(__file__).resolve().parents[1]
KILLS = 4


def run_and_kill(path: Path, seed: int, more: int) -> set[tuple[int, int]]:
    """Start the writer, kill it once it has acknowledged ``more`` actions after its first
    (counted, not timed: a loaded machine writes as much before the kill); the (match id,
    entry number) pairs it acknowledged."""
    errors = path.with_suffix(".stderr")
    with errors.open("w") as stderr:
        writer = subprocess.Popen(
            [sys.executable, str(ROOT / "tests" / "storage_workload.py"), str(path), str(seed)],
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
        )
        assert writer.stdout is not None
        first = writer.stdout.readline()
        seen = [writer.stdout.readline() for _ in range(more)]
        alive = writer.poll() is None
        writer.send_signal(signal.SIGKILL)
        rest = "".join(seen) + writer.stdout.read()  # the same buffered reader: none lost
        writer.wait(timeout=30)
    assert alive and first, f"the writer stopped by itself:\n{errors.read_text()}"
    lines = (first + rest).split("\n")[:-1]  # a line is acknowledged once complete
    return {(int(m), int(a)) for m, a in (line.split() for line in lines)}


async def test_acknowledged_actions_survive_sigkill(tmp_path: Path) -> None:
    path = tmp_path / "tora.sqlite3"
    rng = random.Random()
    seed = rng.randrange(10**6)
    acknowledged: set[tuple[int, int]] = set()
    for kill in range(KILLS):
        more = 0 if kill == 0 else rng.randrange(20, 60)
        acknowledged |= run_and_kill(path, seed + kill, more)
        conn = sqlite3.connect(path)
        stored = set(conn.execute("SELECT match_id, seq FROM actions").fetchall())
        conn.close()
        lost = acknowledged - stored
        assert not lost, f"seed {seed}, kill {kill}: acknowledged but lost: {sorted(lost)[:10]}"
        out, err = io.StringIO(), io.StringIO()
        assert await check(Config(path=path), out, err) == 0, f"seed {seed}: {err.getvalue()}"
    async with await Store.open(Config(path=path)) as store:  # as the bot restarts
        for match_id in {match_id for match_id, _seq in acknowledged}:
            await store.load(match_id)
    assert len(acknowledged) > 50
