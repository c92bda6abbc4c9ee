"""What the rules tests' random games share."""

from __future__ import annotations

from rules.tora import Game, IllegalAction


def end_the_turn(game: Game) -> None:
    """End the turn, taking staged actions back while it cannot end (R30), as a player
    would."""
    while True:
        try:
            game.end_turn()
            return
        except IllegalAction:
            game.undo()
