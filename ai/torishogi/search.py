"""ToriShogi's own search: the principal-variation search of ``ai.pvs`` on the engine's
position (``state.SearchState``: make/unmake of encoded moves, no copy per node).

It reads only the position and the game's history of positions, which hold nothing hidden.
A side with no legal move has lost (TS9: checkmate and stalemate alike). A repetition is
judged as the rules judge it (TS10, ``SearchState.repetition``): the fourth occurrence ends
the game, so no move that would lose by it is chosen while another is left.
"""

from __future__ import annotations

import math
import random

from rules.torishogi import Key, Position, ToriShogiGame

from ..pvs import MAX_DEPTH, Result, search
from .state import SearchState

FIXED_NODES = 20_000  # the work of a search without a clock (a hint): the same on any machine


def think(
    pos: Position,
    history: list[tuple[Key, bool]] | None,
    seconds: float,
    rng: random.Random,
    max_depth: int = MAX_DEPTH,
    max_nodes: int | None = None,
) -> Result:
    """The search of ``pos`` (spent by it) after the game's ``history`` of positions (its
    last one ``pos``; None: no past), within ``seconds`` and ``max_nodes``, ``max_depth``
    plies deep at most. The seed from ``rng`` varies the evaluation by a few
    centi-Swallows, so games differ. ``move`` is None when there is no legal move."""
    salt = rng.getrandbits(64) | 1
    return search(SearchState(pos, history), seconds, salt, max_depth, max_nodes)


def own_turn(game: ToriShogiGame, seconds: float, rng: random.Random, depth: int) -> list[str]:
    """The turn of ``game.side`` this search finds within ``seconds``, ``depth`` plies deep
    at most (``ai.engines.Engine.search``); without a clock (``seconds`` infinite: a hint)
    within ``FIXED_NODES`` nodes, so the same position gives the same move anywhere. A move
    already staged leaves nothing to add (the turn ends as it stands)."""
    legal = game.legal_actions()
    if not legal:
        return []
    nodes = None if math.isfinite(seconds) else FIXED_NODES
    found = think(game.pos.copy(), game.history, seconds, rng, depth, nodes)
    move = next((m for m in legal if m.code == found.move), None)
    if move is None:  # the rules core and the search disagree: an engine bug, never hidden
        raise RuntimeError(f"the search chose {found.move}, which is not a legal move")
    return [game.notation(move)]
