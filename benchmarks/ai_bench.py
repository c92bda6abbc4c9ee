"""Strength of the engines, the fast seeded version: 10 games per pair at a tenth of the time
per turn, each side the first player in half of them. Win rates (draws count half) with their
95 % Wilson intervals beside the targets of the full tables (docs/AI.md), which take hours at
the real budgets (the long board is left out: its games are long). Each strength's slowest
turn at its real budget (+10 % allowed), ToriShogi's search speed (nodes a second, from the
start and from middle games), and the hosted AI's reply: the time from a player's
end of turn to the AI's turn saved, at the real budget, searched in its worker process,
alone and while another player floods the AI (``ai_flood_bench``).

    python -m benchmarks.ai_bench
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from ai import LEVELS, make_player
from ai.evaluation import evaluate
from ai.match import match_games, new_game, play_match, turn_budget
from ai.torishogi.search import think
from ai.turns import playable
from bot.service import MatchService, Place, Settings, Terms, User
from bot.service.testing import Harness
from rules import ActionError
from rules.torishogi import ToriShogiGame

from . import ai_flood_bench
from .common import Figure

GAMES = 10
SHARE = 0.1  # of the time per turn
# (game, player A, player B, target win rate of A)
PAIRS = (
    ("tora-short", "hard", "greedy", 0.75),
    ("tora-short", "normal", "easy", 0.70),
    ("tora-short", "easy", "random", 0.90),
    ("torishogi", "hard", "greedy", 0.90),
    ("torii", "hard", "greedy", 0.75),
)


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % interval of a win rate."""
    rate, spread = wins / games, 1 + z * z / games
    centre = (rate + z * z / (2 * games)) / spread
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / spread
    return max(0.0, centre - half), min(1.0, centre + half)


OVERRUN = 1.10  # the most of its budget a turn may take


def run() -> list[Figure]:
    figures = []
    for game, a, b, target in PAIRS:
        tally = play_match(game, a, b, GAMES, seed=1, seconds=turn_budget(game) * SHARE)
        score = tally.wins.get("A", 0) + tally.draws / 2
        low, high = wilson(score, GAMES)
        label = f"{game}: {a} v {b}, {GAMES} games at 1/10 budget (95% {low:.2f}-{high:.2f})"
        figures.append(Figure(label, score / GAMES, "wins", target, higher_is_better=True))
    figures += budget_figures()
    figures.append(search_rate())
    figures.append(exhaustive_cost())
    figures.append(asyncio.run(hosted_reply()))
    figures += ai_flood_bench.run()
    return figures


BUDGET_TURNS = 3  # turns each strength plays at its real budget, from a middle game


def budget_figures() -> list[Figure]:
    """Each strength's slowest turn at the real budget (2 s; 8 s on the long board), from a
    middle game 8 random turns in, the opponent playing random turns between."""
    figures = []
    for game in match_games():
        levels = ("easy", "hard") if game == "tora-long" else LEVELS
        for level in levels:
            rng = random.Random(7)
            state = new_game(game, rng)
            mover = make_player("random", state)
            slowest = 0.0
            for turn in range(8 + 2 * BUDGET_TURNS):
                if state.is_over():
                    break
                player = make_player(level, state) if turn >= 8 and turn % 2 == 0 else mover
                start = time.perf_counter()
                texts = player.turn(state.copy(), rng, turn_budget(game, level))
                if player is not mover:
                    slowest = max(slowest, time.perf_counter() - start)
                for text in texts:
                    state.apply(text)
                state.end_turn()
            budget = turn_budget(game, level)
            name = f"{game}: {level}'s slowest turn / its budget ({budget:g} s)"
            figures.append(Figure(name, slowest / budget, "x", OVERRUN))
    return figures


RATE_SECONDS = 2.0  # of search from each position of ``search_rate``


