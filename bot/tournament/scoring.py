"""The rules a tournament scores by: the registry's game whose rule book has a tournament
scoring (``GameType.tournament``: TORA's chapter 10, what each capture is worth, the most one
army gives, the rank handicaps, what each side captured). The tournament format built on it
(four-game matches, bands, ranks, pairings) is this package's."""

from __future__ import annotations

from typing import Any

from bot.service import Terms
from rules import GAMES, GameType
from rules.hosting import Scoring


def tournament_game() -> GameType[Any]:
    """The game tournaments play: the first of the registry with a tournament scoring."""
    for kind in GAMES.values():
        if kind.tournament is not None:
            return kind
    raise LookupError("no registered game has a tournament scoring")


def scoring() -> Scoring:
    """The tournament game's scoring."""
    found = tournament_game().tournament
    assert found is not None  # tournament_game picks a game that has one
    return found


def game_terms(
    board: str, turn_seconds: float, rated: bool = True, away_days: bool = True
) -> Terms:
    """The terms of a tournament game on ``board``: the tournament game with the options its
    scoring sets (single games without Assassins); ``away_days``: whether the players' away
    days stop its clock. A lapsed setup is scored (T17): a tie if neither player finished it."""
    options = scoring().options(board)
    return Terms(
        tournament_game().id,
        options,
        turn_seconds=turn_seconds,
        rated=rated,
        away_days=away_days,
        competition=True,
        lapse_tied=True,
    )
