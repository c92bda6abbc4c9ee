"""Several processes on one PostgreSQL database: the service benchmark's load
(``service_bench``: 50 short-board channels, random legal actions and turn ends, real images
and outbox) spread over 1, 2 and 3 processes, each a match service with its own share of the
channels, as a shard's, all on one database. For each: p50 and p99 of every request at 25/s
in all, and the highest total rate whose p99 stays within 100 ms (every process at its share
of the rate; the processes start each step together).

On the 2-core VM the processes, their image workers and the PostgreSQL server share two
cores: more processes add no CPU here, so the figures show what sharing the database costs
rather than what more machines would give. The latencies follow the machine's load; two
figures of the main run follow it little and are the ones to compare commits by: the
statements sent to the server a request (each a round trip, and on a loaded machine a
wake-up of a server process), and the CPU a request costs the bot's processes (their image
workers left out).

Against the machine's own server (trust authentication, database ``test``)::

    TORA_BENCH_POSTGRES=postgresql://postgres@127.0.0.1:5432/test python -m benchmarks cluster
"""

from __future__ import annotations

import asyncio
import multiprocessing
import queue as queues
import time
from collections.abc import Iterator
from multiprocessing.synchronize import Barrier
from typing import Any

from storage import Config
from storage.tools.statements import Statements

from . import service_bench
from .common import Figure, median, postgres_schema

PROCESSES = (1, 2, 3)
SECONDS = 10.0
STEP_SECONDS = 5.0
RATES = service_bench.SEARCH_RATES
P99_TARGET = 60.0  # ms, at 25/s in all, with any number of processes (issue 26)
RATE_TARGET = {3: 100.0}  # actions/s sustained with p99 <= 100 ms, by processes


def _child(config: Config, index: int, count: int, barrier: Barrier, stop: Any, out: Any) -> None:
    Statements.count()
    asyncio.run(_serve(config, index, count, barrier, stop, out))


async def _serve(
    config: Config, index: int, count: int, barrier: Barrier, stop: Any, out: Any
) -> None:
    """One process: its channels set up, then the main run and each step of the rate search,
    started together with the others (``barrier``) until the parent says ``stop``."""
    renderer, _label = service_bench._renderer()
    share = service_bench.CHANNELS // count
    boards = ["short"] * share
    first = 1000 + index * share
    service, store, tables = await service_bench._service(
        config, renderer, boards, first, shared=True
    )
    try:
        await asyncio.to_thread(barrier.wait)
        rate = service_bench.RATE / count
        await service_bench._load(service, tables, rate, 2.0, seed=index)  # warm up
        sent, cpu = Statements.sent, time.process_time()
        samples = await service_bench._load(service, tables, rate, SECONDS, seed=10 + index)
        cpu, sent = time.process_time() - cpu, Statements.sent - sent
        out.put(([s.ms for s in samples], sent, cpu))
        for total in RATES:
            await asyncio.to_thread(barrier.wait)
            if stop.value:
                break
            step = await service_bench._load(
                service, tables, total / count, STEP_SECONDS, seed=total + index
            )
            out.put([s.ms for s in step])
    finally:
        await service.stop()
        await store.close()


def _measure(config: Config, count: int) -> list[Figure]:
    spawn = multiprocessing.get_context("spawn")
    barrier, stop, out = spawn.Barrier(count + 1), spawn.Value("b", 0), spawn.Queue()
    children = [
        spawn.Process(target=_child, args=(config, n, count, barrier, stop, out))
        for n in range(count)
    ]
    for child in children:
        child.start()
    try:
        barrier.wait(timeout=300)  # every process has its matches
        runs = [_get(out) for _ in range(count)]
        main = [ms for samples, _sent, _cpu in runs for ms in samples]
        sent = sum(sent for _samples, sent, _cpu in runs)
        cpu = sum(cpu for _samples, _sent, cpu in runs)
        best = 0.0
        for total in RATES:
            barrier.wait(timeout=300)
            if stop.value:
                break
            if service_bench._p(_gather(out, count), 0.99) > service_bench.LIMIT_MS:
                stop.value = 1
            else:
                best = total
        for child in children:
            child.join(timeout=120)
    finally:
        for child in children:
            if child.is_alive():
                child.kill()
    where = f"{count} process{'es' if count > 1 else ''}, PostgreSQL"
    return [
        Figure(f"service p50 ({where}, {service_bench.RATE:g}/s in all)", median(main), "ms"),
        Figure(f"service p99 ({where})", service_bench._p(main, 0.99), "ms", P99_TARGET),
        Figure("  round trips to the server a request (statements sent)", sent / len(main), ""),
        Figure("  CPU a request, bot processes (images apart)", cpu * 1000 / len(main), "ms"),
        Figure(
            f"highest sustained rate, p99 <= {service_bench.LIMIT_MS:g} ms ({where})",
            best,
            "/s",
            RATE_TARGET.get(count),
            higher_is_better=True,
        ),
    ]


def _gather(out: Any, count: int) -> list[float]:
    """Every process's samples of one run."""
    merged: list[float] = []
    for _ in range(count):
        merged += _get(out)
    return merged


def _get(out: Any) -> Any:
    """What one process sent back of one run."""
    try:
        return out.get(timeout=300)
    except queues.Empty:
        raise RuntimeError("a benchmark process sent nothing back") from None


def run() -> Iterator[Figure]:
    for count in PROCESSES:
        with postgres_schema(f"cluster{count}") as config:
            if config is None:
                return
            yield from _measure(config, count)
