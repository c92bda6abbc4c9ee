"""Torii's engine (``ai.engines``): its evaluation, Followers placed and Torii built (the two
ways to win), which is also its balance (Followers come and go every turn); its turns are
searched by the seam's alpha-beta."""

from __future__ import annotations

from rules import Side
from rules.torii import TORII, ToriiGame

from ..engines import Engine, register


def evaluate(game: ToriiGame, side: Side) -> float:
    """Followers placed and Torii built (the two ways to win), tiles left to play."""
    view = game.view_for(side)
    mine, theirs = side, side.other

    def progress(who: Side) -> float:
        placed = 9 - view.supply[who]
        built = 4 - view.torii_left[who]
        return placed + 2.5 * built

    return progress(mine) - progress(theirs)


register(Engine[ToriiGame](TORII.id, evaluate))
