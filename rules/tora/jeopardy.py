"""Jeopardy (R29), the end-of-turn restriction (R30) and trapped (R25).

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

Both are in ``bounds``. Two more shortcuts, exact as well:

* the pieces that could make the final attack within the same number of actions are tried
  in any order (each is searched in full, and iterative deepening has ruled out every
  shorter threat), so a Cannon, whose search with the helpers it needs is the widest, goes
  last: the threat another piece makes is usually found first;
* a Cannon's shot right after a helper's action (``_LastShot``) needs, after that action,
  the line to the target clear and two supporters: a helper, or an action, that cannot give
  both is not tried.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cache

from ..sides import Side
from .actions import SEARCH
from .bounds import STEPS, STRIKES, bound, bound_to, corridor, support_squares, writes
from .endings import end_round
from .geometry import distances, neighbours
from .movegen import Pair, all_actions, piece_actions
from .pieces import CANNON, COMMAND_KINDS, GENERAL, RULER, SOLDIER, Piece
from .position import Effect, Position
from .reach import between
from .strike import hits

Filter = Callable[[Piece], bool]


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
        """Any order of the finishers of one n is exact: each is searched in full, and no
        threat shorter than n exists. A Cannon, whose search with the helpers it needs is
        the widest, goes last, so the threat another piece makes is usually found first."""
        target, spent = self.target, pos.spent
        finishers = sorted(
            (p.kind == CANNON, bound_to(pos, p, target), p.id, p)
            for p in pos.side_pieces(pos.side)
            if not p.hidden and p.id not in spent
        )
        left = pos.actions_left
        for n in range(1, self.actions + 1):
            for _cannon, need, _pid, piece in finishers:
                if need <= n:  # ``_by``, its checks known to pass here but the last
                    self.work += 1
                    if left >= n and self._within(pos, piece, n, root=True):
                        return True
        return False

    def _by(self, pos: Position, pid: int, n: int) -> bool:
        """n actions, the last one by piece ``pid`` hitting the target; none shorter exists."""
        self.work += 1
        piece = pos.pieces.get(pid)
        if piece is None or pid in pos.spent or pos.actions_left < n:
            return False
        if bound_to(pos, piece, self.target) > n:
            return False
        return self._within(pos, piece, n)

    def _within(self, pos: Position, piece: Piece, n: int, root: bool = False) -> bool:
        """``_by`` once the piece is known able to act and within ``bound`` of the target.
        At the root of the deepening (``root``) no other line of play reaches ``pos`` (an
        action adds one to ``actions_used``, which ``search_key`` holds, and a free take
        (R43), which adds none, removes a piece for good), so the search there neither asks
        nor keeps its refutations."""
        pid = piece.id
        if n == 1:
            if self.attacker_ok(piece) and self._hits(pos, piece):
                self.deps |= corridor(pos, piece, (self.target,), 1) | {piece.sq}
                if piece.kind == CANNON:
                    self.deps.update(neighbours(pos.size)[piece.sq])
                return True
            return False
        key = None if root else (search_key(pos), pid, n)
        if key is not None and key in self.refuted:
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
        if key is not None:
            self.refuted.add(key)
        return False

    def _hits(self, pos: Position, piece: Piece) -> bool:
        return hits(pos, piece, self.target)

    def _first_actions(self, pos: Position, finisher: Piece, n: int) -> Iterator[Effect]:
        """The finisher's own actions first, then the helpers': given one at a time, so
        that the helpers' are only worked out when no own action leads to the threat."""
        victim = pos.board[self.target]
        target = (self.target,)
        own = piece_actions(pos, finisher, every_support=n >= 3)
        if finisher.kind == CANNON and n == 2:
            own = _thriftiest(pos, piece_actions(pos, finisher, every_support=True))
        yield from _towards(pos, finisher, self.target, n - 1, own)
        if bound(pos, finisher, target, own_only=True) > n - 1:
            return  # no slack: the finisher needs every action itself
        shot = _LastShot(pos, finisher, self.target) if finisher.kind == CANNON and n == 2 else None
        if shot is not None and not shot.possible:
            return  # only a move of its own can bring the Cannon in line
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
            if shot is not None and not shot.may_help(pos, helper):
                continue
            if helper.id not in goals and not zone.reachable(pos, helper):
                continue
            for _a, effect in piece_actions(pos, helper):
                if victim in effect.hits or (shot is not None and not shot.after(pos, effect)):
                    continue
                if zone.helped_by(pos, effect) or progresses(pos, effect, goals.get(helper.id)):
                    yield effect

    @staticmethod
    def _helpers(pos: Position, finisher: Piece) -> list[Piece]:
        return [
            p
            for p in pos.side_pieces(pos.side)
            if p.id != finisher.id and not p.hidden and p.id not in pos.spent
        ]


