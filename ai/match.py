"""Seeded matches between two players, each the first player in half of the games, every
turn checked by the rules core (an engine's illegal action would raise, never pass)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from rules import GameState, Side, game_type

from .players import make_player

# The games ``python -m ai match`` plays: TORA on each board (both players aggressive),
# ToriShogi, Torii with powers and Spirits drawn by the seed.
GAMES = ("tora-short", "tora-long", "torishogi", "torii")
SECONDS = {"tora-short": 2.0, "tora-long": 8.0, "torishogi": 2.0, "torii": 2.0}
MAX_TURNS = {"tora-short": 200, "tora-long": 300, "torishogi": 300, "torii": 200}
SPIRITS = ("Deer", "Kitsune", "Crane", "Monkey", "Tatsu", "Boar")


def new_game(name: str, rng: random.Random) -> GameState:
    if name.startswith("tora-"):
        setup = {"strategy": "aggressive", "ruler": "K"}
        return game_type("tora").new_game({"board": name[5:]}, (setup, dict(setup)))
    if name == "torishogi":
        return game_type("torishogi").new_game({}, ({}, {}))
    if name == "torii":
        first, second = rng.choice(SPIRITS), rng.choice(SPIRITS)
        return game_type("torii").new_game({}, ({"spirit": first}, {"spirit": second}))
    raise ValueError(f"the game is one of {', '.join(GAMES)}, not {name!r}")


@dataclass
class Tally:
    wins: dict[str, int] = field(default_factory=dict)
    draws: int = 0
    slowest: dict[str, float] = field(default_factory=dict)  # seconds of a player's turn

    def line(self) -> str:
        return f"A {self.wins.get('A', 0)} B {self.wins.get('B', 0)} draws {self.draws}"


def play_match(
    name: str,
    a: str,
    b: str,
    games: int,
    seed: int,
    seconds: float | None = None,
    report: Callable[[str], None] = lambda _line: None,
) -> Tally:
    """Play ``games`` games of ``a`` against ``b`` (A first in the even ones)."""
    budget = SECONDS[name] if seconds is None else seconds
    tally = Tally()
    for number in range(games):
        rng = random.Random(seed * 1000 + number)
        game = new_game(name, rng)
        first, second = ("A", a), ("B", b)
        if number % 2:
            first, second = second, first
        seats = {Side.CHALLENGER: first, Side.OPPOSITION: second}
        players = {side: make_player(who, game) for side, (_label, who) in seats.items()}
        winner = _play(game, players, rng, budget, MAX_TURNS[name], seats, tally)
        if winner is None:
            tally.draws += 1
        else:
            tally.wins[winner] = tally.wins.get(winner, 0) + 1
        ended = game.outcome() or "turn limit, a draw"
        report(f"game {number + 1}: {first[1]} (C) v {second[1]} (O): {ended}")
    return tally


def _play(game, players, rng, budget, max_turns, seats, tally) -> str | None:
    for _ in range(max_turns):
        if game.is_over():
            break
        side = game.side
        label = seats[side][0]
        start = time.monotonic()
        texts = players[side].turn(game.copy(), rng, budget)
        spent = time.monotonic() - start
        tally.slowest[label] = max(tally.slowest.get(label, 0.0), spent)
        for text in texts:
            game.apply(text)
        game.end_turn()
    outcome = game.outcome()
    if outcome is None or outcome.winner is None:
        return None
    return seats[outcome.winner][0]
