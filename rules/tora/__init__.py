"""TORA: the war game (rulings R1-R51, docs/RULES.md). Pure, deterministic, no I/O."""

from ..errors import ActionError, AmbiguousAction, IllegalAction, MalformedAction
from .actions import DRAW, FORFEIT, GAME_LEVEL, RESET, RESIGN, Action
from .assassin import check_assassin_start, home_row, start_squares
from .game import STRATEGIES, Event, Game, Options, Outcome, Turn
from .gametype import TORA, ToraType, perft
from .geometry import (
    DIRECTION_VECTORS,
    LONG,
    MAX_SQUARE_TEXT,
    SHORT,
    h_of,
    name,
    square,
    squares,
    v_of,
)
from .pieces import (
    ARCHER,
    ASSASSIN,
    ASSASSIN_VALUES,
    CANNON,
    CAVALRY,
    COMMAND_KINDS,
    GENERAL,
    RULER,
    SOLDIER,
    VALUES,
    Piece,
    Side,
)
from .record import (
    ASSASSIN_HEADERS,
    RecordError,
    assassin_starts_from_headers,
    parse_record,
    replay,
    write_record,
)
from .terrain import CUSTOM, MAX_MAP, NONE, Terrain, TerrainError, preset_names
from .view import PieceView, View

# Bumped whenever the shape of a Game object changes, so stored snapshots of older shapes
# are recognised as stale (storage then rebuilds the game from its action log).
STATE_VERSION = 5  # 5: the modules moved into rules/tora

__all__ = [
    "ARCHER",
    "ASSASSIN",
    "ASSASSIN_HEADERS",
    "ASSASSIN_VALUES",
    "CANNON",
    "CAVALRY",
    "COMMAND_KINDS",
    "CUSTOM",
    "DIRECTION_VECTORS",
    "DRAW",
    "FORFEIT",
    "GAME_LEVEL",
    "GENERAL",
    "LONG",
    "MAX_MAP",
    "MAX_SQUARE_TEXT",
    "NONE",
    "RESET",
    "RESIGN",
    "RULER",
    "SHORT",
    "SOLDIER",
    "STATE_VERSION",
    "STRATEGIES",
    "TORA",
    "VALUES",
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
    "RecordError",
    "Side",
    "Terrain",
    "TerrainError",
    "ToraType",
    "Turn",
    "View",
    "assassin_starts_from_headers",
    "check_assassin_start",
    "h_of",
    "home_row",
    "name",
    "parse_record",
    "perft",
    "preset_names",
    "replay",
    "square",
    "squares",
    "start_squares",
    "v_of",
    "write_record",
]
