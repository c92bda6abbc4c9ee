"""Torii's position as ``ai.pvs`` searches it (``SearchState``, a ``pvs.Board``).

A move of the search is a whole turn (TI5-TI17, the builder's own Monkey flips included), or,
for a side that owes Monkey decisions (TI15), those decisions together with the normal turn
the same side plays right after them: so sides alternate move by move, as the search needs.
A turn has too many parts (tile, path, powers, builds) to be undone piece by piece cheaply,
and the rules core's positions are immutable: a move pushes the position after it on a stack
and unmake pops it, so nothing is copied but the position the rules core makes anyway.

A move is encoded as its index among the node's distinct successor positions (the rules
core generates them in a fixed order, so an index found in the transposition table names the
same turn again) above ``FEATURE_BITS`` bits saying where the mover's Spirit ends and how many
Torii it built, which is what the history of ``ai.ordering`` learns from.

The Zobrist key is computed from the position at each move (36 cells, two Spirits, the
tiles, the side, the decisions owed: a few dozen operations against the milliseconds a
turn generation costs), deterministic across processes so a hint's noise is the same
anywhere.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from typing import Protocol

from rules import Side
from rules.torii import (
    Decision,
    Move,
    Position,
    Setup,
    decide,
    gate,
    pass_turn,
    whole_turns,
)

from .evaluation import evaluate

FEATURE_BITS = 13
SPIRIT_BITS = 6  # the mover's Spirit's square, 0..35
BUILT_SHIFT = SPIRIT_BITS  # the Torii the move built, 0..4, above it
WIN_SCORE = 1 << 12  # a winning move is tried first of all

_RNG = random.Random(0x70_11)
_CELLS = [[_RNG.getrandbits(64) for _code in range(5)] for _sq in range(36)]
_SPIRITS = [[_RNG.getrandbits(64) for _sq in range(36)] for _side in Side]
_USED = [[_RNG.getrandbits(64) for _mask in range(8)] for _side in Side]
_OWED = [_RNG.getrandbits(64) for _owed in range(8)]
_SIDE = _RNG.getrandbits(64)


class Played(Protocol):
    """A turn the rules core generated (its ``Work``): the action it is."""

    def move(self) -> Move: ...


# What a move did, for the notations of the chosen one: the Monkey decisions (TI15) and the
# normal turn (None: a pass, or a game the decisions ended).
Label = tuple[tuple[Decision, ...], Played | None]


def zobrist(pos: Position, side: Side) -> int:
    """The key of ``pos`` with ``side`` to move (computed from scratch)."""
    key = _SIDE if side else 0
    for sq, cell in enumerate(pos.cells):
        if cell:
            key ^= _CELLS[sq][cell]
    key ^= _SPIRITS[0][pos.spirits[0]] ^ _SPIRITS[1][pos.spirits[1]]
    key ^= _USED[0][pos.used[0]] ^ _USED[1][pos.used[1]] ^ _OWED[min(pos.owed, 7)]
    return key


def turns(pos: Position, setup: Setup) -> list[tuple[Position, Played | None]]:
    """The positions one normal turn of ``pos.side`` reaches, each with the turn (a
    ``Work``; None: the pass of TI8)."""
    works = whole_turns(pos, setup)
    if not works:
        return [(pass_turn(pos), None)]
    return [(work.result(), work) for work in works]


def decisions(pos: Position) -> list[tuple[Position, tuple[Decision, ...]]]:
    """The positions the Monkey decisions ``pos`` owes lead to, each with the decisions
    (the first sequence reaching it)."""
    out: dict[Position, tuple[Decision, ...]] = {}
    for targets in itertools.product((None, Side.CHALLENGER, Side.OPPOSITION), repeat=pos.owed):
        after = pos
        for target in targets:
            after = decide(after, target)
        out.setdefault(after, tuple(Decision(t) for t in targets))
    return list(out.items())


def successors(pos: Position, setup: Setup) -> list[tuple[Position, Label]]:
    """Every distinct position one move of the search reaches from ``pos`` (not finished),
    in the rules core's order, with what the move did."""
    out: dict[Position, Label] = {}
    if not pos.owed:
        for after, work in turns(pos, setup):
            out.setdefault(after, ((), work))
        return list(out.items())
    for decided, flips in decisions(pos):
        if decided.winner() is not None:
            out.setdefault(decided, (flips, None))
            continue
        for after, work in turns(decided, setup):
            out.setdefault(after, (flips, work))
    return list(out.items())


