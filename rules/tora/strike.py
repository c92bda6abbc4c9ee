"""Can one piece attack one target with one action? The question the jeopardy search asks at
every leaf (R29), answered with the same abilities as the action generator (movegen).

Two ways to the same answer. ``walk_hits`` builds the piece's full ``Walk`` (every path it
could take) and looks for the target among its landings and shots. ``hits`` asks only about
the target, on bitboards: the squares a piece can rest on within its reach are a few shifts
of the empty squares, and a piece hits the target when one of them is close enough (a
landing attack is always matched by a shot from the square before it, except for the Cavalry
and the Soldier, who attack only by landing). High ground (R33) makes a step's cost depend
on its direction, which no shift captures: boards with hills keep ``walk_hits``.
"""

from __future__ import annotations

from .bits import grow, inside, mask, ring, spread, squares_of
from .geometry import DELTAS, distance, middles, neighbours, on_board
from .movegen import enemy_at, shots
from .pieces import ARCHER, ASSASSIN, CANNON, CAVALRY, GENERAL, RULER, SOLDIER, Piece
from .position import Position
from .walk import Walk, walk_of

# kind -> (reach of its attack after moving, steps of its move): R13, R14, R15, R42
_MOVER = {GENERAL: (1, 2), RULER: (2, 3), ASSASSIN: (1, 3)}


def hits(pos: Position, piece: Piece, target: int) -> bool:
    """Can this piece of the side to act attack the piece on ``target`` with one action?"""
    if not _may_attack(pos, piece):
        return False
    kind = piece.kind
    if kind == CANNON:
        return _cannon_hits(pos, piece, target)
    if pos.terrain.hills:
        return _walk_hits(pos, piece, target)
    if kind == SOLDIER:
        return not piece.defending and distance(piece.sq, target) == 1
    if kind == CAVALRY:
        return _cavalry_lands(pos, piece, target)
    if kind in (ARCHER, RULER) and piece.id in pos.attacked:
        return False
    if kind == ARCHER:
        return _archer_hits(pos, piece, target)
    return _mover_hits(pos, piece, target)


def walk_hits(pos: Position, piece: Piece, target: int) -> bool:
    """``hits`` through the piece's full Walk, on any terrain."""
    if not _may_attack(pos, piece):
        return False
    if piece.kind == CANNON:
        return _cannon_hits(pos, piece, target)
    return _walk_hits(pos, piece, target)


def _may_attack(pos: Position, piece: Piece) -> bool:
    return (
        pos.actions_left >= 1
        and piece.id not in pos.spent
        and not pos.crown_pending[piece.side]
        and pos.can_act(piece)
    )


# ---- on bitboards (no high ground) ---------------------------------------------------------
def _rests(pos: Position, piece: Piece, base: int, open_: int) -> int:
    """Where a move of ``base`` steps through ``open_`` squares may end (its start included):
    a path entering water has its reach cut by one, never below 1 (R31)."""
    board = inside(pos.size)
    start = 1 << piece.sq
    water = pos.terrain.water
    if not water:
        return spread(start, open_, base, board)
    dry = spread(start, open_ & ~mask(water), base, board)
    return dry | spread(start, open_, max(1, base - 1), board)


def _mover_hits(pos: Position, piece: Piece, target: int) -> bool:
    """General, Ruler, revealed Assassin: move, then attack from where the move ended."""
    reach, base = _MOVER[piece.kind]
    if distance(piece.sq, target) > reach + base:
        return False
    empty = inside(pos.size) & ~pos.occupied
    rests = _rests(pos, piece, base, empty)
    if rests & ring(pos.size, target, 1):
        return True
    if reach < 2:
        return False
    return any(
        _clear_shot(pos, piece, sq, target, False)
        for sq in squares_of(rests & ring(pos.size, target, 2))
    )


def _archer_hits(pos: Position, piece: Piece, target: int) -> bool:
    """R15: stay and shoot up to 2 (R17, R32), or step 1 and shoot at an adjacent piece."""
    d = distance(piece.sq, target)
    if d == 1:
        return True
    if d == 2 and _clear_shot(pos, piece, piece.sq, target, True):
        return True
    empty = inside(pos.size) & ~pos.occupied
    steps = grow(1 << piece.sq, inside(pos.size)) & empty
    return bool(steps & ring(pos.size, target, 1))


