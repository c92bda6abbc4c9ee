"""TORA: the war game (rulings R1-R51, docs/RULES.md). Pure, deterministic, no I/O."""

from ..errors import ActionError, AmbiguousAction, IllegalAction, MalformedAction
from ..sides import Outcome, Side
from .actions import DRAW, FORFEIT, GAME_LEVEL, RESET, RESIGN, Action
from .assassin import check_assassin_start, home_row, start_squares
from .events import Event, Turn
from .game import Game
from .gametype import STATE_VERSION, TORA, ToraType, perft
from .geometry import (
    DIRECTION_VECTORS,
    LONG,
    MAX_SQUARE_TEXT,
    SHORT,
    distance,
    h_of,
    name,
    neighbours,
    parse_square,
    square,
    squares,
    v_of,
)
from .jeopardy import in_jeopardy, next_turn
from .options import STRATEGIES, Options
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
    "distance",
    "h_of",
    "home_row",
    "in_jeopardy",
    "name",
    "neighbours",
    "next_turn",
    "parse_record",
    "parse_square",
    "perft",
    "preset_names",
    "replay",
    "square",
    "squares",
    "start_squares",
    "v_of",
    "write_record",
]
