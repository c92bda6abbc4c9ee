"""``python -m ai match GAME A B --games N --seed S [--seconds T] [--clock cpu]``: seeded
games between two players (a baseline, ``random`` or ``greedy``, or a strength, ``easy``,
``normal``, ``hard``, ``master``), each the first player in half of them; the last line is
``A <wins> B <wins> draws <n>``. ``--clock cpu`` counts the budgets in the process's CPU
seconds (the same work on a loaded machine)."""

from __future__ import annotations

import argparse
import contextlib
import sys

from .match import cpu_clock, match_games, play_match
from .players import BASELINES, LEVELS


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ai", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    match = sub.add_parser("match", help="play seeded games between two players")
    match.add_argument("game", choices=list(match_games()))
    match.add_argument("a", choices=BASELINES + LEVELS)
    match.add_argument("b", choices=BASELINES + LEVELS)
    match.add_argument("--games", type=int, default=10)
    match.add_argument("--seed", type=int, default=1)
    match.add_argument(
        "--seconds",
        type=float,
        help="time per turn (default the hosted AI's: 2 s, 8 s on TORA's long board)",
    )
    match.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="what the budgets count: wall-clock seconds, or this process's CPU seconds "
        "(the same work on a loaded machine as on a quiet one)",
    )
    args = parser.parse_args(argv)
    if args.games < 1 or (args.seconds is not None and args.seconds <= 0):
        print("--games is 1 or more, --seconds more than 0", file=sys.stderr)
        return 2
    clock = cpu_clock() if args.clock == "cpu" else contextlib.nullcontext()
    with clock:
        tally = play_match(
            args.game, args.a, args.b, args.games, args.seed, args.seconds, report=print
        )
    slow = tally.slowest
    print(f"slowest turn: A {slow.get('A', 0):.2f} s, B {slow.get('B', 0):.2f} s")
    print(tally.line())
    return 0


if __name__ == "__main__":
    sys.exit(main())
