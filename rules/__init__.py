"""The rules core: pure, deterministic, no I/O. The seam every game implements
(``protocol``), the registry of games (``registry``), and what they share (``sides``,
``errors``, ``records``, ``grouped``); one package per game: ``tora``, ``torishogi``,
``torii``. Layers above import the seam and a game's package, never a game's modules."""

# First: the loader of the compiled build, which the rest may come from (rules/compiled.py).
from . import compiled  # noqa: F401
from .errors import ActionError, AmbiguousAction, IllegalAction, MalformedAction
from .protocol import (
    UNFINISHED,
    Choice,
    ChoiceGroup,
    GameState,
    GameType,
    GameView,
    SetupQuestion,
)
from .registry import DEFAULT, GAMES, game_type
from .sides import Outcome, Side

__all__ = [
    "DEFAULT",
    "GAMES",
    "UNFINISHED",
    "ActionError",
    "AmbiguousAction",
    "Choice",
    "ChoiceGroup",
    "GameState",
    "GameType",
    "GameView",
    "IllegalAction",
    "MalformedAction",
    "Outcome",
    "SetupQuestion",
    "Side",
    "game_type",
]
