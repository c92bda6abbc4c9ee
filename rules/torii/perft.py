"""Perft (TI20): counting the distinct positions whole turns reach, for testing.

A position is everything ``Position`` holds: both Spirits' squares, each square's Follower
and Torii (so both supplies and Torii left), both players' tiles, the side to act (with any
Monkey decisions it owes) and so the winner. A turn is everything one player decides: power
uses, tile, steps, builds, and the opponent's Monkey decisions that follow it (TI15), so every
position counted is one where a normal turn begins (or the game is over).
"""

from __future__ import annotations

from .generate import whole_turns
from .monkey import pass_turn, settle
from .state import Position, Setup


def successors(pos: Position, setup: Setup) -> set[Position]:
    """TI20: the distinct positions one whole turn can reach, the Monkey owner's decisions
    that follow it included. From a position owing decisions, the turn is those decisions."""
    if pos.owed:
        return settle(pos)
    if pos.winner() is not None:
        return set()
    works = whole_turns(pos, setup)
    if not works:
        return {pass_turn(pos)}
    out: set[Position] = set()
    for work in works:
        result = work.result()
        if result.owed:
            out |= settle(result)
        else:
            out.add(result)
    return out


def perft(pos: Position, setup: Setup, depth: int) -> int:
    """TI20: leaf positions ``depth`` whole turns away, counting distinct positions at every
    node (a finished game has none below it)."""
    if depth == 0:
        return 1
    children = successors(pos, setup)
    if depth == 1:
        return len(children)
    return sum(perft(child, setup, depth - 1) for child in children)