def search_rate() -> Figure:
    """ToriShogi's search, nodes a second (every node and quiescence node counted), from
    the start and from middle games 20, 40 and 60 random moves in."""
    nodes, spent, depths = 0, 0.0, []
    for game in rate_positions():
        found = think(game.pos.copy(), game.history, RATE_SECONDS, random.Random(1))
        nodes, spent = nodes + found.nodes, spent + found.seconds
        depths.append(found.depth)
    depth = "/".join(map(str, depths))
    name = f"ToriShogi search, nodes a second ({RATE_SECONDS:g} s from 4 positions, depth {depth})"
    return Figure(name, nodes / spent, "nodes/s", None, higher_is_better=True)


def rate_positions() -> list[ToriShogiGame]:
    """The positions the node rates are read from: the start, then 20, 40 and 60 random
    moves in (each by its own seed)."""
    found = []
    for plies in (0, 20, 40, 60):
        game = ToriShogiGame()
        rng = random.Random(plies + 7)
        for _ in range(plies):
            if game.is_over():
                break
            game.apply(rng.choice(game.legal_actions()))
            game.end_turn()
        found.append(game)
    return found


def exhaustive_cost() -> Figure:
    """Why TORA's engines sample turns: the time to judge every whole 2-action turn of a
    short-board middle game one ply deep (played, ended, evaluated), against a 2 s budget."""
    rng = random.Random(4)
    game = new_game("tora-short", rng)
    mover = make_player("random", game)
    for _ in range(10):
        for text in mover.turn(game.copy(), rng, 1.0):
            game.apply(text)
        game.end_turn()
    side, turns = game.side, 0
    start = time.perf_counter()
    for first in playable(game.legal_actions()):
        once = game.copy()
        once.apply(first)
        for second in playable(once.legal_actions()):
            twice = once.copy()
            twice.apply(second)
            with contextlib.suppress(ActionError):
                twice.end_turn()
                evaluate(twice, side)
                turns += 1
    spent = time.perf_counter() - start
    name = f"short board: every whole turn judged one ply ({turns} turns)"
    return Figure(name, spent, "s", None)


TURNS = 6


async def hosted_reply() -> Figure:
    """A practice ToriShogi match against the hard AI at its real budget (2 s a turn), its
    search in a worker process: the slowest time from the player's end of turn to the
    AI's turn saved (the AI's search, the rules, storage; the post follows at once)."""
    settings = Settings(burst=1000, every=0.001, ai_processes=1)
    here, ann = Place(1, 100), User(1, "ann")
    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as folder:
        harness = Harness(Path(folder) / "bench.sqlite3", settings=settings)
        service = await harness.open()
        try:
            waits = await _replies(harness, service, here, ann, rng)
        finally:
            await harness.close()
    worst = max(waits[1:] or waits)  # the first turn also starts the worker process
    median = statistics.median(waits)
    name = f"hosted AI reply, ToriShogi hard (slowest of {len(waits)}, median {median:.2f} s)"
    return Figure(name, worst, "s", turn_budget("torishogi") * OVERRUN + 0.5)


async def _replies(
    harness: Harness, service: MatchService, here: Place, ann: User, rng: random.Random
) -> list[float]:
    """Seconds from each of Ann's ends of turn to the AI's turn saved."""
    await service.challenge_ai(here, ann, "hard", Terms(game="torishogi", rated=False))
    await harness.settle()
    waits = []
    for _ in range(TURNS):
        choices = await service.choices(here, ann, "", limit=25)
        if not choices:
            break
        await service.play(here, ann, rng.choice(choices)[1])
        start = time.perf_counter()
        await service.end_turn(here, ann)
        await service.robots_idle()
        waits.append(time.perf_counter() - start)
        if (await service.matches_of(ann.id)) == []:
            break
    return waits


def main() -> int:
    print("AI strength, fast seeded version (10 games per pair, a tenth of the budget)")
    for figure in run():
        print(figure.line(), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
