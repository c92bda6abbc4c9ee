"""Durable storage of matches, players, guild settings, results and ladders: a SQLite file,
or a PostgreSQL database that several bot processes share.

``Store`` is the one entry point, and this module the surface the layers above import from
(the ladders' and tournaments' transactions: ``storage.competitions``). Its parts:
``backends`` (SQLite's and PostgreSQL's), ``matches`` (the log and snapshots), ``hosting``
(the match service's rows and outbox), ``competitions`` (ladders, tournaments) and ``tools``
(``python -m storage backup|check|copy``). docs/STORAGE.md explains the schema, the two
backends, the durability choices and where hidden information lives.
"""

from .competitions.ratings import Rating, RatingChange, RatingEvent
from .config import Config
from .errors import (
    AlreadyRated,
    CannotOpen,
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
from .hosting.hosted import ChannelBusy, Hosted, HostedNotFound, SetupChoice, StaleHosted
from .hosting.links import LinkState
from .hosting.outbox import ButtonMessage, Post, Queued
from .hosting.sharing import Sharing
from .hosting.turn_start import TurnStart
from .matches.games import DEFAULT_GAME, Spec
from .matches.log import KINDS, Entry
from .matches.match import Match
from .matches.models import FinishedMatch, LogLine, MatchInfo, State
from .matches.records import write_record
from .matches.writes import NewMatch
from .players import Away, Player
from .store import Store

__all__ = [
    "DEFAULT_GAME",
    "KINDS",
    "AlreadyRated",
    "Away",
    "ButtonMessage",
    "CannotOpen",
    "ChannelBusy",
    "Config",
    "ConfigError",
    "CorruptMatch",
    "DatabaseUnavailable",
    "Entry",
    "FinishedMatch",
    "Hosted",
    "HostedNotFound",
    "LinkState",
    "LogLine",
    "Match",
    "MatchClosed",
    "MatchInfo",
    "MatchNotFinished",
    "MatchNotFound",
    "NewMatch",
    "Player",
    "Post",
    "Queued",
    "Rating",
    "RatingChange",
    "RatingEvent",
    "SchemaTooNew",
    "SetupChoice",
    "Sharing",
    "Spec",
    "StaleHosted",
    "StaleMatch",
    "StaleRating",
    "State",
    "StorageError",
    "Store",
    "TurnStart",
    "UnknownPlayer",
    "write_record",
]
