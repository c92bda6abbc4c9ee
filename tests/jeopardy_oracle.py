"""The test oracle for ``rules/tora/jeopardy.py``: that module as it was before the
rules-speed work of issue 26 (commit 4c4dce3), its code unchanged but for its imports and
rulings fixed since (``next_turn`` crowns at the round's end, R24; a series' target
reached leaves no next turn, R28). The product's searches
must agree with it (test_rules_search_oracle.py).

Jeopardy (R29), the end-of-turn restriction (R30) and trapped (R25).

A piece is in jeopardy when the opponent, with the actions of their next turn, has a sequence
of actions whose last one attacks it. The search is exact; it stays fast by pruning only
actions that provably cannot matter:

* ``bound``: an optimistic count of a piece's own actions before it can hit a square, ignoring
  every blocker (terrain at its kindest, cannons always supported). A piece whose bound exceeds
  the actions left can never be the attacker.
* ``corridor``: the squares whose contents can influence whether a piece hits a square within a
  number of its own actions (its paths, the middle squares of its shots, its cannon lines and
  supporters). An action that writes no square of the corridor of any possible attacker, and
  that does not bring a new piece within bound, cannot create a threat; with iterative
  deepening (no shorter threat exists) it can be skipped. For three actions, a first action may
  also enable a helper that then clears a corridor; those enablers are kept too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from rules.sides import Side
from rules.tora.endings import end_round, no_next_turn
from rules.tora.geometry import distances, neighbours
from rules.tora.movegen import Pair, all_actions, piece_actions
from rules.tora.pieces import (
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
from rules.tora.position import Effect, Position
from rules.tora.reach import cannon_corridor, detour, line_distance, line_spots, ray_region, rays
from rules.tora.strike import hits

Filter = Callable[[Piece], bool]


_STEPS = {GENERAL: 2, RULER: 3, ARCHER: 2, SOLDIER: 1, CAVALRY: 3, CANNON: 1, ASSASSIN: 3}
_STRIKES = {GENERAL: 3, RULER: 5, ARCHER: 2, SOLDIER: 1, CAVALRY: 3, ASSASSIN: 4}


def _steps(pos: Position, kind: str) -> int:
    """Greatest distance one action can carry a piece (downhill adds one, R33)."""
    return _STEPS[kind] + (1 if pos.terrain.hills else 0)


def _strike(pos: Position, kind: str) -> int:
    """Greatest distance a piece's last action can hit at: move and attack together
    (an Archer's reach-2 shot does not grow downhill: it does not move)."""
    if kind == ARCHER:
        return 2 + (1 if pos.terrain.hills else 0)
    return _STRIKES[kind] + (1 if pos.terrain.hills else 0)


def _kind(pos: Position, piece: Piece) -> str:
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
        step = _STEPS[CANNON] + hill
        if len(squares) == 1 and squares[0] in pos.board and not own_only:
            return extra + 1 + _cannon_work(pos, piece, squares[0], step)
        moves = min(line_distance(piece.sq, sq) for sq in squares)
        return extra + -(-moves // step) + 1
    extra = 1 if kind == SOLDIER and piece.defending else 0
    away = distances(piece.sq)
    d = away[squares[0]] if len(squares) == 1 else min(map(away.__getitem__, squares))
    strike = _STRIKES[kind] + hill  # an Archer: downhill its step grows, not its shot
    if d <= strike:
        return extra + 1
    return extra + 1 + -(-(d - strike) // (_STEPS[kind] + hill))


# ``_cannon_work`` answers kept: a search asks them again at every node of a line of play
# that left the Cannon's lines to its target as they were. Dropped at once when full.
_KEPT = 1 << 13
_cannon_works: dict[tuple[object, ...], int] = {}


def _cannon_work(pos: Position, cannon: Piece, target: int, step: int) -> int:
    """``_count_cannon_work``, kept by what it reads: the Cannon, the target, the turn's
    actions, what is spent (its supporters) and, on the lines through the target as far as
    it looks and next to them, which squares hold a piece and which of them its own side."""
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
        if len(_cannon_works) >= _KEPT:
            _cannon_works.clear()
        found = _cannon_works[key] = _count_cannon_work(pos, cannon, target, step)
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
    kind = _kind(pos, piece)
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


class Zone:
    """Where a helper's action could make a difference to some attacks.

    For any attacker but a Cannon, an action helps only by emptying a square of its corridor
    (a piece standing in the way leaves or dies): filling a square never opens a path, and
    only an enemy defending Soldier blocks an arrow. A Cannon also needs supporters to arrive
    next to it, so its surroundings count when a piece enters them.
    """

    def __init__(self) -> None:
        self.squares: set[int] = set()
        self.arrivals: set[int] = set()
        # the occupied squares and the arrivals as ``bound``'s goals, listed once for all
        # the helpers ``reachable`` is asked about (one position, the zone complete)
        self._goals: tuple[tuple[int, ...], tuple[int, ...]] | None = None

    def add(self, pos: Position, piece: Piece, goal: tuple[int, ...], actions: int) -> None:
        self.squares |= corridor(pos, piece, goal, actions)
        if piece.kind == CANNON:
            self.arrivals |= support_squares(pos, piece, goal, actions)
        self._goals = None

    def reachable(self, pos: Position, piece: Piece) -> bool:
        """Can the piece empty or enter a square of the zone in one action (optimistically)?"""
        if piece.sq in self.squares:
            return True
        if self._goals is None:
            board = pos.board
            occupied = tuple(sq for sq in self.squares if sq in board)
            self._goals = occupied, tuple(self.arrivals)
        occupied, arrivals = self._goals
        if occupied and bound(pos, piece, occupied) <= 1:
            return True
        return bool(arrivals) and bound(pos, piece, arrivals) <= 1

    def helped_by(self, pos: Position, effect: Effect) -> bool:
        """The action enters an arrival square or empties a square of the zone
        (``vacated``, asked square by square)."""
        if effect.rest and effect.rest in self.arrivals:
            return True
        squares = self.squares
        piece = pos.pieces.get(effect.piece)
        if piece is not None and effect.rest != piece.sq and piece.sq in squares:
            return True
        for pid in effect.hits + effect.losses:
            hit = pos.pieces.get(pid)
            if hit is not None and hit.sq in squares and hit.kind not in COMMAND_KINDS:
                return True
        return False


class ThreatSearch:
    """Can the side to act hit the piece on ``target`` within ``actions`` actions of one turn?

    Iterative deepening over the number of actions n; for each n, each piece that could make
    the final attack is tried in turn. When that piece needs all n actions itself (no slack),
    only its own actions are searched; with slack, helpers that write its corridor are tried.
    ``attacker_ok`` limits which pieces may make the final attack (R30's exception).
    """

    def __init__(self, target: int, actions: int, attacker_ok: Filter | None = None) -> None:
        self.target = target
        self.actions = actions
        self.attacker_ok = attacker_ok or (lambda piece: True)
        self.refuted: set[tuple[SearchKey, int, int]] = set()  # (position, piece, actions)
        self.deps: set[int] = set()  # squares the threat found depends on (its witness)
        self.work = 0  # steps taken (``_by`` calls): what a caller with a budget pays

    def run(self, pos: Position) -> bool:
        if self.actions <= 0 or pos.board.get(self.target) is None:
            return False
        if pos.crown_pending[pos.side]:
            for _action, effect in all_actions(pos):
                child = pos.copy()
                child.commit(effect)
                if self._deepening(child):
                    self.deps.add(pos.pieces[effect.piece].sq)
                    return True
            return False
        return self._deepening(pos)

    def _deepening(self, pos: Position) -> bool:
        target = (self.target,)
        finishers = sorted(
            (bound(pos, p, target), p.id)
            for p in pos.side_pieces(pos.side)
            if not p.hidden and p.id not in pos.spent
        )
        for n in range(1, self.actions + 1):
            for need, pid in finishers:
                if need > n:
                    break
                if self._by(pos, pid, n):
                    return True
        return False

    def _by(self, pos: Position, pid: int, n: int) -> bool:
        """n actions, the last one by piece ``pid`` hitting the target; none shorter exists."""
        self.work += 1
        piece = pos.pieces.get(pid)
        if piece is None or pid in pos.spent or pos.actions_left < n:
            return False
        need = bound(pos, piece, (self.target,))
        if need > n:
            return False
        if n == 1:
            if self.attacker_ok(piece) and self._hits(pos, piece):
                self.deps |= corridor(pos, piece, (self.target,), 1) | {piece.sq}
                if piece.kind == CANNON:
                    self.deps.update(neighbours(pos.size)[piece.sq])
                return True
            return False
        key = (search_key(pos), pid, n)
        if key in self.refuted:
            return False
        for effect in self._first_actions(pos, piece, n):
            child = pos.copy()
            child.commit(effect)
            if self._by(child, pid, n - 1):
                mover = pos.pieces[effect.piece]
                touched = writes(pos, effect)
                self.deps |= touched | {mover.sq} | corridor(pos, mover, tuple(touched), 1)
                if mover.kind == CANNON:
                    self.deps.update(neighbours(pos.size)[mover.sq])
                return True
        self.refuted.add(key)
        return False

    def _hits(self, pos: Position, piece: Piece) -> bool:
        return hits(pos, piece, self.target)

    def _first_actions(self, pos: Position, finisher: Piece, n: int) -> list[Effect]:
        victim = pos.board[self.target]
        target = (self.target,)
        own = piece_actions(pos, finisher, every_support=n >= 3)
        if finisher.kind == CANNON and n == 2:
            own = _thriftiest(pos, piece_actions(pos, finisher, every_support=True))
        out = [
            effect
            for _a, effect in own
            if victim not in effect.hits and progresses(pos, effect, [(target, n - 1)])
        ]
        if bound(pos, finisher, target, own_only=True) > n - 1:
            return out  # no slack: the finisher needs every action itself
        zone = Zone()
        zone.add(pos, finisher, target, n - 1)
        goals: dict[int, Goals] = {}
        if n >= 3 and bound(pos, finisher, target, own_only=True) <= n - 2:
            inner = Zone()
            inner.add(pos, finisher, target, n - 2)
            jobs = tuple(sq for sq in inner.squares if sq in pos.board) + tuple(inner.arrivals)
            for helper in self._helpers(pos, finisher) if jobs else ():
                helper_need = bound(pos, helper, jobs)
                if helper_need <= n - 2:
                    zone.add(pos, helper, jobs, n - 2)
                if helper_need <= n - 1:
                    goals[helper.id] = [(jobs, n - 2)]
        for helper in self._helpers(pos, finisher):
            if helper.id not in goals and not zone.reachable(pos, helper):
                continue
            for _a, effect in piece_actions(pos, helper):
                if victim in effect.hits:
                    continue
                if zone.helped_by(pos, effect) or progresses(pos, effect, goals.get(helper.id)):
                    out.append(effect)
        return out

    @staticmethod
    def _helpers(pos: Position, finisher: Piece) -> list[Piece]:
        return [
            p
            for p in pos.side_pieces(pos.side)
            if p.id != finisher.id and not p.hidden and p.id not in pos.spent
        ]


def _thriftiest(pos: Position, pairs: list[Pair]) -> list[Pair]:
    """For a Cannon action followed only by its shot: of the supporter choices for the same
    operation keep the one that spends fewest pieces next to where the Cannon ends, so the
    most remain to support the shot (the only thing the choice can change)."""
    best: dict[Effect, tuple[int, Pair]] = {}
    adj = neighbours(pos.size)
    for action, effect in pairs:
        key = effect._replace(spent=())
        cost = sum(1 for pid in effect.spent if pos.pieces[pid].sq in adj[effect.rest])
        if key not in best or cost < best[key][0]:
            best[key] = (cost, (action, effect))
    return [pair for _cost, pair in best.values()]


Goals = list[tuple[tuple[int, ...], int]]  # squares to reach, and within how many actions


def progresses(pos: Position, effect: Effect, goals: Goals | None) -> bool:
    """The action brings its own piece within bound of one of its goals."""
    if not goals or not effect.rest or effect.piece in effect.losses:
        return False
    piece = pos.pieces[effect.piece]
    defending = effect.stance == "defend" if effect.stance else piece.defending
    ready = bool(effect.ready) if effect.ready >= 0 else piece.ready
    moved = Piece(
        piece.id, piece.side, piece.kind, effect.rest, defending, ready, piece.doomed, piece.hidden
    )
    return any(bound(pos, moved, sq) <= n for sq, n in goals)


def in_jeopardy(pos: Position, target: int, attacker_ok: Filter | None = None) -> bool:
    """R29 for the piece on ``target``, judged against the side to act in ``pos``."""
    return ThreatSearch(target, pos.actions_total, attacker_ok).run(pos)


def next_turn(pos: Position) -> Position:
    """The position the opponent will start their next turn from (R29): after the
    Opposition's turn the round ends first, removing doomed command pieces. Hidden
    Assassins are left out: they create no jeopardy and no one can attack them."""
    following = pos.public()
    if pos.side == Side.OPPOSITION:
        end_round(following)
    following.start_turn(pos.side.other)
    return following


def r30_offenders(pos: Position) -> list[Piece]:
    """Operated command pieces of the side to act that would end this turn in jeopardy."""
    side = pos.side
    operated = [p for p in pos.commanders(side) if p.id in pos.operated and not p.doomed]
    if not operated:
        return []
    after = next_turn(pos)
    if no_next_turn(after):
        return []  # the opponent loses at this round's end and never gets that turn (R29)
    offenders = []
    for piece in operated:
        if piece.id not in after.pieces:
            continue
        exempt_doomed = side == Side.CHALLENGER and piece.id in pos.slew
        attacker_ok = (lambda p: not (p.is_command and p.doomed)) if exempt_doomed else None
        if in_jeopardy(after, piece.sq, attacker_ok):
            offenders.append(piece)
    return offenders


SearchKey = tuple[frozenset[Piece], int, frozenset[int], frozenset[int], frozenset[int]]


def search_key(pos: Position) -> SearchKey:
    """What a search tells positions apart by: the pieces and what the turn has used."""
    return (
        frozenset(pos.pieces.values()),
        pos.actions_used,
        frozenset(pos.spent),
        frozenset(pos.attacked),
        frozenset(pos.operated),
    )
