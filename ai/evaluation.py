"""How good a position is for one side, read from that side's own view only
(``view_for(side)``): what the engines maximise, each game's as its engine says
(``ai.engines``). A won game is worth ``WIN``."""

from __future__ import annotations

from rules import GameState, Side

from .engines import engine_of

WIN = 1_000_000.0


def evaluate(game: GameState, side: Side) -> float:
    """``side``'s standing: ``WIN`` or ``-WIN`` once the game is over (0 for a draw)."""
    outcome = game.outcome()
    if outcome is not None:
        return 0.0 if outcome.winner is None else (WIN if outcome.winner == side else -WIN)
    return engine_of(game.game_type).evaluate(game, side)


def balance(game: GameState, side: Side) -> float:
    """The part of ``side``'s standing that only a removal changes, as each game counts one
    (``GameState.quiet_rounds``), in the game's smallest piece, one removed being one down:
    TORA's points and material, ToriShogi's material on the board and in hand. A game whose
    engine has none is judged on its whole evaluation."""
    own = engine_of(game.game_type).balance
    return evaluate(game, side) if own is None else own(game, side)
