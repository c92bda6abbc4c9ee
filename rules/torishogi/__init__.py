"""ToriShogi, the bird shogi on a 7x7 board, for the host's game seam (rules.protocol).

The engine (``board``, ``pieces``, ``position``, ``movegen``, ``perft``) works on integer
squares and encoded moves; ``ToriShogiGame`` wraps it in the host's turn model and ``TORISHOGI``
is the ``GameType``. Rulings TS1-TS12 are in docs/TORISHOGI.md. Only the shared modules of
``rules`` (protocol, sides, errors) are used here, never TORA's engine.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.policies import Policies
from rules.protocol import GameType, GameView, Ladder, SetupQuestion, describe
from rules.records import RecordError, ReplayError
from rules.sides import Side
from rules.words import msg

from .board import FILES, RANKS, SHOWN_FILES, SHOWN_RANKS, SIZE, SQUARES, file_of, rank_of, square
from .events import Event, Turn
from .fen import START_FEN, parse_fen, write_fen
from .game import ToriShogiGame
from .menu import hand_place, held_place
from .movegen import (
    LEAP_MOVES,
    MINE,
    RAY_MOVES,
    attacked,
    checkers_and_pins,
    in_check,
    legal_moves,
)
from .moves import DROP, PROMOTES, Move
from .notation import HINT
from .perft import perft
from .pieces import (
    CRANE,
    EAGLE,
    FALCON,
    GOOSE,
    HAND_KINDS,
    LEFT_QUAIL,
    PHEASANT,
    PHOENIX,
    PROMOTES_TO,
    RIGHT_QUAIL,
    SHORT,
    SWALLOW,
    code,
)
from .position import BASE_OF, PROMOTED, Key, Position
from .record import read_record, write_record
from .view import LastMove, PieceView, View

OPTION_KEYS = ("fen",)
# Bumped whenever the shape of a ToriShogiGame changes, so stored snapshots of older shapes
# are recognised as stale (storage then rebuilds the game from its record).
STATE_VERSION = 2


def _own_view(view: GameView[Any]) -> View:
    if not isinstance(view, View):
        raise TypeError(f"not a view of ToriShogi: {type(view).__name__}")
    return view


class ToriShogiType(Policies[ToriShogiGame]):
    """The ``GameType`` of ToriShogi: no match options besides an optional start ``fen``, no
    setup questions; its policies are a plain game's (``rules.policies``)."""

    id = "torishogi"
    title = "ToriShogi"
    state_version = STATE_VERSION
    one_move = True
    nothing_removed: str = msg("No piece has been captured")
    # Fairy-Stockfish's name of the game; it reads our FEN and moves (c3c4, S@d4) as they are
    uci_variant: str | None = "torishogi"
    ladders: tuple[Ladder, ...] = (Ladder("torishogi", "ToriShogi"),)

    def check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        unknown = sorted(str(key) for key in options if key not in OPTION_KEYS)
        if unknown:
            raise ValueError(
                msg(
                    "ToriShogi has no option {options} (the only one is a start 'fen')",
                    options=", ".join(unknown),
                )
            )
        fen = options.get("fen")
        if fen is None or fen == "":
            return {}
        if not isinstance(fen, str):
            raise ValueError("the start 'fen' must be text")
        return {"fen": write_fen(parse_fen(fen))}

    def setup_questions(self, options: Mapping[str, Any]) -> tuple[SetupQuestion, ...]:
        return ()

    def new_game(
        self, options: Mapping[str, Any], answers: tuple[Mapping[str, str], Mapping[str, str]]
    ) -> ToriShogiGame:
        if any(answers):
            raise ValueError(msg("ToriShogi asks no setup questions"))
        return ToriShogiGame(self.check_options(options).get("fen", START_FEN))

    def from_fen(self, fen: str, options: Mapping[str, Any]) -> ToriShogiGame:
        self.check_options(options)
        return ToriShogiGame(fen)

    def setup_of(
        self, game: ToriShogiGame
    ) -> tuple[dict[str, Any], tuple[dict[str, str], dict[str, str]]]:
        options = {} if game.start_fen == START_FEN else {"fen": game.start_fen}
        return options, ({}, {})

    def write_record(
        self,
        game: ToriShogiGame,
        audience: Side | str | None,
        extra: Mapping[str, str] | None = None,
    ) -> str:
        """Nothing is hidden: every audience gets the same record."""
        return write_record(game, extra)

    def read_record(self, text: str) -> ToriShogiGame:
        return read_record(text)

    def perft(self, game: ToriShogiGame, depth: int) -> int:
        """From the confirmed position (a staged move is not played)."""
        return perft(game.pos.copy(), depth)

    def describe(self, game: ToriShogiGame, viewer: Side | None) -> list[str]:
        """The position string, the status and the side to act (nothing is hidden)."""
        return describe(game)

    def visible_actions(self, game: ToriShogiGame, viewer: Side | None) -> list[str]:
        return [game.notation(action) for action in game.legal_actions()]

    def final_summary(self, view: GameView[Any], names: Sequence[str]) -> str:
        """``View.final_summary``: a game called off names nobody to move."""
        return _own_view(view).final_summary(names)

    def square_words(self, view: GameView[Any], names: Sequence[str]) -> dict[str, str]:
        return _own_view(view).contents(names)


TORISHOGI: GameType[ToriShogiGame] = ToriShogiType()

__all__ = [
    "BASE_OF",
    "CRANE",
    "DROP",
    "EAGLE",
    "FALCON",
    "FILES",
    "GOOSE",
    "HAND_KINDS",
    "HINT",
    "LEAP_MOVES",
    "LEFT_QUAIL",
    "MINE",
    "PHEASANT",
    "PHOENIX",
    "PROMOTED",
    "PROMOTES",
    "PROMOTES_TO",
    "RANKS",
    "RAY_MOVES",
    "RIGHT_QUAIL",
    "SHORT",
    "SHOWN_FILES",
    "SHOWN_RANKS",
    "SIZE",
    "SQUARES",
    "START_FEN",
    "STATE_VERSION",
    "SWALLOW",
    "TORISHOGI",
    "Event",
    "Key",
    "LastMove",
    "Move",
    "PieceView",
    "Position",
    "RecordError",
    "ReplayError",
    "ToriShogiGame",
    "ToriShogiType",
    "Turn",
    "View",
    "attacked",
    "checkers_and_pins",
    "code",
    "file_of",
    "hand_place",
    "held_place",
    "in_check",
    "legal_moves",
    "parse_fen",
    "perft",
    "rank_of",
    "read_record",
    "square",
    "write_fen",
    "write_record",
]
