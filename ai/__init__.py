"""Engines that play every hosted game through the game seam: pure, no I/O, above the rules
core and below nothing else of ours. ``make_player(name, game)`` gives a baseline (``random``,
``greedy``) or a strength (``easy``, ``normal``, ``hard``, ``master``); ``python -m ai match``
measures them against each other (docs/AI.md); ``decide``, ``turn_seconds``, ``takes_draw`` and
``offers_draw`` are what a game host asks of them (``plays_alone``: whether a turn it was
given is an action to play before asking for the rest), ``hint`` the turn it suggests and
``judge`` how good a position is for a side."""

from .host import decide, hint, judge, offers_draw, plays_alone, takes_draw, turn_seconds
from .players import BASELINES, LEVELS, Player, make_player

__all__ = [
    "BASELINES",
    "LEVELS",
    "Player",
    "decide",
    "hint",
    "judge",
    "make_player",
    "offers_draw",
    "plays_alone",
    "takes_draw",
    "turn_seconds",
]
