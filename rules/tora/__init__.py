"""TORA: the war game (rulings R1-R51, docs/RULES.md). Pure, deterministic, no I/O."""

from ..errors import ActionError, AmbiguousAction, IllegalAction, MalformedAction
from .actions import Action
from .game import Event, Game, Options, Outcome, Turn
from .gametype import TORA, ToraType, perft
from .geometry import LONG, SHORT
from .pieces import Piece, Side
from .view import PieceView, View

# Bumped whenever the shape of a Game object changes, so stored snapshots of older shapes
# are recognised as stale (storage then rebuilds the game from its action log).
STATE_VERSION = 5  # 5: the modules moved into rules/tora

__all__ = [
    "LONG",
    "SHORT",
    "STATE_VERSION",
    "TORA",
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
    "ToraType",
    "Turn",
    "View",
    "perft",
]
