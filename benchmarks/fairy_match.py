"""Our ToriShogi ``hard`` against Fairy-Stockfish (issue 28's measure), through the bot's own
UCI adapter (``bot.service.fairy``), in one process, one game at a time:

    python -m benchmarks.fairy_match ENGINE [--games 30] [--seconds 0.5] [--depth 3] [--clock cpu]

Games come in pairs from the same opening (two random plies, by the seed), ours first in
one and second in the other. Every move of either side is checked by the rules core. It
prints each game, then our score (a win 1, a draw 1/2) with its 95 % interval. Not among
``python -m benchmarks``: it needs the engine (build it from pyffish's source distribution,
see docs/AI.md)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random

import ai
from ai.engines import engine_of
from ai.match import cpu_clock
from bot.service.fairy import FairyStockfish, Limit, engine_turn
from rules import GameState, Side
from rules.torishogi import ToriShogiGame

from .ai_bench import wilson

OPENING_PLIES = 2
ENGINE_SECONDS = 30.0  # the most a ``go depth`` may take before the adapter gives up


def opening(seed: int) -> ToriShogiGame:
    rng = random.Random(seed)
    game = ToriShogiGame()
    for _ in range(OPENING_PLIES):
        game.apply(game.notation(rng.choice(game.legal_moves())))
        game.end_turn()
    return game


async def play(
    engine: FairyStockfish, game: GameState, ours: Side, args: argparse.Namespace
) -> float:
    """Our score in one game (1, 1/2, 0), played from ``game`` to its end or its turn limit."""
    limit = Limit(ENGINE_SECONDS, depth=args.depth)
    for turn in range(engine_of(game.game_type).turn_limit(game)):
        if game.is_over():
            break
        if game.side == ours:
            texts = ai.decide(game, "hard", args.seconds, turn)
        else:
            answer = await engine_turn(engine, game, limit)
            if answer is None:
                raise RuntimeError(f"Fairy-Stockfish gave no legal move at {game.fen()}")
            texts = answer
        for text in texts:
            game.apply(text)
        game.end_turn()
    outcome = game.outcome()
    if outcome is None or outcome.winner is None:
        return 0.5
    return 1.0 if outcome.winner == ours else 0.0


def interval(scores: list[float]) -> tuple[float, float, float]:
    """The mean score and its 95 % interval (Wilson's, as docs/AI.md's tables give it: a
    draw counts half a win), which stays honest at a score of 0 or 1."""
    low, high = wilson(sum(scores), len(scores))
    return sum(scores) / len(scores), low, high


async def main(args: argparse.Namespace) -> None:
    engine = FairyStockfish([args.engine])
    scores: list[float] = []
    try:
        for number in range(args.games):
            ours = Side.CHALLENGER if number % 2 == 0 else Side.OPPOSITION
            game = opening(args.seed * 1000 + number // 2)
            score = await play(engine, game, ours, args)
            scores.append(score)
            seat = "first" if ours == Side.CHALLENGER else "second"
            print(f"game {number + 1}: hard {seat}: {score} ({game.outcome() or 'turn limit'})")
            mean, low, high = interval(scores)
            print(
                f"  hard so far {mean:.2f} [{low:.2f}, {high:.2f}] over {len(scores)}", flush=True
            )
    finally:
        await engine.close()


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("engine", help="the Fairy-Stockfish binary")
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=0.5, help="our hard's time a move")
    parser.add_argument("--depth", type=int, default=3, help="Fairy-Stockfish's go depth")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="what our budget counts: wall-clock seconds, or this process's CPU seconds",
    )
    return parser.parse_args(argv)


if __name__ == "__main__":
    arguments = parse()
    with cpu_clock() if arguments.clock == "cpu" else contextlib.nullcontext():
        asyncio.run(main(arguments))
