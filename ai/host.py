"""What a game host asks of the engines: a whole turn for the side to act at a strength
within its time, the time a turn may take, and whether to take a draw.

Every entry takes the game as the acting side may know it (``game.for_player(side)``, which
the host makes before anything leaves its process) and plays on its own copy."""

from __future__ import annotations

import random

from rules import GameState, Side
from rules.tora import LONG, Game

from .evaluation import evaluate
from .players import LEVELS, make_player

SHORT_TURN = 2.0  # seconds a hosted AI turn may take: TORA's short board, ToriShogi, Torii
LONG_TURN = 8.0  # TORA's long board
DRAW_MARGIN = -1.0  # the AI takes a draw when it stands worse than this (its own judgement)


def turn_seconds(game: GameState) -> float:
    """The engines' time for one turn of ``game`` (on one core)."""
    return LONG_TURN if isinstance(game, Game) and game.options.board == LONG else SHORT_TURN


def decide(game: GameState, level: str, seconds: float, seed: int) -> list[str]:
    """The notations of the whole turn ``level`` plays for ``game.side``, within ``seconds``
    (the same seed and game give the same turn, unless the clock cut a search short).
    ``random`` is the host's fallback after a turn of the engine's was refused."""
    if level not in (*LEVELS, "random"):
        raise ValueError(f"an AI strength is one of {', '.join(LEVELS)}, not {level!r}")
    player = make_player(level, game)
    return player.turn(game.for_player(game.side), random.Random(seed), seconds)


def takes_draw(game: GameState, side: Side) -> bool:
    """Whether ``side``'s AI accepts a draw offered now: only when it stands worse, by its
    own evaluation of what it may know."""
    return evaluate(game.for_player(side), side) < DRAW_MARGIN
