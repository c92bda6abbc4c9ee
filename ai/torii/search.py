"""Torii's own search: the principal-variation search of ``ai.pvs`` on ``state.SearchState``
(a move is a whole turn, or the Monkey decisions owed with the turn that follows them).

It reads only the position, which holds nothing hidden. A won position ends a line (TI18);
Torii has no repetition rule, so a cycle is judged by the evaluation like any line.
"""

from __future__ import annotations

import math
import random

from rules.torii import Pass, ToriiGame

from ..pvs import MAX_DEPTH, Result, search
from .state import SearchState

FIXED_NODES = 8_000  # the work of a search without a clock (a hint): the same on any machine
CLOCK_EVERY = 1  # a node generates whole turns (milliseconds): the clock is read at each


def think(
    game: ToriiGame,
    seconds: float,
    rng: random.Random,
    max_depth: int = MAX_DEPTH,
    max_nodes: int | None = None,
) -> tuple[Result, SearchState]:
    """The search of ``game``'s position (after any Monkey decisions already staged) within
    ``seconds`` and ``max_nodes``, ``max_depth`` turns deep at most, with the state it
    searched (to name the move found). The seed from ``rng`` varies the evaluation by a few
    hundredths of a Follower, so games differ."""
    salt = rng.getrandbits(64) | 1
    state = SearchState(game.latest, game.setup)
    return search(state, seconds, salt, max_depth, max_nodes, CLOCK_EVERY), state


def own_turn(game: ToriiGame, seconds: float, rng: random.Random, depth: int) -> list[str]:
    """The turn of ``game.side`` this search finds (``ai.engines.Engine.search``): the
    Monkey decisions owed (the turn that follows them is the side's next), else the whole
    turn; without a clock (``seconds`` infinite: a hint) within ``FIXED_NODES`` nodes, so the
    same position gives the same turn anywhere. A turn already staged leaves nothing to add;
    of the decisions, only those not yet staged are added."""
    if not game.legal_actions():
        return []
    nodes = None if math.isfinite(seconds) else FIXED_NODES
    found, state = think(game, seconds, rng, depth, nodes)
    if found.move is None:  # no legal move: only for a finished game, excluded above
        raise RuntimeError("the search found no move in a game that has legal actions")
    flips, work = state.label(found.move)
    if game.latest.owed:
        return [game.notation(flip) for flip in flips]
    if work is None:
        return [game.notation(Pass())]
    return [game.notation(work.move())]
