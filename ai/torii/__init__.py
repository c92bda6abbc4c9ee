"""Torii's engine (``ai.engines``): its evaluation (``evaluation``: Followers placed and Torii
built, the two ways to win, lines that threaten a Torii and the race to nine Followers), the
same for the seam's players, the analysis and its own search (``search``: the
principal-variation search of ``ai.pvs`` on ``state.SearchState``, whole turns made and
unmade on a stack of positions); its balance, what draws are judged on, is the plain count
of Followers placed and Torii built (Followers come and go every turn), compared at a
round's end."""

from __future__ import annotations

from rules import Side
from rules.torii import TORII, Position, ToriiGame

from ..engines import Engine, register
from .evaluation import FOLLOWER, FOLLOWERS, TORII_COUNT
from .evaluation import evaluate as standing
from .search import own_turn
from .state import successors

HINT_DEPTH = 5  # turns a hint looks ahead, within the search's fixed node budget


def evaluate(game: ToriiGame, side: Side) -> float:
    """``side``'s standing as the search judges it, in Followers (nothing in a Torii
    position is hidden)."""
    pos = game.pos
    score = standing(pos, pos.side) / FOLLOWER
    return score if pos.side == side else -score


def balance(game: ToriiGame, side: Side) -> float:
    """Followers placed and Torii built (the two ways to win), each side's, compared at a
    round's end, when both have had as many turns: in a round's middle (the Opposition to
    act, TI3) after the Opposition's coming turn, the best it has by this count. Compared at
    once, the side to act would stand behind by what the other has just placed (three
    Followers after the Challenger's first turn), a turn it is about to answer."""
    pos = game.pos
    if pos.side == Side.CHALLENGER or pos.winner() is not None:
        return ahead(pos, side)
    best = max(ahead(after, Side.OPPOSITION) for after, _label in successors(pos, game.setup))
    return best if side == Side.OPPOSITION else -best


def ahead(pos: Position, side: Side) -> float:
    """How far ``side`` is ahead of the other in ``pos`` by Followers placed and Torii built
    (a Torii at 2.5 Followers)."""

    def progress(who: Side) -> float:
        placed = FOLLOWERS - pos.supply(who)
        built = TORII_COUNT - pos.torii_left(who)
        return placed + 2.5 * built

    return progress(side) - progress(side.other)


register(
    Engine[ToriiGame](
        TORII.id, evaluate, balance, search=own_turn, hint_work=lambda _game: HINT_DEPTH
    )
)
