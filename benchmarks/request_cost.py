"""Instructions a service request costs the bot's process, counted by callgrind (which a
loaded machine does not change, unlike CPU time): the service bench's requests
(``service_bench._step``: the autocomplete, then a staged action, a turn end or an undo),
one after the other on a few channels, each followed by a short pause for its background
work (the posts; the images are drawn in worker processes, which callgrind does not follow).

    python -m benchmarks.request_cost [--postgres URL] [--warm 60] [--requests 150]

runs the loop twice under ``valgrind --tool=callgrind`` (``PYTHONHASHSEED=0``), once with
the warm-up alone and once with the measured requests after it, and prints the difference
a request; on PostgreSQL also the statements sent a request. ``--run N`` is one run of
``N`` requests without valgrind (what the two runs execute; under py-spy, for a Python-level
view: ``py-spy record --gil -r 250 -f raw -- python -m benchmarks.request_cost --run 400``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from storage import Config, Store
from storage.tools.statements import Statements

from . import service_bench
from .common import postgres_schema

CHANNELS = 10
PAUSE = 0.01  # seconds after each request for its background work
SEED = 7


async def _drained(store: Store) -> None:
    """Wait until nothing is left in the outbox (every post delivered)."""
    while await store.hosting.private_firsts():
        await asyncio.sleep(0.2)
    await asyncio.sleep(0.2)


async def _requests(config: Config, count: int) -> int:
    """``count`` requests over ``CHANNELS`` short-board channels; the statements sent."""
    renderer, _label = service_bench._renderer()
    service, store, tables = await service_bench._service(config, renderer, ["short"] * CHANNELS)
    rng = random.Random(SEED)
    try:
        await _drained(store)
        sent = Statements.sent
        for _ in range(count):
            table = rng.choice(tables)
            async with table.lock:
                await service_bench._step(service, table, random.Random(rng.random()))
            await asyncio.sleep(PAUSE)
        await _drained(store)
        return Statements.sent - sent
    finally:
        await service.stop()
        await store.close()


def _run(count: int, url: str | None) -> None:
    if url is None:
        with tempfile.TemporaryDirectory(prefix="tora-cost-") as tmp:
            asyncio.run(_requests(Config(path=Path(tmp) / "cost.sqlite3"), count))
        return
    os.environ["TORA_BENCH_POSTGRES"] = url
    Statements.count()
    with postgres_schema("cost") as config:
        assert config is not None
        sent = asyncio.run(_requests(config, count))
    print(f"statements sent: {sent}", file=sys.stderr)


def _callgrind(count: int, url: str | None) -> tuple[int, int]:
    """The instructions of one run of ``count`` requests, and its statements sent."""
    with tempfile.TemporaryDirectory(prefix="tora-callgrind-") as tmp:
        out = Path(tmp) / "callgrind.out"
        command = [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={out}",
            sys.executable,
            "-m",
            "benchmarks.request_cost",
            "--run",
            str(count),
            *(["--postgres", url] if url else []),
        ]
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
        totals = re.search(r"^summary: (\d+)", out.read_text(), re.MULTILINE)
        assert totals is not None
        sent = re.search(r"statements sent: (\d+)", done.stderr)
        return int(totals.group(1)), int(sent.group(1)) if sent else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--postgres", help="a PostgreSQL server's URL (else SQLite)")
    parser.add_argument("--warm", type=int, default=60)
    parser.add_argument("--requests", type=int, default=150)
    parser.add_argument("--run", type=int, help="one run of this many requests, no valgrind")
    args = parser.parse_args()
    if args.run is not None:
        _run(args.run, args.postgres)
        return
    warm, warm_sent = _callgrind(args.warm, args.postgres)
    total, sent = _callgrind(args.warm + args.requests, args.postgres)
    each = (total - warm) / args.requests
    print(f"instructions a request: {each / 1e6:.3f} M ({args.requests} after {args.warm})")
    if args.postgres:  # the same requests as the instructions: the warm-up's subtracted
        print(f"statements a request: {(sent - warm_sent) / args.requests:.2f}")


if __name__ == "__main__":
    main()