class _LastShot:
    """A Cannon's shot (R19, R21) as the next action but one, after a helper's action: the
    Cannon stays where it is, so the shot needs, after that action, every piece between it
    and the target gone (moved away, or a standard piece killed), none arrived there, and
    two unspent friends next to it, of which only the mover can be new. A helper, or a
    helper's action, that cannot meet these needs cannot lead to the shot."""

    def __init__(self, pos: Position, cannon: Piece, target: int) -> None:
        line = between(pos.size, cannon.sq, target)
        self.line = frozenset(line or ())
        board, pieces = pos.board, pos.pieces
        self.blockers = [pieces[board[sq]] for sq in self.line if sq in board]
        self.around = neighbours(pos.size)[cannon.sq]
        friends = [
            pid
            for sq in self.around
            if (pid := board.get(sq)) is not None
            and pieces[pid].side == cannon.side
            and pid not in pos.spent
        ]
        self.friends = frozenset(friends)
        own = [p for p in self.blockers if p.side == cannon.side]
        self.possible = (
            cannon.ready
            and line is not None
            and len(friends) >= 1  # one action brings one supporter at most
            and len(own) <= 1  # one action moves one piece
            and not any(p.is_command and p.side != cannon.side for p in self.blockers)
        )

    def may_help(self, pos: Position, helper: Piece) -> bool:
        """Can the helper's action, by ``bound``, meet the needs no other piece can?"""
        for blocker in self.blockers:
            if blocker.side == helper.side:
                if blocker.id != helper.id:
                    return False
            elif bound(pos, helper, (blocker.sq,)) > 1:
                return False
        if len(self.friends) < 2:
            return helper.id not in self.friends and bound(pos, helper, self.around) <= 1
        return True

    def after(self, pos: Position, effect: Effect) -> bool:
        """Can the shot still hit after ``effect``, as far as these needs tell?"""
        if effect.kind == SEARCH:
            return True  # it may reveal an Assassin, who then stands on its square (R43)
        rest = effect.rest
        if rest in self.line and effect.piece not in effect.losses:
            return False
        if len(self.friends) + (1 if rest in self.around else 0) < 2:
            return False
        if not self.blockers:
            return True
        gone = set(effect.losses)  # ``commit``: a loss is removed, a standard piece hit dies
        pieces = pos.pieces
        gone.update(p for p in effect.hits if p in pieces and pieces[p].kind not in COMMAND_KINDS)
        mover = pieces.get(effect.piece)
        if mover is not None and rest != mover.sq:
            gone.add(effect.piece)
        return all(blocker.id in gone for blocker in self.blockers)


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
    if piece.kind != CANNON:  # ``bound`` without building the moved piece
        kind = piece.kind
        if kind == GENERAL and pos.crown_pending[piece.side]:
            kind = RULER
        away = distances(effect.rest)
        hill = bool(pos.terrain.hills)
        for squares, n in goals:
            if n < 1 or not squares:
                continue
            if effect.rest in squares:
                return True
            if min(map(away.__getitem__, squares)) <= within_reach(kind, hill, defending, n):
                return True
        return False
    ready = bool(effect.ready) if effect.ready >= 0 else piece.ready
    moved = Piece(
        piece.id, piece.side, piece.kind, effect.rest, defending, ready, piece.doomed, piece.hidden
    )
    return any(bound(pos, moved, sq) <= n for sq, n in goals)


def _towards(pos: Position, finisher: Piece, target: int, n: int, own: list[Pair]) -> list[Effect]:
    """The finisher's own actions that spare the piece on ``target`` and ``progresses``
    towards hitting it within ``n`` actions: the same test, with what the actions of one
    piece share worked out once (the hottest loop of a threat search)."""
    victim = pos.board[target]
    goal: Goals = [((target,), n)]
    if finisher.kind == CANNON or n < 1:
        return [e for _a, e in own if victim not in e.hits and progresses(pos, e, goal)]
    kind = finisher.kind
    if kind == GENERAL and pos.crown_pending[finisher.side]:
        kind = RULER
    hill = bool(pos.terrain.hills)
    within = (within_reach(kind, hill, False, n), within_reach(kind, hill, True, n))
    away = distances(target)  # distances(rest)[target], by symmetry
    out = []
    for _a, effect in own:
        rest = effect.rest
        if not rest or victim in effect.hits or effect.piece in effect.losses:
            continue
        if effect.piece != finisher.id:
            if progresses(pos, effect, goal):
                out.append(effect)
            continue
        defending = effect.stance == "defend" if effect.stance else finisher.defending
        if rest == target or away[rest] <= within[defending]:
            out.append(effect)
    return out


@cache
def within_reach(kind: str, hill: bool, defending: bool, n: int) -> int:
    """The farthest distance from which ``bound`` of a piece of ``kind`` but a Cannon is at
    most ``n`` (-1 for none): ``progresses`` compares distances instead of calling it."""
    extra = 1 if kind == SOLDIER and defending else 0
    if n < extra + 1:
        return -1
    return STRIKES[kind] + hill + (n - extra - 1) * (STEPS[kind] + hill)


def in_jeopardy(pos: Position, target: int, attacker_ok: Filter | None = None) -> bool:
    """R29 for the piece on ``target``, judged against the side to act in ``pos``."""
    return ThreatSearch(target, pos.actions_total, attacker_ok).run(pos)


def next_turn(pos: Position) -> Position:
    """The position the opponent will start their next turn from (R29): after the
    Opposition's turn the round ends first, removing doomed command pieces and crowning a
    side's only General when its Ruler goes (with several, a crown is due first, R24).
    Hidden Assassins are left out: they create no jeopardy and no one can attack them."""
    following = pos.public()
    if pos.side == Side.OPPOSITION:
        end_round(following)
    following.start_turn(pos.side.other)
    return following


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
