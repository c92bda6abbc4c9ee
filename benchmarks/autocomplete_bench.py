"""The players' autocomplete, alone: the CPU of a state's first answer (its legal actions
and their words worked out, then a typed letter looked up) and of each keystroke after it,
as a match is played one action at a time (``python -m benchmarks autocomplete``).

CPU time, not wall clock: the machine is shared and the figure is one thread's work."""

from __future__ import annotations

import contextlib
import random
import sys
import time
from collections.abc import Iterator
from typing import Any

from bot.service import finding
from rules import ActionError, GameState, game_type

from .common import Figure

STARTS: dict[str, tuple[str, dict[str, Any], tuple[dict[str, Any], dict[str, Any]]]] = {
    "TORA short": (
        "tora",
        {"board": "short"},
        ({"strategy": "aggressive"}, {"strategy": "defensive"}),
    ),
    "TORA long, Assassins": (
        "tora",
        {"board": "long", "assassins": True},
        (
            {"strategy": "aggressive", "ruler": "K", "assassin": "v3h17"},
            {"strategy": "defensive", "ruler": "Q", "assassin": "v15h1"},
        ),
    ),
    "ToriShogi": ("torishogi", {}, ({}, {})),
    "Torii": ("torii", {"powers": True}, ({"spirit": "Crane"}, {"spirit": "Monkey"})),
}
MATCHES = 4
STATES = 80  # a match's states measured, one action (or a turn's end) apart
TYPED = ("", "s", "g", "v5", "a v5h", "x", "e2", "k")


def _next(game: GameState, rng: random.Random) -> bool:
    """One random action, or the turn's end (its refused last actions taken back first);
    False once neither is possible."""
    legal = game.legal_actions()
    if game.actions_left and legal and rng.random() < 0.8:
        with contextlib.suppress(ActionError):  # e.g. a search refused (R43)
            game.apply(rng.choice(legal))
        return True
    while True:
        try:
            game.end_turn()
            return True
        except ActionError:
            if not game.staged():
                return False
            game.undo()


def measure(start: str) -> tuple[float, float]:
    """Milliseconds of CPU: a state's first answer, a keystroke after it."""
    game_id, options, answers = STARTS[start]
    first = keys = 0.0
    states = strokes = 0
    for seed in range(MATCHES):
        game = game_type(game_id).new_game(options, answers)
        rng = random.Random(seed)
        for _ in range(STATES):
            if game.is_over():
                break
            began = time.process_time()
            entries = finding.entries(game)
            finding.best(rng.choice(TYPED), entries, 25)
            first += time.process_time() - began
            began = time.process_time()
            for typed in TYPED:
                [finding.shown(entry) for entry in finding.best(typed, entries, 25)]
            keys += time.process_time() - began
            states, strokes = states + 1, strokes + len(TYPED)
            if not _next(game, rng):
                break
    return first * 1000 / max(states, 1), keys * 1000 / max(strokes, 1)


def run() -> Iterator[Figure]:
    for start in STARTS:
        first, key = measure(start)
        yield Figure(f"autocomplete CPU, {start}: a state's first answer", first, "ms")
        yield Figure(f"autocomplete CPU, {start}: a keystroke after it", key, "ms")


if __name__ == "__main__":
    for figure in run():
        print(figure.line())
    sys.exit(0)
