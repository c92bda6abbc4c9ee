"""TORA rules core: pure, deterministic, no I/O. See docs/RULES.md for the rulings."""

from .actions import Action
from .errors import ActionError, AmbiguousAction, IllegalAction, MalformedAction
from .game import Event, Game, Options, Outcome, Turn
from .geometry import LONG, SHORT
from .pieces import Piece, Side

__all__ = [
    "LONG",
    "SHORT",
    "Action",
    "ActionError",
    "AmbiguousAction",
    "Event",
    "Game",
    "IllegalAction",
    "MalformedAction",
    "Options",
    "Outcome",
    "Piece",
    "Side",
    "Turn",
]
