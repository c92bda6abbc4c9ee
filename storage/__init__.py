"""Durable storage of matches, players, guild settings, results and ladders: a SQLite file,
or a PostgreSQL database that several bot processes share.

``Store`` is the one entry point; docs/STORAGE.md explains the schema, the two backends, the
durability choices and where hidden information lives. ``python -m storage backup|check|copy``
maintain it.
"""

from .config import Config
from .errors import (
    AlreadyRated,
    ConfigError,
    CorruptMatch,
    DatabaseUnavailable,
    MatchClosed,
    MatchNotFinished,
    MatchNotFound,
    SchemaTooNew,
    StaleMatch,
    StaleRating,
    StorageError,
    UnknownPlayer,
)
from .games import DEFAULT_GAME, MatchOptions, Spec, heavy, new_game
from .hosting import (
    ButtonMessage,
    ChannelBusy,
    Hosted,
    HostedNotFound,
    Post,
    Queued,
    SetupChoice,
    StaleHosted,
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
from .records import write_record
from .store import Store

__all__ = [
    "DEFAULT_GAME",
    "KINDS",
    "AlreadyRated",
    "ButtonMessage",
    "ChannelBusy",
    "Config",
    "ConfigError",
    "CorruptMatch",
    "DatabaseUnavailable",
    "Entry",
    "FinishedMatch",
    "Hosted",
    "HostedNotFound",
    "LogLine",
    "Match",
    "MatchClosed",
    "MatchInfo",
    "MatchNotFinished",
    "MatchNotFound",
    "MatchOptions",
    "Player",
    "Post",
    "Queued",
    "Rating",
    "RatingChange",
    "RatingEvent",
    "SchemaTooNew",
    "SetupChoice",
    "Spec",
    "StaleHosted",
    "StaleMatch",
    "StaleRating",
    "State",
    "StorageError",
    "Store",
    "UnknownPlayer",
    "heavy",
    "new_game",
    "write_record",
]