def _clear_shot(pos: Position, piece: Piece, frm: int, target: int, archer: bool) -> bool:
    """A reach-2 attack from ``frm`` reaches the target itself over some middle square:
    not through forest for an Archer (R32), not over an enemy defending Soldier (R17)."""
    forest = pos.terrain.forest if archer else frozenset()
    if target in forest:
        return False
    for via in middles(pos.size)[frm, target]:
        if via in forest:
            continue
        guard = enemy_at(pos, via, piece.side)
        if guard is None or guard.kind != SOLDIER or not guard.defending:
            return True
    return False


def _cavalry_lands(pos: Position, piece: Piece, target: int) -> bool:
    """R18: up to 3 steps jumping over any piece but a defending Soldier, landing on the
    target; landing on a defending Soldier is a trade, not this attack. On a command piece
    it strikes from the square before it, which must be free (or its own start)."""
    if distance(piece.sq, target) > 3:
        return False
    victim = pos.pieces[pos.board[target]]
    if victim.kind == SOLDIER and victim.defending:
        return False
    board = inside(pos.size)
    open_ = board & ~pos.guards
    start = 1 << piece.sq
    water = pos.terrain.water
    before = spread(start, open_, 2 if not water else 1, board)
    if water and target not in water:
        before |= spread(start, open_ & ~mask(water), 2, board)
    if victim.is_command:
        before &= (board & ~pos.occupied) | start
    return bool(before & ring(pos.size, target, 1))


# ---- through the full Walk -----------------------------------------------------------------
def _walk_hits(pos: Position, piece: Piece, target: int) -> bool:
    kind = piece.kind
    if kind == SOLDIER:
        return not piece.defending and _lands_on(pos, piece, walk_of(pos, piece, 1), target)
    if kind == CAVALRY:
        walk = walk_of(pos, piece, 3, jump=True)
        return _lands_on(pos, piece, walk, target)
    if kind in (ARCHER, RULER) and piece.id in pos.attacked:
        return False
    victim = pos.pieces[pos.board[target]]
    reach, base, archer = {
        GENERAL: (1, 2, False),
        RULER: (2, 3, False),
        ARCHER: (1, 1, True),
        ASSASSIN: (1, 3, False),
    }[kind]
    if _shoots(pos, piece, piece.sq, 2 if archer else reach, target, archer, victim.id):
        return True
    walk = walk_of(pos, piece, base)
    if _lands_on(pos, piece, walk, target):
        return True
    return any(
        distance(sq, target) <= reach and _shoots(pos, piece, sq, reach, target, archer, victim.id)
        for sq in walk.rests
    )


def _shoots(
    pos: Position, piece: Piece, frm: int, reach: int, target: int, archer: bool, victim: int
) -> bool:
    if distance(frm, target) > reach:
        return False
    near = pos.side_bits[1 - piece.side] & 1 << target  # the one enemy asked about, or none
    return bool(near) and any(
        hit == victim for _sq, _via, hit in shots(pos, piece, frm, reach, near, archer)
    )


def _lands_on(pos: Position, piece: Piece, walk: Walk, target: int) -> bool:
    victim = pos.pieces[pos.board[target]]
    for sq, before in walk.lands:
        if sq == target and (
            not victim.is_command or before == piece.sq or before not in pos.board
        ):
            return True
    return False


# ---- Cannon --------------------------------------------------------------------------------
def _cannon_hits(pos: Position, cannon: Piece, target: int) -> bool:
    """R19, R21: a ready, supported Cannon whose line reaches the target first."""
    if not cannon.ready or pos.actions_left < 1:
        return False
    board = on_board(pos.size)
    for delta in DELTAS:
        sq = cannon.sq + delta
        while sq in board and sq not in pos.board:
            sq += delta
        if sq == target:
            return supporters(pos, cannon) >= 2
    return False


def supporters(pos: Position, cannon: Piece) -> int:
    """Unspent friendly pieces next to a Cannon (R19)."""
    return sum(
        1
        for sq in neighbours(pos.size)[cannon.sq]
        if (pid := pos.board.get(sq)) is not None
        and pos.pieces[pid].side == cannon.side
        and pid not in pos.spent
    )
