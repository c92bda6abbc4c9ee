"""R25's defences: which actions of the side to act can break the threats found against its
command pieces (``trapped``'s search tries only these), and the pieces too far to have one."""

from __future__ import annotations

from .bits import ball, mask
from .bounds import STEPS, STRIKES, acting_kind, bound, corridor, writes_any
from .jeopardy import progresses, within_reach
from .movegen import acting_in_order, crown_actions, piece_actions
from .pieces import CANNON, Piece
from .position import Effect, Position


def defences(
    pos: Position, zones: list[set[int]], depth: int, focus: int | None = None
) -> list[Effect]:
    """Own actions that can break a threat with ``depth`` actions left: the command piece
    ``focus`` (any command piece without one) acting, crowning, dooming an enemy command
    piece, touching a square the threats depend on (``zones[0]``), or moving towards /
    making way for an action that will. Listed in ``all_actions``'s order, without the
    actions of the pieces too far from all of that for any action of theirs to qualify."""
    crowns = crown_actions(pos)
    if crowns:
        return [effect for _action, effect in crowns]  # all_actions(pos): crown first (R24)
    first: list[Effect] = []
    rest: list[Effect] = []
    reach = zones[depth - 1]
    goal = tuple(zones[0])
    goals = [(goal, depth - 1)] if depth > 1 and goal else None
    near = Near(pos, reach, goal if goals else ())
    for piece in acting_in_order(pos):
        if piece.is_command if focus is None else piece.id == focus:
            first.extend(effect for _action, effect in piece_actions(pos, piece))
        elif near.may_qualify(pos, piece, depth):
            for _action, effect in piece_actions(pos, piece):
                if (
                    writes_any(pos, effect, reach)
                    or any(pos.pieces[h].is_command for h in effect.hits)
                    or progresses(pos, effect, goals)
                ):
                    rest.append(effect)
    return first + rest


class Near:
    """Which pieces may have an action ``defences`` keeps: one action carries a piece at
    most ``STEPS`` and hits at most ``STRIKES`` away (``bound``'s premise), so a piece
    farther than that from every square of ``reach`` and every enemy command piece, and
    from ``goal`` farther than a step plus what ``progresses`` accepts, has none. Cannons
    and hidden pieces are always asked."""

    def __init__(self, pos: Position, reach: set[int], goal: tuple[int, ...]) -> None:
        enemy = pos.side.other
        commands = mask(p.sq for p in pos.commanders(enemy) if not p.hidden)
        self.touch = mask(reach) | commands
        self.goal = mask(goal)
        self.hill = 1 if pos.terrain.hills else 0

    def may_qualify(self, pos: Position, piece: Piece, depth: int) -> bool:
        if piece.kind == CANNON or piece.hidden:
            return True
        kind = acting_kind(pos, piece)
        hill = self.hill
        if ball(pos.size, piece.sq, STRIKES[kind] + hill) & self.touch:
            return True
        if not self.goal:
            return False
        radius = max(0, within_reach(kind, bool(hill), False, depth - 1)) + STEPS[kind] + hill
        return bool(ball(pos.size, piece.sq, radius) & self.goal)


def widen(pos: Position, deps: set[int], actions: int) -> list[set[int]]:
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
