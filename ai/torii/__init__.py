"""Torii's engine (``ai.engines``): its evaluation (``evaluation``: Followers placed and Torii
built, the two ways to win, lines that threaten a Torii and the race to nine Followers), the
same for the seam's players, the analysis and its own search (``search``: the
principal-variation search of ``ai.pvs`` on ``state.SearchState``, whole turns made and
unmade on a stack of positions); its balance, what draws are judged on, is the plain count
of Followers placed and Torii built (Followers come and go every turn)."""

from __future__ import annotations

from rules import Side
from rules.torii import TORII, ToriiGame

from ..engines import Engine, register
from .evaluation import FOLLOWER
from .evaluation import evaluate as standing
from .search import own_turn

HINT_DEPTH = 5  # turns a hint looks ahead, within the search's fixed node budget


def evaluate(game: ToriiGame, side: Side) -> float:
    """``side``'s standing as the search judges it, in Followers (nothing in a Torii
    position is hidden)."""
    pos = game.pos
    score = standing(pos, pos.side) / FOLLOWER
    return score if pos.side == side else -score


def balance(game: ToriiGame, side: Side) -> float:
    """Followers placed and Torii built (the two ways to win), each side's, compared."""
    view = game.view_for(side)

    def progress(who: Side) -> float:
        placed = 9 - view.supply[who]
        built = 4 - view.torii_left[who]
        return placed + 2.5 * built

    return progress(side) - progress(side.other)


register(
    Engine[ToriiGame](
        TORII.id, evaluate, balance, search=own_turn, hint_work=lambda _game: HINT_DEPTH
    )
)
