"""The bounds that let the jeopardy search (``jeopardy``, R29) prune only what provably
cannot matter:

* ``bound``: an optimistic count of a piece's own actions before it can hit a square, ignoring
  every blocker (terrain at its kindest, cannons always supported). A piece whose bound exceeds
  the actions left can never be the attacker.
* ``corridor``: the squares whose contents can influence whether a piece hits a square within a
  number of its own actions (its paths, the middle squares of its shots, its cannon lines and
  supporters), and what an action ``writes`` there.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from .geometry import distances, neighbours
from .kept import keep
from .pieces import (
    ARCHER,
    ASSASSIN,
    CANNON,
    CAVALRY,
    COMMAND_KINDS,
    GENERAL,
    RULER,
    SOLDIER,
    Piece,
)
from .position import Effect, Position
from .reach import cannon_corridor, detour, line_distance, line_spots, ray_region, rays

# By kind, on level ground: the greatest distance one action carries a piece, and its last
# action hits at (a move and an attack together)
STEPS = {GENERAL: 2, RULER: 3, ARCHER: 2, SOLDIER: 1, CAVALRY: 3, CANNON: 1, ASSASSIN: 3}
STRIKES = {GENERAL: 3, RULER: 5, ARCHER: 2, SOLDIER: 1, CAVALRY: 3, ASSASSIN: 4}


def _steps(pos: Position, kind: str) -> int:
    """Greatest distance one action can carry a piece (downhill adds one, R33)."""
    return STEPS[kind] + (1 if pos.terrain.hills else 0)


def _strike(pos: Position, kind: str) -> int:
    """Greatest distance a piece's last action can hit at: move and attack together
    (an Archer's reach-2 shot does not grow downhill: it does not move)."""
    if kind == ARCHER:
        return 2 + (1 if pos.terrain.hills else 0)
    return STRIKES[kind] + (1 if pos.terrain.hills else 0)


def acting_kind(pos: Position, piece: Piece) -> str:
    """A General may be crowned for free before the next action (R24): count it as a Ruler."""
    if piece.kind == GENERAL and pos.crown_pending[piece.side]:
        return RULER
    return piece.kind


def bound(pos: Position, piece: Piece, squares: Iterable[int], own_only: bool = False) -> int:
    """Optimistic number of actions before the piece can hit or enter one of ``squares``
    (a piece standing on one of them can change it with any action). For a Cannon aimed at
    one piece this counts the helpers it needs too, unless ``own_only``."""
    if type(squares) is not tuple:
        squares = tuple(squares)
    if piece.sq in squares:
        return 1
    kind = piece.kind
    if kind == GENERAL and pos.crown_pending[piece.side]:
        kind = RULER  # crowned for free before the next action (R24)
    hill = 1 if pos.terrain.hills else 0
    if kind == CANNON:
        extra = 0 if piece.ready else 1
        step = STEPS[CANNON] + hill
        if len(squares) == 1 and squares[0] in pos.board and not own_only:
            return extra + 1 + _cannon_work(pos, piece, squares[0], step)
        moves = min(line_distance(piece.sq, sq) for sq in squares)
        return extra + -(-moves // step) + 1
    extra = 1 if kind == SOLDIER and piece.defending else 0
    away = distances(piece.sq)
    d = away[squares[0]] if len(squares) == 1 else min(map(away.__getitem__, squares))
    strike = STRIKES[kind] + hill  # an Archer: downhill its step grows, not its shot
    if d <= strike:
        return extra + 1
    return extra + 1 + -(-(d - strike) // (STEPS[kind] + hill))


def bound_to(pos: Position, piece: Piece, sq: int) -> int:
    """``bound(pos, piece, (sq,))``, for any piece but a Cannon looked up by distance
    (``_by_distance``): the threat search asks it of every piece at every node."""
    if piece.kind == CANNON:
        return bound(pos, piece, (sq,))
    kind = acting_kind(pos, piece)
    table = _by_distance(kind, bool(pos.terrain.hills), kind == SOLDIER and piece.defending)
    return table[distances(piece.sq)[sq]]


@cache
def _by_distance(kind: str, hill: bool, defending: bool) -> tuple[int, ...]:
    """``bound`` of a piece of ``kind`` (not a Cannon) by its distance to one square: 1 on
    the square itself, and beyond as ``bound`` counts."""
    extra = 1 if defending else 0  # a defending Soldier (``bound_to`` passes no other)
    strike = STRIKES[kind] + hill
    step = STEPS[kind] + hill
    beyond = [extra + 1 + max(0, -(-(d - strike) // step)) for d in range(1, 32)]
    return (1, *beyond)


# ``_cannon_work`` answers kept: a search asks them again at every node of a line of play
# that left the Cannon's lines to its target as they were. The oldest go first when full.
_KEPT = 1 << 13
_cannon_works: dict[tuple[object, ...], int] = {}


def _cannon_work(pos: Position, cannon: Piece, target: int, step: int) -> int:
    """``_count_cannon_work``, kept by what it reads: the Cannon, the target, the turn's
    actions, what is spent (its supporters) and, on the lines through the target as far as
    it looks and next to them, which squares hold a piece and which of them its own side."""
    if -(-line_distance(cannon.sq, target) // step) >= pos.actions_total:
        return pos.actions_total  # ``_count_cannon_work``'s first answer, without the key
    region = ray_region(pos.size, target, 3 * step + distances(cannon.sq)[target])
    key = (
        cannon,
        target,
        step,
        pos.actions_total,
        pos.size,
        pos.occupied & region,
        pos.side_bits[cannon.side] & region,
        frozenset(pos.spent),
    )
    found = _cannon_works.get(key)
    if found is None:
        found = keep(_cannon_works, key, _count_cannon_work(pos, cannon, target, step), _KEPT)
    return found


def _count_cannon_work(pos: Position, cannon: Piece, target: int, step: int) -> int:
    """Fewest actions before a Cannon can fire at the piece on ``target``: moves to a square
    on a line through it, plus clearing that line and gathering 2 supporters there. One action
    clears at most 2 pieces (a Cavalry trade) and brings at most 1 supporter, so the larger of
    the two needs counts (a piece stepping off the line next to the Cannon does both).

    Counts of a whole turn's actions or more come back as that number: a search never asks
    about more actions than a turn has, so they all mean "not in this turn"."""
    best = pos.actions_total
    if -(-line_distance(cannon.sq, target) // step) >= best:
        return best  # even the moves alone take too long
    reach = 3 * step
    away = distances(cannon.sq)
    # the i-th square of a ray is at least i + 1 - away[target] from the Cannon: squares past
    # ``last`` are out of its reach, and so is everything behind them on the ray
    last = reach + away[target]
    board, cid = pos.board, cannon.id
    for ray in rays(pos.size, target):
        blockers = 0
        for sq in ray[:last]:
            if -(-blockers // 2) >= best:
                break  # clearing the line further out costs at least this much
            pid = board.get(sq)
            occupied = 1 if pid is not None and pid != cid else 0
            d = away[sq]
            if d <= reach:
                moves = -(-d // step)
                clearing = -(-(blockers + occupied) // 2)
                if moves + clearing < best:
                    helpers = max(clearing, 2 - _free_supporters(pos, cannon, sq))
                    best = min(best, moves + helpers)
            blockers += occupied
    return best


def _free_supporters(pos: Position, cannon: Piece, spot: int) -> int:
    return sum(
        1
        for sq in neighbours(pos.size)[spot]
        if (pid := pos.board.get(sq)) is not None
        and pid != cannon.id
        and pos.pieces[pid].side == cannon.side
        and pid not in pos.spent
    )


def corridor(pos: Position, piece: Piece, squares: Iterable[int], actions: int) -> frozenset[int]:
    """Squares whose contents can matter to ``piece`` hitting ``squares`` within ``actions``."""
    squares = tuple(squares)
    kind = acting_kind(pos, piece)
    step = _steps(pos, kind)
    extra = (
        1 if (kind == SOLDIER and piece.defending) or (kind == CANNON and not piece.ready) else 0
    )
    if kind == CANNON:
        moves = max(0, actions - 1 - extra) * step
        return cannon_corridor(pos.size, piece.sq, squares, moves)
    reach = max(0, actions - 1 - extra) * step + _strike(pos, kind)
    return detour(pos.size, piece.sq, squares, reach)


def support_squares(pos: Position, cannon: Piece, goal: tuple[int, ...], actions: int) -> set[int]:
    """Where a supporter arriving could matter to a Cannon: next to a square it may act from
    (its own, or one within its moves with a line to the goal) that has fewer unspent friendly
    neighbours than its actions could ever spend (2 per action, 1 more for a wet move)."""
    step = _steps(pos, CANNON)
    extra = 0 if cannon.ready else 1
    moves = max(0, actions - 1 - extra) * step
    enough = 2 * actions + (1 if actions >= 2 else 0)
    spots = {cannon.sq} | line_spots(pos.size, cannon.sq, goal, moves)
    adj = neighbours(pos.size)
    short = [spot for spot in spots if _free_supporters(pos, cannon, spot) < enough]
    return {n for spot in short for n in adj[spot]}


def vacated(pos: Position, effect: Effect) -> set[int]:
    """Squares an action empties: where its piece stood, where standard pieces died.
    (Doomed command pieces stay on their squares until the round ends, R11.)"""
    out = set()
    piece = pos.pieces.get(effect.piece)
    if piece is not None and effect.rest != piece.sq:
        out.add(piece.sq)
    for pid in effect.hits + effect.losses:
        hit = pos.pieces.get(pid)
        if hit is not None and not hit.is_command:
            out.add(hit.sq)
    return out


def writes(pos: Position, effect: Effect) -> set[int]:
    """Squares an action empties or fills."""
    out = vacated(pos, effect)
    if effect.rest:
        out.add(effect.rest)
    return out


def writes_any(pos: Position, effect: Effect, squares: set[int]) -> bool:
    """``writes(pos, effect) & squares``, without building the set (asked of every action
    of a position that a search tries defences from)."""
    rest = effect.rest
    if rest and rest in squares:
        return True
    piece = pos.pieces.get(effect.piece)
    if piece is not None and rest != piece.sq and piece.sq in squares:
        return True
    for pid in effect.hits + effect.losses:
        hit = pos.pieces.get(pid)
        if hit is not None and hit.sq in squares and hit.kind not in COMMAND_KINDS:
            return True
    return False
