"""Strength of the engines, the fast seeded version: 10 games per pair at a tenth of the time
per turn, each side the first player in half of them. Win rates (draws count half) with their
95 % Wilson intervals beside the targets of the full tables (docs/AI.md), which take hours at
the real budgets. The long board is left out here: its games are too long for this run.

    python -m benchmarks.ai_bench
"""

from __future__ import annotations

import math
import sys

from ai.match import SECONDS, play_match

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


def run() -> list[Figure]:
    figures = []
    for game, a, b, target in PAIRS:
        tally = play_match(game, a, b, GAMES, seed=1, seconds=SECONDS[game] * SHARE)
        score = tally.wins.get("A", 0) + tally.draws / 2
        low, high = wilson(score, GAMES)
        label = f"{game}: {a} v {b}, {GAMES} games at 1/10 budget (95% {low:.2f}-{high:.2f})"
        figures.append(Figure(label, score / GAMES, "wins", target, higher_is_better=True))
    return figures


def main() -> int:
    print("AI strength, fast seeded version (10 games per pair, a tenth of the budget)")
    for figure in run():
        print(figure.line(), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
