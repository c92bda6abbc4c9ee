"""TORA's engine (``ai.engines``): its evaluation (``evaluation``: points, material, the
believed reach of the enemy's hidden Assassin, ``belief``), the search for that Assassin the
sampling players make a turn of its own (``search``), and the long board's longer turns
(its turn ends cost the rules seconds: R30, R25)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules import GameType
from rules.tora import LONG, TORA, Game

from ..engines import SHORT_TURN, Answers, Engine, register
from .evaluation import balance, evaluate
from .search import worth_searching
from .tactics import exposed, tactical_turns

LONG_TURN = 8.0  # seconds of a hosted AI turn on the long board
# A hint's fixed work: the candidate turns judged (a long-board turn end costs seconds).
HINT_WORK = {"short": 10, "long": 2}


def _long(game: Game) -> bool:
    return game.options.board == LONG


def _answers(kind: GameType, options: Mapping[str, Any], rng: object) -> Answers:
    """A measuring match's setup: both players aggressive, Ruler K."""
    setup = {"strategy": "aggressive", "ruler": "K"}
    return setup, dict(setup)


def _hint_work(game: Game) -> int:
    return HINT_WORK[game.options.board]


def _tactics(game: Game) -> list[list[str]]:
    """The short board's tactical turns. The long board has none: its turn ends cost the
    rules up to seconds, and the tactics end turns outside the sampling's clock."""
    return [] if _long(game) else tactical_turns(game)


register(
    Engine[Game](
        TORA.id,
        evaluate,
        balance,
        forced=worth_searching,
        turn_seconds=lambda game: LONG_TURN if _long(game) else SHORT_TURN,
        hint_work=_hint_work,
        turn_limit=lambda game: 300 if _long(game) else 200,
        answers=_answers,
        tactics=_tactics,
        exposed=exposed,
    )
)
