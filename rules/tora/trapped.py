"""Trapped (R25): at the start of a turn, no turn the player could legally end leaves a live
command piece of theirs out of jeopardy."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from ..sides import Side
from .bounds import acting_kind, bound
from .defences import defences, widen
from .endings import no_next_turn
from .geometry import distances
from .jeopardy import (
    Filter,
    SearchKey,
    ThreatSearch,
    next_turn,
    search_key,
    within_reach,
)
from .movegen import acting_in_order, piece_actions
from .pieces import CANNON, Piece
from .position import Effect, Position


def is_trapped(pos: Position) -> bool:
    """R25, at the start of the turn of the side to act in ``pos``: every turn the player
    could legally end leaves all their live command pieces in jeopardy."""
    return verdict(pos) is True  # undecided: the game goes on, which never ends it wrongly


def verdict(pos: Position) -> bool | None:
    """``is_trapped``, or None where the search ran out of ``TRAPPED_BUDGET`` undecided.

    Two ``Probe``s look first, each on a budget of its own, the first followed by a
    ``first_look`` at a few single actions once its first step has judged ending the turn at
    once: an escape one finds is an escape, and when they find none ``Escape`` searches with
    a full budget, keeping the judgements and threats the probes found (each is exact, so it
    decides what it decided again, for free)."""
    if not [p for p in pos.commanders(pos.side) if not p.doomed]:
        return False
    pos = pos.public()  # judged on the public board: no secret keeps a player alive
    escape = Escape(pos)
    first, second = (Probe(escape, budget, safest) for budget, safest in PROBES)
    if first.start() or first_look(pos, first.witnesses) or first.go_on() or second.finds():
        return False
    escape.budget = TRAPPED_BUDGET
    try:
        return not escape.exists()
    except _OutOfBudget:
        return None


# Steps of threat search (and judged positions) before R25 gives up. Not a clock: every
# replay reaches the same verdict. Within it the search is exact; without it, a few long-board
# middle-game positions (all three command pieces in jeopardy, no escape in one or two actions)
# need tens of thousands of judged positions: the worst of the rules benchmark's turn ends
# judges 68,953 (a million steps, minutes of CPU) before its escape, found among the
# three-action turns. An exhaustive search there is out of reach in Python; the ``Probe``
# finds that escape in 763 steps, by looking at the likeliest full turns first.
TRAPPED_BUDGET = 5_000


class _OutOfBudget(Exception):
    pass


# The probes' own steps, spent before ``Escape`` and not taken from its budget, each with its
# order of the command piece's own actions (``Probe``); and how many actions a probe judges
# ending after at each node and how many of those it follows further.
PROBES = ((1_000, False), (1_500, True))
PROBE_JUDGED = 8
PROBE_FOLLOWED = 5


# The single actions ``first_look`` judges at most.
FIRST_LOOK = 8


def first_look(pos: Position, witnesses: dict[int, set[int]] | None) -> bool:
    """Is one of a few single actions an escape: those taking a piece that stands on a square
    a threat against a command piece depends on (its attacker, most often; ``witnesses``:
    those squares by command piece, as the judgement of ending the turn at once found them;
    None: not known), then the command pieces' own actions to the squares fewest enemies can
    reach (``_danger``)? In random short games one of them is an escape in four verdicts of
    five where ending at once is none; the first ``Probe`` tries the command piece's actions
    in the generator's order and follows them deeper before any other piece's.

    Like a ``Probe`` it only ever answers "escape found": each turn it judges is a legal turn
    and judged exactly. Each is judged with threats of its own (a fresh ``Threats``), kept
    nowhere and paid from no budget, so when it finds no escape the probes and ``Escape``
    search exactly as without it: every verdict they decide is unchanged."""
    if witnesses is None or pos.crown_pending[pos.side] or pos.actions_left <= 0:
        return False  # a crown comes first (R24): no single action of a piece is a turn
    foci = [p.id for p in pos.commanders(pos.side) if not p.doomed]
    depended = set().union(*witnesses.values())
    taking: list[Effect] = []
    own: list[Effect] = []
    for piece in acting_in_order(pos):
        for _action, effect in piece_actions(pos, piece):
            if any(pos.pieces[h].sq in depended for h in effect.hits):
                taking.append(effect)
            elif piece.id in foci:
                own.append(effect)
    danger = _danger(pos)
    own.sort(key=lambda effect: danger(effect.rest))
    for effect in (taking + own)[:FIRST_LOOK]:
        child = pos.copy()
        child.commit(effect)
        if _judgement(child, Threats())[0]:
            return True
    return False


class Probe:
    """A quick look for an escape along the likeliest full turns, before the exhaustive search.

    It only ever answers "escape found": every turn it judges is a legal turn and judged as
    ``Escape`` judges it, so finding one proves "not trapped" exactly. Not finding one proves
    nothing, and ``Escape`` then runs its full search (with a full budget, and the exact
    judgements the probe made kept), so every verdict it decides is the one it would decide
    alone; what the probe adds is a verdict where ``Escape`` ran out of budget.

    The lines it follows are those ``Escape``'s deepening reaches last: the command piece
    moves, then other pieces take an attacker or close the lines to its new square. At each
    node the focus piece's own actions come first, then the actions ending nearest to it;
    ending the turn is judged after each of the first ``PROBE_JUDGED`` of them, and the first
    ``PROBE_FOLLOWED`` are followed deeper. That is the generator's order of the focus
    piece's actions; with ``safest`` they come to the squares fewest enemies can reach first,
    and the actions taking a piece a threat against it needs come before the others. Each
    order finds escapes the other misses within its budget, so ``verdict`` runs the first
    (whose turns it judges are those the probe judged alone) and then the second.
    """

    def __init__(self, escape: Escape, budget: int, safest: bool) -> None:
        self.escape = escape
        self.budget = budget
        self.safest = safest

        self.witnesses: dict[int, set[int]] | None = None  # of its first step (``start``)

    def finds(self) -> bool:
        return self.start() or self.go_on()

    def start(self) -> bool:
        """The probe's first step, on its budget: is ending the turn at once an escape? Its
        judgement's ``witnesses`` are kept; None if it ran out of budget (then so has the
        probe)."""
        escape, pos = self.escape, self.escape.pos
        escape.budget = self.budget
        try:
            safe, self.witnesses, _blame = escape._judge(pos, _node_key(pos))
        except _OutOfBudget:
            return False
        return safe

    def go_on(self) -> bool:
        """The rest of the probe after ``start``, on what is left of its budget: the
        likeliest turns of each command piece in turn."""
        if self.witnesses is None:
            return False
        pos = self.escape.pos
        node = _node_key(pos)
        try:
            for focus in [p.id for p in pos.commanders(pos.side) if not p.doomed]:
                if self._follow(pos, node, pos.actions_total, set(), focus):
                    return True
        except _OutOfBudget:
            pass
        return False

    def _follow(
        self,
        pos: Position,
        node: NodeKey,
        depth: int,
        seen: set[tuple[SearchKey, int]],
        focus: int,
    ) -> bool:
        """Is there an escape among the likeliest turns from ``pos`` (``node`` its key, its
        ending judged already) with at most ``depth`` more actions?"""
        piece = pos.pieces.get(focus)
        if depth == 0 or pos.actions_left <= 0 or piece is None or piece.doomed:
            return False
        escape = self.escape
        zones, defences = escape._defended(pos, node, depth, focus)
        near = distances(piece.sq)
        moved = focus in pos.operated
        danger = _danger(pos) if self.safest else lambda _sq: 0
        attackers = {pos.board[sq] for sq in zones[0] if sq in pos.board}

        def likeliness(effect: Effect) -> tuple[int, int]:
            if effect.piece == focus:
                return (3 if moved else 0), danger(effect.rest)
            if self.safest and attackers.intersection(effect.hits):
                return 1, len(effect.hits)  # it takes a piece a threat needs
            return 2, near[effect.rest] if effect.rest else len(near)

        effects = sorted(defences, key=likeliness)
        children = []
        for child, key in _unseen(pos, effects[:PROBE_JUDGED], depth, seen):
            escape._spend(1)
            if escape._judge(child, key)[0]:
                return True
            children.append((child, key))
        return any(
            self._follow(c, key, depth - 1, seen, focus) for c, key in children[:PROBE_FOLLOWED]
        )


def _danger(pos: Position) -> Callable[[int], int]:
    """How many enemy pieces could attack a square in their next turn, by ``bound`` (no
    blockers): the probe moves a command piece to the squares fewest can reach first, where
    the search that judges it is shortest and an escape likeliest."""
    enemies = [p for p in pos.side_pieces(pos.side.other) if not p.hidden]
    actions = pos.actions_for_turn(pos.side.other)
    cannons = [e for e in enemies if e.kind == CANNON]
    # ``bound`` of any other piece is within ``actions`` on its own square and as far as
    # ``within_reach`` from it: a distance each, looked up
    hill = bool(pos.terrain.hills)
    others = [
        (e.sq, distances(e.sq), within_reach(acting_kind(pos, e), hill, e.defending, actions))
        for e in enemies
        if e.kind != CANNON
    ]
    known: dict[int, int] = {}

    def count(sq: int) -> int:
        if not sq:
            return len(enemies) + 1  # the piece is gone: no escape there
        if sq not in known:
            near = sum(1 for at, away, far in others if at == sq or away[sq] <= far)
            known[sq] = near + sum(1 for e in cannons if bound(pos, e, (sq,)) <= actions)
        return known[sq]

    return count


class Escape:
    """The search for a turn the player could end with a live command piece out of jeopardy.

    Iterative deepening: every turn of one action is judged before any of two, so the common
    escape (one piece stepping into the way) is found after a few judgements, not after the
    deep lines of the first defence tried. The last round searches exactly the turns of the
    full depth, so the answer is that of one full search. Judgements are kept by position:
    the same position comes back in each round and by transposed actions, and so are the
    threats found (``Threats``). Each round searches once per live command piece, trying only
    the defences of that piece (``_escape``). Each judgement and each step of its threat
    searches is taken from ``TRAPPED_BUDGET`` (a threat found again costs nothing).
    """

    def __init__(self, pos: Position) -> None:
        self.pos = pos
        self.judged: dict[EndingKey, Judgement] = {}
        self.threats = Threats()
        self.budget = TRAPPED_BUDGET
        # each position's zones and defences by focus and depth: the probes and the rounds
        # of ``exists`` come back to the same positions (a pure function of the position)
        self.defended: dict[tuple[NodeKey, int, int], tuple[list[set[int]], list[Effect]]] = {}

    def exists(self) -> bool:
        foci = [p.id for p in self.pos.commanders(self.pos.side) if not p.doomed]
        node = _node_key(self.pos)
        for depth in range(self.pos.actions_total + 1):
            for focus in foci:
                if self._escape(self.pos, node, depth, set(), focus):
                    return True
                if depth == 0:
                    break  # ending the turn at once: one judgement, whichever piece is saved
        return False

    def _escape(
        self,
        pos: Position,
        node: NodeKey,
        depth: int,
        seen: set[tuple[SearchKey, int]],
        focus: int,
    ) -> bool:
        """Can the turn end safely here, or after at most ``depth`` more actions, with the
        command piece ``focus`` out of jeopardy (or, found on the way, any other)?

        A defence must break the threats found against ``focus`` (their witnesses), and those
        that make ending the turn illegal (R30): an action that touches none of the squares
        they depend on leaves them all standing. So only actions that touch them, or that move
        towards doing so or clear the way for a piece that will, are tried. Saving one piece
        is enough, so each is the focus of its own search: the actions that would only help
        another piece are not mixed into the turns that try to save this one.
        """
        self._spend(1)
        if self._judge(pos, node)[0]:
            return True
        if depth == 0 or pos.actions_left <= 0:
            return False
        piece = pos.pieces.get(focus)
        if piece is None or piece.doomed:
            return False  # this line of play lost the piece: it cannot save it
        _zones, defences = self._defended(pos, node, depth, focus)
        for child, key in _unseen(pos, defences, depth, seen):
            if self._escape(child, key, depth - 1, seen, focus):
                return True
        return False

    def _judge(self, pos: Position, node: NodeKey | None = None) -> Judgement:
        """The Judgement of ending the turn at ``pos`` (``node``: its key, if known)."""
        key = _ending_key(pos) if node is None else _ending_of(node)
        found = self.judged.get(key)
        if found is None:
            safe, witnesses, blame, work = _judgement(pos, self.threats)
            self._spend(work)
            found = self.judged[key] = safe, witnesses, blame
        return found

    def _defended(
        self, pos: Position, node: NodeKey, depth: int, focus: int
    ) -> tuple[list[set[int]], list[Effect]]:
        """The zones of the threats against ``focus`` (and R30's) at ``pos``, judged
        already, and the defences they call for with ``depth`` actions left."""
        memo = (node, depth, focus)
        found = self.defended.get(memo)
        if found is None:
            _safe, witnesses, blame = self._judge(pos, node)
            zones = widen(pos, witnesses.get(focus, set()) | blame, depth)
            found = self.defended[memo] = zones, defences(pos, zones, depth, focus)
        return found

    def _spend(self, work: int) -> None:
        self.budget -= work
        if self.budget < 0:
            raise _OutOfBudget


EndingKey = tuple[frozenset[Piece], frozenset[int], frozenset[int], bool]


# A position of the search: its ``search_key``, what struck a command piece this turn and
# whether a crown is due: all that its ending's judgement and its defences read (R30, R24).
NodeKey = tuple[SearchKey, frozenset[int], bool]


def _node_key(pos: Position) -> NodeKey:
    return search_key(pos), frozenset(pos.slew), pos.crown_pending[pos.side]


def _ending_of(node: NodeKey) -> EndingKey:
    """``_ending_key`` of the position of ``node``, from the sets it holds already."""
    searched, slew, crown = node
    return searched[0], searched[4], slew, crown


def _ending_key(pos: Position) -> EndingKey:
    """What ending the turn is judged by: the pieces, which of them acted (R30) and which
    struck a command piece (R30's exception), whether a crown is due (R24). What the turn
    has spent only matters to the actions still to come, not to the judgement."""
    return (
        frozenset(pos.pieces.values()),
        frozenset(pos.operated),
        frozenset(pos.slew),
        pos.crown_pending[pos.side],
    )


class Threats:
    """The threats found against command pieces during one R25 search, each with the squares
    its witness depends on and what they held. The positions of one search differ in a few
    squares: a threat whose squares all hold what they held is still there, and searching for
    it again would find it again (the same premise that lets ``defences`` try only actions
    that touch those squares)."""

    def __init__(self) -> None:
        self.found: dict[
            tuple[object, ...], list[tuple[tuple[tuple[int, Piece | None], ...], set[int]]]
        ] = {}

    def search(
        self, after: Position, piece: Piece, attacker_ok: Filter | None = None
    ) -> tuple[bool, set[int], int]:
        """(the piece is in jeopardy in ``after``, the witness's squares, steps taken)."""
        key = (piece.id, piece.sq, attacker_ok is None, after.actions_total, *after.crown_pending)
        known = self.found.setdefault(key, [])
        board, pieces = after.board, after.pieces
        for held, deps in known:
            for sq, was in held:  # ``_content`` inlined: the hottest loop of a search
                pid = board.get(sq)
                if (None if pid is None else pieces[pid]) != was:
                    break
            else:
                return True, deps, 0
        search = ThreatSearch(piece.sq, after.actions_total, attacker_ok)
        if not search.run(after):
            return False, search.deps, search.work
        known.append((tuple((sq, _content(after, sq)) for sq in search.deps), search.deps))
        return True, search.deps, search.work


def _unseen(
    pos: Position, effects: Iterable[Effect], depth: int, seen: set[tuple[SearchKey, int]]
) -> Iterator[tuple[Position, NodeKey]]:
    """The positions ``effects`` lead to from ``pos`` that the search has not met yet with
    ``depth`` actions to go, with their keys, one at a time (each marked as met when it is
    given)."""
    for effect in effects:
        child = pos.copy()
        child.commit(effect)
        node = _node_key(child)
        key = (node[0], depth)
        if key not in seen:
            seen.add(key)
            yield child, node


def _content(pos: Position, sq: int) -> Piece | None:
    pid = pos.board.get(sq)
    return None if pid is None else pos.pieces[pid]


# (the end is legal and saves a live command piece; each threatened piece's witness squares;
# the squares of the threats that make the end illegal, R30)
Judgement = tuple[bool, dict[int, set[int]], set[int]]


def _judge(pos: Position) -> tuple[bool, set[int], int]:
    """(ending the turn here is legal and leaves a live command piece out of jeopardy,
    the squares the threats found depend on, the steps its threat searches took)."""
    safe, witnesses, blame, work = _judgement(pos, Threats())
    return safe, set().union(blame, *witnesses.values()), work


def _judgement(pos: Position, threats: Threats) -> tuple[bool, dict[int, set[int]], set[int], int]:
    """The Judgement of ending the turn here, and the steps its threat searches took.

    The pieces operated this turn are judged first (R30 makes the end legal or not); once
    the end is known legal, the first piece out of jeopardy answers. Otherwise every piece
    is searched: the squares of every threat found tell the caller which defences to try."""
    after = next_turn(pos)
    live = [p for p in pos.commanders(pos.side) if not p.doomed and p.id in after.pieces]
    if no_next_turn(after):
        return not pos.crown_pending[pos.side], {}, set(), 0
    live.sort(key=lambda p: p.id not in pos.operated)
    unjudged = sum(1 for p in live if p.id in pos.operated)  # operated pieces still to judge
    witnesses: dict[int, set[int]] = {}
    blame: set[int] = set()
    work = 0
    legal = not pos.crown_pending[pos.side]
    safe = False
    for piece in live:
        hit, found, steps = threats.search(after, piece)
        work += steps
        if hit:
            witnesses[piece.id] = found
        else:
            safe = True
        if piece.id in pos.operated:
            unjudged -= 1
            if hit and pos.side == Side.CHALLENGER and piece.id in pos.slew:
                hit, found, steps = threats.search(after, piece, _not_doomed_command)
                work += steps
            if hit:
                blame |= found
                legal = False
        if safe and legal and not unjudged:
            return True, witnesses, blame, work
    return False, witnesses, blame, work


def _not_doomed_command(piece: Piece) -> bool:
    return not (piece.is_command and piece.doomed)
