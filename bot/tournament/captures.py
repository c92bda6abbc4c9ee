"""What each player scored in a finished game, read off the rules core's final position.

A side scores every enemy piece it removes (R27), and a command piece as soon as it is doomed
(the game may end before the round removes it). So the pieces a side scored are the enemy's
army as set up, less the enemy pieces still standing and not doomed. The one exception, a
friendly piece removed with a revealed Assassin (R43), needs the Assassin rules, which
tournament games do not use (docs/TOURNAMENTS.md, T16); the totals are checked against the
rules core's own score all the same.
"""

from __future__ import annotations

from collections import Counter

from rules.tora import Game, Side

from .match import GameResult, Seat
from .points import Captures, personal_score


def scored_by(game: Game) -> dict[Side, Captures]:
    """The enemy pieces each side scored in a finished game."""
    if not game.is_over():
        raise ValueError("captures are read once the game is over")
    if game.options.assassins:
        raise ValueError("tournament games are played without the Assassin rules")
    if game.game_number != 1:
        raise ValueError("tournament games are single games, not a series to a target")
    army = Counter((p.side, p.kind) for p in Game(game.options).pieces())
    standing = Counter((p.side, p.kind) for p in game.pieces() if not p.doomed)
    scored = {}
    for side in Side:
        gone = army.copy()
        gone.subtract(standing)
        kinds = [kind for (owner, kind), n in gone.items() if owner is side.other for _ in range(n)]
        scored[side] = Captures.from_kinds(kinds)
        if personal_score(scored[side], False) != game.scores()[side]:
            raise ValueError(
                f"the {side.title}'s captures do not add up to its score {game.scores()[side]}"
            )
    return scored


def game_result(game: Game, challenger: Seat) -> GameResult:
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
