"""Rules core figures."""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import os
import pickle
import random
import time
from concurrent.futures import ProcessPoolExecutor
from functools import partial

from bot import collector
from bot.lifeline import die_with_parent, start_worker
from rules.tora import Game, IllegalAction, jeopardy, trapped

from .common import Figure, median, middle_game, p95, play_random_turn, samples


def apply_one(board: str, games: list[Game]) -> Figure:
    """Parse, validate and apply one action (median over many positions and actions)."""
    times: list[float] = []
    for game in games:
        rng = random.Random(1)
        texts = [game.notation(a) for a in game.legal_actions()]
        for text in rng.sample(texts, min(20, len(texts))):
            trial = game.copy()
            times += samples(partial(trial.apply, text), 1)
    target = 0.2 if board == "short" else 0.5
    return Figure(f"apply + validate one action, {board} board (p50)", median(times), "ms", target)


def legal_long(games: list[Game]) -> Figure:
    """Each position once, along two random turns of each game: the rules keep each piece's
    actions by what they read, so asking the same position again would time only that."""
    times: list[float] = []
    for game in games:
        trial = game.copy()
        rng = random.Random(3)
        for _ in range(2):
            if trial.is_over():
                break
            for _ in range(trial.actions_left):
                times += samples(trial.legal_actions, 1)
                trial.apply(rng.choice(trial.legal_actions()))
            play_random_turn(trial, rng)  # ends it (undoing what R30 refuses)
    return Figure("all legal actions, long middle game (p50)", median(times), "ms", 10)


def jeopardy_long(games: list[Game]) -> list[Figure]:
    """The end-of-turn check: R30 on the pieces the turn moved, and R25 at the next start.

    Each turn end is timed here, in the benchmark's process with Python's default garbage
    collector, and then again in two worker processes as the bot runs it (``in_workers``):
    a full collection of the default collector walks every object the process keeps and
    lands in a few samples, which the bot's workers (``bot.collector``) seldom pay."""
    checks: list[float] = []
    ends: list[float] = []
    kept: list[bytes] = []  # each turn before its end, as the bot sends it to a worker
    undecided = 0  # R25 undecided within its budget: the game went on (trapped.verdict)
    for game in games:
        rng = random.Random(2)
        for _ in range(4):
            if game.is_over():
                break
            for _ in range(game.actions_left):
                game.apply(rng.choice(game.legal_actions()))
            after = jeopardy.next_turn(game.pos)
            for piece in game.pos.commanders(game.side):
                checks += samples(partial(jeopardy.in_jeopardy, after, piece.sq), 1)
            trial = game.copy()
            kept.append(pickle.dumps(trial, pickle.HIGHEST_PROTOCOL))
            ends += samples(partial(_end, trial), 1)
            if (
                not trial.is_over()
                and trial.side != game.side
                and trapped.verdict(trial.pos) is None
            ):
                undecided += 1
            play_random_turn(game, rng)
    n = len(ends)
    return [
        Figure("jeopardy check of one command piece, long (p95)", p95(checks), "ms", 10),
        Figure("whole end of turn incl. R30, R25, long, default GC (p50)", median(ends), "ms"),
        Figure("whole end of turn incl. R30, R25, long, default GC (p99)", _p99(ends), "ms", 100),
        *in_workers(kept),
        Figure(f"  its ends where R25 ran out of budget, of {n}", undecided, "", 0),
    ]


def in_workers(kept: list[bytes]) -> list[Figure]:
    """The same turn ends in a process like the bot's turn-end worker (``bot.service.offload``:
    spawned, started by ``bot.lifeline.start_worker``, so with ``bot.collector``'s settings,
    the game unpickled there), beside one with Python's default collector; the two take the
    turns in turn (default, bot's, default...). Wall time and the worker's CPU time."""
    context = multiprocessing.get_context("spawn")
    parent = os.getpid()
    pools = {
        tuned: ProcessPoolExecutor(
            1, mp_context=context, initializer=_start, initargs=(parent, tuned)
        )
        for tuned in (False, True)
    }
    times: dict[bool, list[tuple[float, float]]] = {False: [], True: []}
    try:
        for pool in pools.values():
            pool.submit(_warm_up).result()
        for data in kept:
            for tuned, pool in pools.items():
                times[tuned].append(pool.submit(_timed_end, data).result())
    finally:
        for pool in pools.values():
            pool.shutdown()
    out = []
    for tuned, label in ((False, "default GC"), (True, "the bot's GC")):
        wall = [w for w, _cpu in times[tuned]]
        cpu = [c for _w, c in times[tuned]]
        target = 100 if tuned else None
        out += [
            Figure(f"  in a turn-end worker, {label} (p50)", median(wall), "ms"),
            Figure(f"  in a turn-end worker, {label} (p99)", _p99(wall), "ms", target),
            Figure(f"  in a turn-end worker, {label}, CPU (p99)", _p99(cpu), "ms", target),
        ]
    return out