def feature(before: Position, after: Position, mover: Side) -> int:
    """The low bits of a move's code: the mover's Spirit's square, the Torii it built."""
    built = after.cells.count(gate(mover)) - before.cells.count(gate(mover))
    return after.spirits[mover] | max(built, 0) << BUILT_SHIFT


@dataclass
class Node:
    pos: Position
    side: Side  # to move (a won position's winner is not: the loser is)
    key: int
    children: list[tuple[Position, Label]] | None = None


class SearchState:
    """A Torii position with a stack of the positions the search went through."""

    def __init__(self, pos: Position, setup: Setup) -> None:
        self.setup = setup
        self.stack = [Node(pos, pos.side, zobrist(pos, pos.side))]
        self.hash = self.stack[0].key

    @property
    def side(self) -> int:
        return int(self.stack[-1].side)

    def _children(self) -> list[tuple[Position, Label]]:
        node = self.stack[-1]
        if node.children is None:
            # a won position still owing decisions (TI15) has them: the root may be one
            finished = node.pos.winner() is not None and not node.pos.owed
            node.children = [] if finished else successors(node.pos, self.setup)
        return node.children

    def moves(self) -> list[int]:
        node = self.stack[-1]
        return [
            index << FEATURE_BITS | feature(node.pos, after, node.side)
            for index, (after, _label) in enumerate(self._children())
        ]

    def label(self, move: int) -> Label:
        """What ``move`` of the position now does (for its notations)."""
        return self._children()[move >> FEATURE_BITS][1]

    def in_check(self) -> bool:
        return False  # Torii has no check: nothing is extended, every move may be reduced

    def make(self, move: int) -> int:
        after = self._children()[move >> FEATURE_BITS][0]
        side = self.stack[-1].side.other
        node = Node(after, side, zobrist(after, side))
        self.stack.append(node)
        self.hash = node.key
        return 0

    def unmake(self, move: int, token: int) -> None:
        self.stack.pop()
        self.hash = self.stack[-1].key

    def make_null(self) -> int:
        raise AssertionError("Torii's search never passes (may_pass is False)")

    def unmake_null(self, token: int) -> None:
        raise AssertionError("Torii's search never passes (may_pass is False)")

    def mark_check(self, checked: bool) -> None:
        """Nothing to mark: Torii has neither check nor repetition rules."""

    def repetition(self) -> tuple[int, bool] | None:
        """A won position ends the search there (TI18): +1 when the side to move won (only
        after the Monkey's decisions owed for a winning turn), else -1. Torii judges no
        repetition."""
        node = self.stack[-1]
        winner = node.pos.winner()
        if winner is None:
            return None
        return (1 if winner == node.side else -1), True

    def evaluate(self) -> int:
        node = self.stack[-1]
        return evaluate(node.pos, node.side)

    def tactical(self, move: int) -> int:
        """A turn that wins first, then one that builds Torii (the more the better): the
        moves that change the game most, ordered first."""
        node = self.stack[-1]
        after = self._children()[move >> FEATURE_BITS][0]
        if after.winner() == node.side:
            return WIN_SCORE
        return move >> BUILT_SHIFT & 0b111

    def noisy(self, stand: int, alpha: int) -> list[int]:
        """No quiescence: every turn of Torii moves Followers, so no turn is quiet, and
        finding the few that build costs a whole turn generation, as much as a full node."""
        return []

    def may_pass(self) -> bool:
        return False  # a pass is a legal turn only when no tile has a path (TI8)
