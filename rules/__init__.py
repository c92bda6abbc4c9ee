"""TORA rules core: pure, deterministic, no I/O. See docs/RULES.md for the rulings."""

from .actions import Action
from .errors import ActionError, AmbiguousAction, IllegalAction, MalformedAction
from .game import Event, Game, Options, Outcome, Turn
from .geometry import LONG, SHORT
from .pieces import Piece, Side
from .view import PieceView, View

# Bumped whenever the shape of a Game object changes, so stored snapshots of older shapes
# are recognised as stale (storage then rebuilds the game from its action log).
STATE_VERSION = 4

__all__ = [
    "LONG",
    "SHORT",
    "STATE_VERSION",
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
    "PieceView",
    "Side",
    "Turn",
    "View",
]
