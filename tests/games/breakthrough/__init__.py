"""Breakthrough on a 4x4 board: a fourth game that exists only in the tests.

BT1. The Challenger's four pawns start on rank 1, the Opposition's on rank 4; the Challenger
     moves first, then the players take turns, one move each.
BT2. A pawn steps one square forward (towards the far rank) onto an empty square, or one
     square diagonally forward onto an empty square or onto an enemy pawn, which it captures.
BT3. A player wins by bringing a pawn to the far rank, by capturing every enemy pawn, or when
     the opponent, to move, has no legal move.
BT4. A player may resign at any time; the players may agree a draw.

A move is written ``a1-a2`` (``b2xc3`` for a capture); it is read in any case, with or
without the ``-`` or ``x``. Nothing is hidden. It has no match options and no setup
questions, and no drawing or evaluation of its own: the host draws it with its generic
drawing (its view says its board as a ``SquareMap``) and its engines judge it generically.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.policies import Policies
from rules.protocol import GameType, Ladder, SetupQuestion, describe
from rules.sides import Side

from .game import BreakthroughGame
from .record import GAME_ID, read_record, write_record


class BreakthroughType(Policies[BreakthroughGame]):
    """The ``GameType`` of Breakthrough; its policies are a plain game's (``rules.policies``)."""

    id = GAME_ID
    title = "Breakthrough"
    state_version = 1
    one_move = True
    nothing_removed = "No pawn has been captured"
    ladders: tuple[Ladder, ...] = (Ladder(GAME_ID, "Breakthrough"),)

    def check_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        if options:
            unknown = ", ".join(sorted(str(key) for key in options))
            raise ValueError(f"Breakthrough has no options: {unknown}")
        return {}

    def setup_questions(self, options: Mapping[str, Any]) -> tuple[SetupQuestion, ...]:
        return ()

    def new_game(
        self, options: Mapping[str, Any], answers: tuple[Mapping[str, str], Mapping[str, str]]
    ) -> BreakthroughGame:
        self.check_options(options)
        return BreakthroughGame()

    def from_fen(self, fen: str, options: Mapping[str, Any]) -> BreakthroughGame:
        return BreakthroughGame(fen)

    def setup_of(
        self, game: BreakthroughGame
    ) -> tuple[dict[str, Any], tuple[dict[str, str], dict[str, str]]]:
        return {}, ({}, {})

    def write_record(
        self,
        game: BreakthroughGame,
        audience: Side | str | None,
        extra: Mapping[str, str] | None = None,
    ) -> str:
        return write_record(game, extra)

    def read_record(self, text: str) -> BreakthroughGame:
        return read_record(text)

    def perft(self, game: BreakthroughGame, depth: int) -> int:
        if depth == 0 or game.is_over():
            return 1
        total = 0
        for move in game.legal_actions():
            child = game.copy()
            child.apply(move)
            child.end_turn()
            total += self.perft(child, depth - 1)
        return total

    def describe(self, game: BreakthroughGame, viewer: Side | None) -> list[str]:
        return describe(game)

    def visible_actions(self, game: BreakthroughGame, viewer: Side | None) -> list[str]:
        return [game.notation(move) for move in game.legal_actions()]


BREAKTHROUGH: GameType[BreakthroughGame] = BreakthroughType()

__all__ = ["BREAKTHROUGH", "GAME_ID", "BreakthroughGame", "BreakthroughType"]
