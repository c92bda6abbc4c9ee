"""Legal actions of one piece and what each does (R13-R23, R31-R33).

Every generator yields ``(Action, Effect)`` pairs, one per distinct effect, first the one the
engine prefers when the notation leaves a choice open (shortest path, unblocked arrow, default
supporters). Validation, notation and the jeopardy search all use these generators, so there is
exactly one statement of each piece's abilities.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from functools import cache
from itertools import combinations

from .actions import CROWN, FIRE, MOVE, READY, SEARCH, STANCE, Action
from .bits import mask
from .geometry import DELTAS, middles, neighbours, on_board
from .kept import keep
from .neighbourhood import cannon_key, piece_key
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
from .walk import Walk, walk_of

Pair = tuple[Action, Effect]
BASE_REACH = {GENERAL: 2, RULER: 3, ARCHER: 2, SOLDIER: 1, CAVALRY: 3, CANNON: 1, ASSASSIN: 3}


def piece_actions(
    pos: Position, piece: Piece, every_support: bool = False, distinct: bool = True
) -> list[Pair]:
    """The legal actions of one piece of the side to act, one per distinct effect.

    A Cannon's operations come with the engine's choice of supporters (R19); with
    ``every_support`` every other choice is listed too.
    """
    if pos.crown_pending[piece.side] or piece.id in pos.spent or not pos.can_act(piece):
        return []
    free = pos.free_take is not None and pos.free_take[0] == piece.id
    if pos.actions_left <= 0 and not free:
        return []
    terrain = pos.terrain
    if free or piece.hidden or terrain.water or terrain.hills:
        pairs = _pairs(pos, piece, every_support, free)
        return _distinct(pairs) if distinct else list(pairs)
    key = cannon_key(pos, piece, every_support) if piece.kind == CANNON else piece_key(pos, piece)
    found = _kept.get(key)
    if found is None:
        every = list(_pairs(pos, piece, every_support, free))
        listed = _distinct(every)
        found = keep(_kept, key, (listed, every if len(every) > len(listed) else listed), _KEPT)
    return list(found[0] if distinct else found[1])


# Lists of actions kept by ``piece_actions``: a search lists the actions of positions that
# differ from each other by a move or two, so most pieces' lists come back unchanged (the key
# is what the list reads, ``neighbourhood``). The oldest go first when full. Each is kept with
# the full list it was made from (duplicates of an effect included, most often the same list),
# which every action applied or written reads: the piece's actions were listed just before.
_KEPT = 1024
_kept: dict[tuple[object, ...], tuple[list[Pair], list[Pair]]] = {}


def _pairs(pos: Position, piece: Piece, every_support: bool, free: bool) -> Iterable[Pair]:
    pairs: Iterable[Pair]
    if piece.kind == CANNON:
        pairs = _cannon(pos, piece, every_support)
    else:
        pairs = _GENERATORS[piece.kind](pos, piece)
    return _with_free_take(pos, piece, pairs) if free else pairs


def _distinct(pairs: Iterable[Pair]) -> list[Pair]:
    """One pair per effect, the first (the engine's preference).

    Only an attack's effect comes twice (two middle squares of one shot, two squares to land
    from): every other effect of a piece is one square, stance, aim or choice of supporters,
    each given once, so only effects that hit are looked up (a test checks the lists)."""
    seen: set[Effect] = set()
    out: list[Pair] = []
    for pair in pairs:
        effect = pair[1]
        if effect.hits:
            size = len(seen)
            seen.add(effect)  # one hash of the effect, where ``in`` and ``add`` take two
            if len(seen) == size:
                continue
        out.append(pair)
    return out


def _with_free_take(pos: Position, piece: Piece, pairs: Iterable[Pair]) -> Iterator[Pair]:
    """R43: right after its search revealed the Assassin, the searcher may take it at no
    cost, by an attack on it from where it stands (or landing on it). Its other actions
    still cost one, and need one left."""
    assert pos.free_take is not None
    assassin = pos.pieces[pos.free_take[1]]
    for action, effect in pairs:
        if effect.hits == (assassin.id,) and effect.rest in (piece.sq, assassin.sq):
            yield action, effect._replace(free=True)
        elif pos.actions_left > 0:
            yield action, effect


def search_actions(pos: Position, piece: Piece) -> list[Pair]:
    """R43: any visible piece may search where it stands, or after the move part of an
    action (its own plain moves, a Cannon's with supporters)."""
    if not pos.assassins or piece.hidden or pos.actions_left <= 0:
        return []
    if pos.crown_pending[piece.side] or piece.id in pos.spent or not pos.can_act(piece):
        return []
    out = [(Action(SEARCH, piece.kind, piece.sq), Effect(SEARCH, piece.id, piece.sq))]
    for action, effect in piece_actions(pos, piece, distinct=False):
        if action.kind == MOVE and not effect.hits and not effect.losses and not action.target:
            out.append(
                (
                    Action(SEARCH, piece.kind, piece.sq, action.path, supporters=action.supporters),
                    Effect(SEARCH, piece.id, effect.rest, spent=effect.spent),
                )
            )
    return out


def crown_actions(pos: Position) -> list[Pair]:
    """R24: with a crown pending, the only actions are crowning one of the Generals."""
    side = pos.side
    if not pos.crown_pending[side]:
        return []
    generals = sorted(
        (p for p in pos.pieces.values() if p.side == side and p.kind == GENERAL),
        key=lambda p: (p.sq & 31, p.sq >> 5),
    )
    return [(Action(CROWN, origin=p.sq), Effect(CROWN, p.id, p.sq, crown=True)) for p in generals]


def all_actions(pos: Position) -> list[Pair]:
    """Every legal action of the side to act, in a fixed order (crown, then by square)."""
    crowns = crown_actions(pos)
    if crowns:
        return crowns
    out: list[Pair] = []
    for piece in acting_in_order(pos):
        out.extend(piece_actions(pos, piece))
    return out


def acting_in_order(pos: Position) -> list[Piece]:
    """The side to act's pieces in ``all_actions``'s order: by square."""
    return sorted(pos.side_pieces(pos.side), key=lambda p: (p.sq & 31, p.sq >> 5, p.id))


# ---- attacks -------------------------------------------------------------------------------
def enemy_at(pos: Position, sq: int, side: int) -> Piece | None:
    pid = pos.board.get(sq)
    if pid is None:
        return None
    piece = pos.pieces[pid]
    return piece if piece.side != side else None


def shots(
    pos: Position, piece: Piece, frm: int, reach: int, near: int, archer: bool
) -> Iterator[tuple[int, int, int]]:
    """(target, via, hit id) for each attack from ``frm`` up to ``reach`` (R17, R32).
    ``near``: the enemies within ``reach`` of ``frm`` to shoot at (as bits: all of them,
    ``enemies & _area``, or the one a question is about), which the caller works out and
    tests first: most squares a piece can go to have none, and the test costs less than a
    generator made for nothing."""
    pieces, board = pos.pieces, pos.board
    for target in _ring(pos.size, frm, 1):  # adjacent: nothing in between
        if near >> target & 1:
            yield target, 0, board[target]
    if reach < 2:
        return
    forest = pos.terrain.forest if archer else frozenset()
    mids = middles(pos.size)
    for target in _beyond(pos.size, frm, reach):
        if not near >> target & 1:
            continue
        victim = pieces[board[target]]
        if target in forest:
            continue
        for via in mids[frm, target]:
            if via in forest:
                continue
            guard = enemy_at(pos, via, piece.side)
            if guard is not None and guard.kind == SOLDIER and guard.defending:
                yield target, via, guard.id
            else:
                yield target, via, victim.id


@cache
def _area(size: int, frm: int, reach: int) -> int:
    """``_ring`` as a bitboard."""
    return mask(_ring(size, frm, reach))


@cache
def _beyond(size: int, frm: int, reach: int) -> tuple[int, ...]:
    """``_ring`` without its first ring (the squares next to ``frm``)."""
    return _ring(size, frm, reach)[len(_ring(size, frm, 1)) :]


@cache
def _ring(size: int, frm: int, reach: int) -> tuple[int, ...]:
    """Squares up to ``reach`` away, nearest first, each ring in reading order."""
    inside = on_board(size)
    return tuple(
        sq
        for ring in range(1, reach + 1)
        for dv in range(ring, -ring - 1, -1)
        for dh in range(-ring, ring + 1)
        if max(abs(dh), abs(dv)) == ring and (sq := frm + (dh << 5) + dv) in inside
    )


# ---- per piece -----------------------------------------------------------------------------
# A plain move's Action and Effect made as tuples: a named tuple's ``__new__`` is a Python
# function filling in the defaults, which costs more than twice the tuple itself, and every
# list is mostly plain moves, one for each square the piece can go to. The defaults are
# spelled out (a test checks them against the named tuples'): one tuple built, not two.
_tuple = tuple.__new__


def _move(letter: str, origin: int, path: tuple[int, ...], pid: int, sq: int) -> Pair:
    """``(Action(MOVE, letter, origin, path), Effect(MOVE, pid, sq))``, made faster."""
    return (
        _tuple(Action, (MOVE, letter, origin, path, 0, 0, "", -1, ())),
        _tuple(Effect, (MOVE, pid, sq, (), (), "", -1, (), False, False, -1, False)),
    )


def _moves(piece: Piece, walk: Walk) -> list[Pair]:
    """The piece's plain moves along ``walk``, one per rest in its order (``_move``), each
    pair made once and shared (``_plain_moves``)."""
    letter, origin, pid = piece.kind, piece.sq, piece.id
    known = _plain_moves
    out: list[Pair] = []
    for sq, path in walk.rests.items():
        key = (pid, letter, origin, path)
        pair = known.get(key)
        if pair is None:
            pair = keep(known, key, _move(letter, origin, path, pid, sq), _PLAIN_KEPT)
        out.append(pair)
    return out


# The plain moves made, by piece, letter, origin and path: most of a list of actions, and the
# same few come back in every list the piece's neighbourhood changes (``_kept`` misses it).
# Made once, they are not made again and again (two named tuples and their pair each, three
# objects the garbage collector walks for as long as a list keeps them). Immutable, so shared.
_PLAIN_KEPT = 1 << 14
_plain_moves: dict[tuple[int, str, int, tuple[int, ...]], Pair] = {}


def _strike(
    letter: str,
    origin: int,
    path: tuple[int, ...],
    target: int,
    via: int,
    pid: int,
    rest: int,
    hits: tuple[int, ...],
    attacks: bool,
) -> Pair:
    """``(Action(MOVE, letter, origin, path, target, via), Effect(MOVE, pid, rest, hits,
    attacks=attacks))``: an attack after a move (or none), made as ``_move`` makes a move."""
    return (
        _tuple(Action, (MOVE, letter, origin, path, target, via, "", -1, ())),
        _tuple(Effect, (MOVE, pid, rest, hits, (), "", -1, (), attacks, False, -1, False)),
    )


def _mover(pos: Position, piece: Piece, reach: int, attack_reach: int) -> list[Pair]:
    """General (R13), Ruler (R14): move 0..reach, then attack up to attack_reach."""
    can_attack = not (piece.kind == RULER and piece.id in pos.attacked) and _enemies_near(
        pos, piece, reach + attack_reach
    )
    walk = walk_of(pos, piece, reach)
    moves = _moves(piece, walk)
    if not can_attack:
        return moves
    once = piece.kind == RULER
    letter, origin, pid = piece.kind, piece.sq, piece.id
    enemies, size = pos.side_bits[1 - piece.side], pos.size
    out: list[Pair] = []
    near = enemies & _area(size, origin, attack_reach)
    if near:
        out += [
            _strike(letter, origin, (), target, via, pid, origin, (hit,), once)
            for target, via, hit in shots(pos, piece, origin, attack_reach, near, archer=False)
        ]
    for move, (sq, path) in zip(moves, walk.rests.items(), strict=True):
        out.append(move)
        near = enemies & _area(size, sq, attack_reach)
        if not near:
            continue
        for target, via, hit in shots(pos, piece, sq, attack_reach, near, archer=False):
            out.append(_strike(letter, origin, path, target, via, pid, sq, (hit,), once))
    _standard_landings(pos, piece, walk, once, out)
    return out


def _enemies_near(pos: Position, piece: Piece, reach: int) -> bool:
    """Is a visible enemy within ``reach`` of the piece (one more with high ground, where a
    move downhill goes one step further, R33)? None: it has no attack to list."""
    reach += 1 if pos.terrain.hills else 0
    return bool(pos.side_bits[1 - piece.side] & _area(pos.size, piece.sq, reach))


def _standard_landings(
    pos: Position, piece: Piece, walk: Walk, attacks: bool, out: list[Pair]
) -> None:
    """Landing on an enemy standard piece attacks it and takes its square (R23)."""
    pieces, board = pos.pieces, pos.board
    for (sq, _before), path in walk.lands.items():
        victim = pieces[board[sq]]
        if victim.kind not in COMMAND_KINDS:
            out.append(
                _strike(piece.kind, piece.sq, path, 0, 0, piece.id, sq, (victim.id,), attacks)
            )


def _command_landings(pos: Position, piece: Piece, walk: Walk, out: list[Pair]) -> None:
    """Landing on a command piece: it stays until the round ends (R11), so the attacker
    strikes from the square before it on its path (our reading of R1 + R11 + R23)."""
    pieces, board = pos.pieces, pos.board
    for (sq, before), path in walk.lands.items():
        victim = pieces[board[sq]]
        if victim.kind in COMMAND_KINDS and (before == piece.sq or before not in board):
            out.append(
                _strike(piece.kind, piece.sq, path, 0, 0, piece.id, before, (victim.id,), False)
            )


def _general(pos: Position, piece: Piece) -> list[Pair]:
    return _mover(pos, piece, 2, 1)


def _ruler(pos: Position, piece: Piece) -> list[Pair]:
    return _mover(pos, piece, 3, 2)


def _archer(pos: Position, piece: Piece) -> list[Pair]:
    """R15: (a) move up to 2 without attacking; (b) move 1, landing attacks, or move 1 and
    attack up to 1; (c) stay and attack up to 2. At most one attack per turn."""
    moves = _moves(piece, walk_of(pos, piece, 2))
    if piece.id in pos.attacked or not _enemies_near(pos, piece, 2):
        return moves
    origin, pid = piece.sq, piece.id
    enemies, size = pos.side_bits[1 - piece.side], pos.size
    out: list[Pair] = []
    near = enemies & _area(size, origin, 2)
    if near:
        out += [
            _strike(ARCHER, origin, (), target, via, pid, origin, (hit,), True)
            for target, via, hit in shots(pos, piece, origin, 2, near, archer=True)
        ]
    out += moves
    short = walk_of(pos, piece, 1)
    for sq, path in short.rests.items():
        near = enemies & _area(size, sq, 1)
        if not near:
            continue
        for target, via, hit in shots(pos, piece, sq, 1, near, archer=True):
            out.append(_strike(ARCHER, origin, path, target, via, pid, sq, (hit,), True))
    _standard_landings(pos, piece, short, True, out)
    return out


def _soldier(pos: Position, piece: Piece) -> list[Pair]:
    """R16: switch stance, or in attack stance move 1 attacking where it lands."""
    stance = "attack" if piece.defending else "defend"
    out = [
        (
            Action(STANCE, SOLDIER, piece.sq, stance=stance),
            Effect(STANCE, piece.id, piece.sq, stance=stance),
        )
    ]
    if piece.defending:
        return out
    walk = walk_of(pos, piece, 1)
    out += _moves(piece, walk)
    _standard_landings(pos, piece, walk, False, out)
    _command_landings(pos, piece, walk, out)
    return out


def _cavalry(pos: Position, piece: Piece) -> list[Pair]:
    """R18: move up to 3 jumping over pieces, attack by landing; trade with defending Soldiers."""
    walk = walk_of(pos, piece, 3, jump=True)
    out = _moves(piece, walk)
    _standard_landings(pos, piece, walk, False, out)
    _command_landings(pos, piece, walk, out)
    for sq, path in walk.trades.items():
        soldier = pos.board[sq]
        out.append(
            (
                Action(MOVE, CAVALRY, piece.sq, path),
                Effect(MOVE, piece.id, 0, (soldier,), (piece.id,)),
            )
        )
    return out


def supporter_choices(
    pos: Position, cannon: Piece, needed: int, every: bool = True
) -> list[tuple[Piece, ...]]:
    """R19: sets of ``needed`` unspent friendly neighbours, the engine's choice first
    (only that one unless ``every``).

    The engine prefers pieces already operated this turn, then the cheapest, then reading order.
    """
    candidates = [
        p
        for sq in neighbours(pos.size)[cannon.sq]
        if (p := pos.at(sq)) is not None and p.side == cannon.side and p.id not in pos.spent
    ]
    if len(candidates) < needed:
        return []
    default = tuple(sorted(sorted(candidates, key=support_preference(pos))[:needed], key=_reading))
    if not every:
        return [default]
    others = [
        combo
        for combo in combinations(sorted(candidates, key=_reading), needed)
        if combo != default
    ]
    return [default, *others]


def support_preference(pos: Position) -> Callable[[Piece], tuple[bool, int, tuple[int, int]]]:
    """Which friendly pieces a Cannon takes as supporters first (R19): those that have not
    acted this turn, then the cheapest, then in reading order."""

    def key(p: Piece) -> tuple[bool, int, tuple[int, int]]:
        return (p.id not in pos.operated, pos.values[p.kind], _reading(p))

    return key


def _reading(p: Piece) -> tuple[int, int]:
    return (p.sq & 31, p.sq >> 5)


def _assassin(pos: Position, piece: Piece) -> list[Pair]:
    """R42: move 0 to 3 (terrain applies), then may attack one enemy piece up to 1 away, its
    own square included. Hidden, it passes through and shares squares (R40); revealed, it is
    a standard piece (R44) that moves like any other."""
    if not piece.hidden:
        return _mover(pos, piece, 3, 1)
    walk = walk_of(pos, piece, 3, ghost=True)
    out: list[Pair] = []
    for sq, path in [(piece.sq, ()), *walk.rests.items()]:
        if path:
            out.append(_move(ASSASSIN, piece.sq, path, piece.id, sq))
        for target in (sq, *_ring(pos.size, sq, 1)):
            victim = enemy_at(pos, target, piece.side)
            if victim is not None:
                out.append(
                    (
                        Action(MOVE, ASSASSIN, piece.sq, path, target),
                        Effect(MOVE, piece.id, sq, (victim.id,)),
                    )
                )
    return out


def _cannon(pos: Position, piece: Piece, every: bool) -> Iterator[Pair]:
    """R19-R22: fire, move 1 into an empty square, or ready; each needs supporters."""
    water = pos.terrain.water
    if not piece.ready:
        for combo in supporter_choices(pos, piece, 2, every):
            squares, ids = _support(combo)
            yield (  # the named tuples' defaults spelled out, as ``_move`` makes a move
                _tuple(Action, (READY, CANNON, piece.sq, (), 0, 0, "", -1, squares)),
                _tuple(
                    Effect, (READY, piece.id, piece.sq, (), (), "", 1, ids, False, False, -1, False)
                ),
            )
        return
    two = supporter_choices(pos, piece, 2, every)
    origin, pid = piece.sq, piece.id
    for direction in range(8):
        hit = _line_of_fire(pos, piece, direction)
        if hit is None:
            continue
        for combo in two:
            squares, ids = _support(combo)
            yield (
                _tuple(Action, (FIRE, CANNON, origin, (), 0, 0, "", direction, squares)),
                _tuple(
                    Effect, (FIRE, pid, origin, hit, (), "", 0, ids, False, False, direction, False)
                ),
            )
    three: list[tuple[Piece, ...]] | None = None
    for sq, path in walk_of(pos, piece, 1).rests.items():
        wet = piece.sq in water or any(s in water for s in path)
        if wet and three is None:
            three = supporter_choices(pos, piece, 3, every)
        for combo in (three or []) if wet else two:
            squares, ids = _support(combo)
            yield (
                _tuple(Action, (MOVE, CANNON, origin, path, 0, 0, "", -1, squares)),
                _tuple(Effect, (MOVE, pid, sq, (), (), "", -1, ids, False, False, -1, False)),
            )


def _support(combo: tuple[Piece, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return tuple([p.sq for p in combo]), tuple([p.id for p in combo])


def _line_of_fire(pos: Position, cannon: Piece, direction: int) -> tuple[int, ...] | None:
    """What a shot hits (R21): () for nothing, (id,) for an enemy, None when a friend is first."""
    inside = on_board(pos.size)
    delta = DELTAS[direction]
    sq = cannon.sq + delta
    while sq in inside:
        pid = pos.board.get(sq)
        if pid is not None:
            return (pid,) if pos.pieces[pid].side != cannon.side else None
        sq += delta
    return ()


# Each kind's actions; a Cannon's (``_cannon``) come with the choice of its supporters.
_GENERATORS: dict[str, Callable[[Position, Piece], list[Pair]]] = {
    GENERAL: _general,
    RULER: _ruler,
    ARCHER: _archer,
    SOLDIER: _soldier,
    CAVALRY: _cavalry,
    ASSASSIN: _assassin,
}
