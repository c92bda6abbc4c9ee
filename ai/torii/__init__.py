"""Torii's engine (``ai.engines``): its evaluation for the seam's players, Followers placed
and Torii built (the two ways to win), which is also its balance (Followers come and go
every turn); its own search (``search``: the principal-variation search of ``ai.pvs`` on
``state.SearchState``, whole turns made and unmade on a stack of positions, evaluated by
``evaluation``)."""

from __future__ import annotations

from rules import Side
from rules.torii import TORII, ToriiGame

from ..engines import Engine, register
from .search import own_turn

HINT_DEPTH = 5  # turns a hint looks ahead, within the search's fixed node budget


def evaluate(game: ToriiGame, side: Side) -> float:
    """Followers placed and Torii built (the two ways to win), tiles left to play."""
    view = game.view_for(side)
    mine, theirs = side, side.other

    def progress(who: Side) -> float:
        placed = 9 - view.supply[who]
        built = 4 - view.torii_left[who]
        return placed + 2.5 * built

    return progress(mine) - progress(theirs)


register(Engine[ToriiGame](TORII.id, evaluate, search=own_turn, hint_work=lambda _game: HINT_DEPTH))
