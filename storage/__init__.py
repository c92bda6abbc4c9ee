"""Durable storage of matches, players, guild settings, results and ladders (SQLite).

``Store`` is the one entry point; docs/STORAGE.md explains the schema, the durability
choices and where hidden information lives. ``python -m storage backup|check`` maintain it.
"""

from .config import Config
from .errors import (
    AlreadyRated,
    ConfigError,
    CorruptMatch,
    MatchNotFinished,
    MatchNotFound,
    SchemaTooNew,
    StaleMatch,
    StaleRating,
    StorageError,
    UnknownPlayer,
)
from .log import KINDS, Entry
from .match import Match
from .models import (
    FinishedMatch,
    LogLine,
    MatchInfo,
    Player,
    Rating,
    RatingChange,
    RatingEvent,
    State,
)
from .store import Store

__all__ = [
    "KINDS",
    "AlreadyRated",
    "Config",
    "ConfigError",
    "CorruptMatch",
    "Entry",
    "FinishedMatch",
    "LogLine",
    "Match",
    "MatchInfo",
    "MatchNotFinished",
    "MatchNotFound",
    "Player",
    "Rating",
    "RatingChange",
    "RatingEvent",
    "SchemaTooNew",
    "StaleMatch",
    "StaleRating",
    "State",
    "StorageError",
    "Store",
    "UnknownPlayer",
]
