"""Seeded matches between two players, each the first player in half of the games, every
turn checked by the rules core (an engine's illegal action would raise, never pass)."""

from __future__ import annotations

import contextlib
import importlib
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from types import ModuleType

from rules import GameState, Side
from rules.protocol import GameType, Ladder
from rules.registry import GAMES

from .engines import engine_of
from .host import plays_alone, turn_seconds
from .players import Player, make_player

# The modules whose ``time.monotonic`` bounds an engine's turn (``cpu_clock`` replaces it).
TIMED = ("ai.players", "ai.turns", "ai.search", "ai.pvs")


class _CpuTime(ModuleType):
    """Stands in for ``time`` in the engines: ``monotonic`` is this process's CPU time."""

    def __init__(self) -> None:
        super().__init__("time")

    def monotonic(self) -> float:
        return time.process_time()


@contextlib.contextmanager
def cpu_clock() -> Iterator[None]:
    """The engines' budgets counted in this process's CPU seconds, not wall-clock ones: on a
    machine loaded by other processes each engine still gets the work its budget gives it on
    a quiet one, so a measuring match does not favour whichever side the load spared."""
    modules = [importlib.import_module(name) for name in TIMED]
    kept = [module.time for module in modules]
    try:
        for module in modules:
            module.time = _CpuTime()  # type: ignore[attr-defined]
        yield
    finally:
        for module, original in zip(modules, kept, strict=True):
            module.time = original  # type: ignore[attr-defined]


def match_games() -> dict[str, tuple[GameType, Ladder]]:
    """The games ``python -m ai match`` plays, by name: each ladder of every game of the
    registry, played with its options (a game of several ladders by ``game-ladder``:
    TORA's ``tora-short`` and ``tora-long``; else by the game's id)."""
    return {
        f"{kind.id}-{ladder.id}" if len(kind.ladders) > 1 else kind.id: (kind, ladder)
        for kind in GAMES.values()
        for ladder in kind.ladders
    }


def new_game(name: str, rng: random.Random) -> GameState:
    """A game of ``name`` (``match_games``), its setup answers as its engine draws them (TORA:
    both players aggressive; Torii: the Spirits drawn by the seed)."""
    found = match_games().get(name)
    if found is None:
        raise ValueError(f"the game is one of {', '.join(match_games())}, not {name!r}")
    kind, ladder = found
    options = kind.check_options(ladder.options)
    return kind.new_game(options, engine_of(kind.id).answers(kind, options, rng))


def turn_budget(name: str, level: str = "hard") -> float:
    """A turn's time in a match of ``name`` for ``level``: the hosted AI's (2 s, TORA's long
    board 8 s; ``master`` three times that)."""
    return turn_seconds(new_game(name, random.Random(0)), level)


@dataclass
class Tally:
    wins: dict[str, int] = field(default_factory=dict)
    draws: int = 0
    slowest: dict[str, float] = field(default_factory=dict)  # seconds of a player's search

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
    """Play ``games`` games of ``a`` against ``b`` (A first in the even ones); each player
    has its level's turn budget, or ``seconds`` both."""
    budgets = {who: turn_budget(name, who) if seconds is None else seconds for who in (a, b)}
    tally = Tally()
    for number in range(games):
        rng = random.Random(seed * 1000 + number)
        game = new_game(name, rng)
        first, second = ("A", a), ("B", b)
        if number % 2:
            first, second = second, first
        seats = {Side.CHALLENGER: first, Side.OPPOSITION: second}
        players = {side: make_player(who, game) for side, (_label, who) in seats.items()}
        limit = engine_of(game.game_type).turn_limit(game)
        times = {side: budgets[who] for side, (_label, who) in seats.items()}
        winner = _play(game, players, rng, times, limit, seats, tally)
        if winner is None:
            tally.draws += 1
        else:
            tally.wins[winner] = tally.wins.get(winner, 0) + 1
        ended = game.outcome() or "turn limit, a draw"
        report(f"game {number + 1}: {first[1]} (C) v {second[1]} (O): {ended}")
    return tally


def _play(
    game: GameState,
    players: dict[Side, Player],
    rng: random.Random,
    budgets: dict[Side, float],
    max_turns: int,
    seats: dict[Side, tuple[str, str]],
    tally: Tally,
) -> str | None:
    for _ in range(max_turns):
        if game.is_over():
            break
        side = game.side
        label = seats[side][0]
        while True:  # as the host plays: an action played alone, then the rest of the turn
            start = time.monotonic()
            texts = players[side].turn(game.copy(), rng, budgets[side])
            spent = time.monotonic() - start
            tally.slowest[label] = max(tally.slowest.get(label, 0.0), spent)
            alone = plays_alone(game, texts)
            for text in texts:
                game.apply(text)
            if not alone:
                break
        game.end_turn()
    outcome = game.outcome()
    if outcome is None or outcome.winner is None:
        return None
    return seats[outcome.winner][0]
