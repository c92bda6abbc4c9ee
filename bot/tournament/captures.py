"""What each player scored in a finished game, as the tournament game's scoring reads it off
the final position (``scoring.scoring().scored``: the enemy army as set up, less the enemy
pieces still standing and not doomed, checked against the game's own score)."""

from __future__ import annotations

from rules import GameState, Side

from .match import GameResult, Seat
from .points import Captures
from .scoring import scoring


def scored_by(game: GameState) -> dict[Side, Captures]:
    """The enemy pieces each side scored in a finished game (ValueError: a game outside the
    tournament's rules, or unfinished)."""
    first, second = scoring().scored(game)
    return {Side.CHALLENGER: Captures.of(first), Side.OPPOSITION: Captures.of(second)}


def game_result(game: GameState, challenger: Seat) -> GameResult:
    """A finished game as a tournament result, ``challenger`` being the seat that played the
    Challenger."""
    scored = scored_by(game)
    seats = {challenger: Side.CHALLENGER, challenger.other: Side.OPPOSITION}
    outcome = game.outcome()
    assert outcome is not None
    winner = None
    if outcome.winner is not None:
        winner = challenger if outcome.winner is Side.CHALLENGER else challenger.other
    return GameResult((scored[seats[Seat.FIRST]], scored[seats[Seat.SECOND]]), winner)