def _start(parent: int, tuned: bool) -> None:
    """A worker's start: the bot's own (``start_worker``), or the same with Python's
    default collector."""
    if tuned:
        start_worker(parent)
    else:
        die_with_parent(parent)


def _warm_up() -> None:
    """Import and fill the tables the rules build once, as a worker that served before."""
    game = Game(board="long")
    play_random_turn(game, random.Random(0))


def _timed_end(data: bytes) -> tuple[float, float]:
    """In a worker: the wall and CPU milliseconds of ending the pickled game's turn."""
    game = pickle.loads(data)
    wall, cpu = time.perf_counter(), time.process_time()
    _end(game)
    return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000


def _p99(values: list[float]) -> float:
    return sorted(values)[min(len(values) - 1, int(0.99 * len(values)))]


def _end(game: Game) -> None:
    with contextlib.suppress(IllegalAction):  # a refused R30 end is still a full check
        game.end_turn()


def r25_random_long() -> list[Figure]:
    """R25 at the start of every turn of random long games (not only the middle games'
    few): how long its verdicts take, and how many ran out of budget undecided, which the
    issue wants gone (the game goes on then, and the verdict is not the rules' answer)."""
    times: list[float] = []
    undecided = 0
    for seed in range(3):
        rng = random.Random(seed)
        game = Game(board="long")
        game.skip_trapped = True  # judged here, once
        while not game.is_over() and game.round <= 10:
            play_random_turn(game, rng)
            start = time.perf_counter()
            found = trapped.verdict(game.pos)
            times.append((time.perf_counter() - start) * 1000)
            undecided += found is None
            if found:
                game.judge_trapped()  # it loses, as the game would have judged
    return [
        Figure("R25 verdict at a turn's start, random long games (p50)", median(times), "ms"),
        Figure("R25 verdict at a turn's start, random long games (p95)", p95(times), "ms"),
        Figure(f"  its verdicts that ran out of budget, of {len(times)}", undecided, "", 0),
    ]


def random_short_game() -> list[Figure]:
    """Twelve random short games, each timed by the clock and by this process's CPU (which
    the load others put on the machine changes little), with Python's default garbage
    collector; then their CPU with the collector's thresholds as the bot's processes set them
    (``bot.collector``: its workers, the AI's among them, play the rules there): the
    default's middle collections walk every kept action list again, about a sixth of a
    game's CPU."""
    default = [_short_game_cpu(seed) for seed in range(12)]
    times = [wall for wall, _cpu in default]
    before = gc.get_threshold()
    gc.set_threshold(collector.YOUNG, collector.MIDDLE, collector.OLD)
    try:
        tuned = [cpu for _wall, cpu in map(_short_game_cpu, range(12))]
    finally:
        gc.set_threshold(*before)
    return [
        Figure("full random short game, legal actions every step (p50)", median(times), "ms", 100),
        Figure("  the same, CPU (p50)", median([cpu for _wall, cpu in default]), "ms"),
        Figure("  the same, CPU, the bot's GC settings (p50)", median(tuned), "ms"),
    ]


def _short_game_cpu(seed: int) -> tuple[float, float]:
    """The wall and CPU milliseconds of random short game ``seed``."""
    rng = random.Random(seed)
    game = Game(board="short")
    wall, cpu = time.perf_counter(), time.process_time()
    while not game.is_over() and game.round <= 60:
        play_random_turn(game, rng)
    return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000


def chess_reference() -> Figure | None:
    try:
        import chess
    except ImportError:
        return None
    board = chess.Board()
    times = samples(lambda: list(board.legal_moves), 2000)
    return Figure("python-chess legal moves, start position (p50)", median(times), "ms")


def run() -> list[Figure]:
    short = [middle_game("short", seed, 6) for seed in range(6)]
    long = [middle_game("long", seed, 8) for seed in range(4)]
    figures = [apply_one("short", short), apply_one("long", long), legal_long(long)]
    figures += jeopardy_long([g.copy() for g in long])
    figures += random_short_game()
    figures += r25_random_long()
    reference = chess_reference()
    if reference is not None:
        figures.append(reference)
        ratio = figures[2].value / reference.value
        figures.append(Figure("ratio: long legal actions / chess legal moves", ratio, "x"))
    return figures
