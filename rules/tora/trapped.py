"""Trapped (R25): at the start of a turn, no turn the player could legally end leaves a live
command piece of theirs out of jeopardy."""

from __future__ import annotations

from ..sides import Side
from .jeopardy import (
    SearchKey,
    ThreatSearch,
    bound,
    corridor,
    next_turn,
    progresses,
    search_key,
    writes,
)
from .movegen import all_actions
from .pieces import Piece
from .position import Effect, Position


def is_trapped(pos: Position) -> bool:
    """R25, at the start of the turn of the side to act in ``pos``: every turn the player
    could legally end leaves all their live command pieces in jeopardy."""
    if not [p for p in pos.commanders(pos.side) if not p.doomed]:
        return False
    pos = pos.public()  # judged on the public board: no secret keeps a player alive
    try:
        return not Escape(pos).exists()
    except _OutOfBudget:
        return False  # undecided: the game goes on, which never ends a game wrongly


TRAPPED_BUDGET = 5_000  # steps of threat search (and judged positions) before R25 gives up


class _OutOfBudget(Exception):
    pass


class Escape:
    """The search for a turn the player could end with a live command piece out of jeopardy.

    Iterative deepening: every turn of one action is judged before any of two, so the common
    escape (one piece stepping into the way) is found after a few judgements, not after the
    deep lines of the first defence tried. The last round searches exactly the turns of the
    full depth, so the answer is that of one full search. Judgements are kept by position:
    the same position comes back in each round and by transposed actions. Each judgement
    and each step of its threat searches is taken from ``TRAPPED_BUDGET``.
    """

    def __init__(self, pos: Position) -> None:
        self.pos = pos
        self.judged: dict[SearchKey, tuple[bool, set[int]]] = {}
        self.budget = TRAPPED_BUDGET

    def exists(self) -> bool:
        return any(
            self._escape(self.pos, depth, set()) for depth in range(self.pos.actions_total + 1)
        )

    def _escape(self, pos: Position, depth: int, seen: set[tuple[SearchKey, int]]) -> bool:
        """Can the turn end safely here, or after at most ``depth`` more actions?

        A defence must break the threats found (their witnesses): an action that touches none
        of the squares they depend on leaves them all standing. So only actions that touch
        them, or that move towards doing so or clear the way for a piece that will, are tried.
        """
        self._spend(1)
        safe, deps = self._judge(pos)
        if safe:
            return True
        if depth == 0 or pos.actions_left <= 0:
            return False
        zones = _widen(pos, deps, depth)
        for effect in _defences(pos, zones, depth):
            child = pos.copy()
            child.commit(effect)
            key = (search_key(child), depth)
            if key in seen:
                continue
            seen.add(key)
            if self._escape(child, depth - 1, seen):
                return True
        return False

    def _judge(self, pos: Position) -> tuple[bool, set[int]]:
        key = search_key(pos)
        if key not in self.judged:
            safe, deps, work = _judge(pos)
            self._spend(work)
            self.judged[key] = safe, deps
        return self.judged[key]

    def _spend(self, work: int) -> None:
        self.budget -= work
        if self.budget < 0:
            raise _OutOfBudget


def _judge(pos: Position) -> tuple[bool, set[int], int]:
    """(ending the turn here is legal and leaves a live command piece out of jeopardy,
    the squares the threats found depend on, the steps its threat searches took)."""
    after = next_turn(pos)
    live = [p for p in pos.commanders(pos.side) if not p.doomed and p.id in after.pieces]
    if not after.commanders(after.side):
        return not pos.crown_pending[pos.side], set(), 0
    deps: set[int] = set()
    work = 0
    threatened: dict[int, bool] = {}
    for piece in live:
        search = ThreatSearch(piece.sq, after.actions_total)
        threatened[piece.id] = search.run(after)
        deps |= search.deps
        work += search.work
    legal = not pos.crown_pending[pos.side]
    for piece in live:
        if piece.id in pos.operated and threatened[piece.id]:
            if pos.side == Side.CHALLENGER and piece.id in pos.slew:
                search = ThreatSearch(piece.sq, after.actions_total, _not_doomed_command)
                hit = search.run(after)
                work += search.work
                if hit:
                    deps |= search.deps
                    legal = False
            else:
                legal = False
    return legal and any(not t for t in threatened.values()), deps, work


def _not_doomed_command(piece: Piece) -> bool:
    return not (piece.is_command and piece.doomed)


def _defences(pos: Position, zones: list[set[int]], depth: int) -> list[Effect]:
    """Own actions that can break a threat with ``depth`` actions left: a command piece
    acting or crowning, dooming an enemy command piece, touching a square the threats
    depend on (``zones[0]``), or moving towards / making way for an action that will."""
    first: list[Effect] = []
    rest: list[Effect] = []
    reach = zones[depth - 1]
    goal = tuple(zones[0])
    for _action, effect in all_actions(pos):
        piece = pos.pieces[effect.piece]
        if piece.is_command or effect.crown:
            first.append(effect)
        elif (
            writes(pos, effect) & reach
            or any(pos.pieces[h].is_command for h in effect.hits)
            or (depth > 1 and goal and progresses(pos, effect, [(goal, depth - 1)]))
        ):
            rest.append(effect)
    return first + rest


def _widen(pos: Position, deps: set[int], actions: int) -> list[set[int]]:
    """``zones[d]``: the squares of ``deps`` and those an own action could clear for a
    defender that then has d actions left to reach them."""
    zones = [deps]
    for _ in range(1, actions):
        wider = set(zones[-1])
        if zones[-1]:
            squares = tuple(zones[-1])
            for own in pos.side_pieces(pos.side):
                if not own.hidden and bound(pos, own, squares) <= 1:
                    wider |= corridor(pos, own, squares, 1)
        zones.append(wider)
    return zones
