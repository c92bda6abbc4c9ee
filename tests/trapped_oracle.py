"""The test oracle for ``rules/tora/trapped.py``: that module as it was before the
rules-speed work of issue 26 (commit 4c4dce3), its code unchanged but for its imports and
rulings fixed since (a series' target reached leaves no next turn, R28). The product's
searches must agree with it (test_rules_search_oracle.py).

Trapped (R25): at the start of a turn, no turn the player could legally end leaves a live
command piece of theirs out of jeopardy."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from jeopardy_oracle import (
    Filter,
    SearchKey,
    ThreatSearch,
    bound,
    corridor,
    next_turn,
    progresses,
    search_key,
    writes,
)

from rules.sides import Side
from rules.tora.endings import no_next_turn
from rules.tora.geometry import distances
from rules.tora.movegen import all_actions
from rules.tora.pieces import Piece
from rules.tora.position import Effect, Position


def is_trapped(pos: Position) -> bool:
    """R25, at the start of the turn of the side to act in ``pos``: every turn the player
    could legally end leaves all their live command pieces in jeopardy."""
    return verdict(pos) is True  # undecided: the game goes on, which never ends it wrongly


def verdict(pos: Position) -> bool | None:
    """``is_trapped``, or None where the search ran out of ``TRAPPED_BUDGET`` undecided.

    The ``Probe`` looks first, on a budget of its own: an escape it finds is an escape, and
    when it finds none ``Escape`` decides as it would have alone."""
    if not [p for p in pos.commanders(pos.side) if not p.doomed]:
        return False
    pos = pos.public()  # judged on the public board: no secret keeps a player alive
    if Probe(pos).finds():
        return False
    try:
        return not Escape(pos).exists()
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


# The probe's own steps, spent before ``Escape`` and not taken from its budget, and how many
# actions it judges ending after at each node and how many of those it follows further.
PROBE_BUDGET = 1_000
PROBE_JUDGED = 8
PROBE_FOLLOWED = 5


class Probe:
    """A quick look for an escape along the likeliest full turns, before the exhaustive search.

    It only ever answers "escape found": every turn it judges is a legal turn and judged as
    ``Escape`` judges it, so finding one proves "not trapped" exactly. Not finding one proves
    nothing, and ``Escape`` runs as it would have alone (its own caches and budget), so every
    verdict ``Escape`` decides is unchanged; what the probe adds is a verdict where ``Escape``
    ran out of budget. The escapes it is shaped for are the deep ones that ``Escape``'s
    deepening reaches last: the command piece steps aside, then other pieces close the lines
    to its new square. So at each node the focus piece's own actions come first, then the
    actions ending nearest to it; ending the turn is judged after each of the first
    ``PROBE_JUDGED`` of them, and the first ``PROBE_FOLLOWED`` are followed deeper.
    """

    def __init__(self, pos: Position) -> None:
        self.escape = Escape(pos)
        self.escape.budget = PROBE_BUDGET

    def finds(self) -> bool:
        pos = self.escape.pos
        try:
            if self.escape._judge(pos)[0]:
                return True
            for focus in [p.id for p in pos.commanders(pos.side) if not p.doomed]:
                if self._follow(pos, pos.actions_total, set(), focus):
                    return True
        except _OutOfBudget:
            pass
        return False

    def _follow(
        self, pos: Position, depth: int, seen: set[tuple[SearchKey, int]], focus: int
    ) -> bool:
        """Is there an escape among the likeliest turns from ``pos`` (whose ending is
        judged already) with at most ``depth`` more actions?"""
        piece = pos.pieces.get(focus)
        if depth == 0 or pos.actions_left <= 0 or piece is None or piece.doomed:
            return False
        _safe, witnesses, blame = self.escape._judge(pos)
        zones = _widen(pos, witnesses.get(focus, set()) | blame, depth)
        near = distances(piece.sq)
        moved = focus in pos.operated

        def likeliness(effect: Effect) -> tuple[int, int]:
            if effect.piece == focus:
                return (2 if moved else 0), 0
            return 1, near[effect.rest] if effect.rest else len(near)

        effects = sorted(_defences(pos, zones, depth, focus), key=likeliness)
        children = []
        for child in _unseen(pos, effects[:PROBE_JUDGED], depth, seen):
            self.escape._spend(1)
            if self.escape._judge(child)[0]:
                return True
            children.append(child)
        return any(self._follow(c, depth - 1, seen, focus) for c in children[:PROBE_FOLLOWED])


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

    def exists(self) -> bool:
        foci = [p.id for p in self.pos.commanders(self.pos.side) if not p.doomed]
        for depth in range(self.pos.actions_total + 1):
            for focus in foci:
                if self._escape(self.pos, depth, set(), focus):
                    return True
                if depth == 0:
                    break  # ending the turn at once: one judgement, whichever piece is saved
        return False

    def _escape(
        self, pos: Position, depth: int, seen: set[tuple[SearchKey, int]], focus: int
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
        safe, witnesses, blame = self._judge(pos)
        if safe:
            return True
        if depth == 0 or pos.actions_left <= 0:
            return False
        piece = pos.pieces.get(focus)
        if piece is None or piece.doomed:
            return False  # this line of play lost the piece: it cannot save it
        zones = _widen(pos, witnesses.get(focus, set()) | blame, depth)
        for child in _unseen(pos, _defences(pos, zones, depth, focus), depth, seen):
            if self._escape(child, depth - 1, seen, focus):
                return True
        return False

    def _judge(self, pos: Position) -> Judgement:
        key = _ending_key(pos)
        if key not in self.judged:
            safe, witnesses, blame, work = _judgement(pos, self.threats)
            self._spend(work)
            self.judged[key] = safe, witnesses, blame
        return self.judged[key]

    def _spend(self, work: int) -> None:
        self.budget -= work
        if self.budget < 0:
            raise _OutOfBudget


EndingKey = tuple[frozenset[Piece], frozenset[int], frozenset[int], bool]


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
    it again would find it again (the same premise that lets ``_defences`` try only actions
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
        for held, deps in known:
            if all(_content(after, sq) == was for sq, was in held):
                return True, deps, 0
        search = ThreatSearch(piece.sq, after.actions_total, attacker_ok)
        if not search.run(after):
            return False, search.deps, search.work
        known.append((tuple((sq, _content(after, sq)) for sq in search.deps), search.deps))
        return True, search.deps, search.work


def _unseen(
    pos: Position, effects: Iterable[Effect], depth: int, seen: set[tuple[SearchKey, int]]
) -> Iterator[Position]:
    """The positions ``effects`` lead to from ``pos`` that the search has not met yet with
    ``depth`` actions to go, one at a time (each marked as met when it is given)."""
    for effect in effects:
        child = pos.copy()
        child.commit(effect)
        key = (search_key(child), depth)
        if key not in seen:
            seen.add(key)
            yield child


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


def _defences(
    pos: Position, zones: list[set[int]], depth: int, focus: int | None = None
) -> list[Effect]:
    """Own actions that can break a threat with ``depth`` actions left: the command piece
    ``focus`` (any command piece without one) acting, crowning, dooming an enemy command
    piece, touching a square the threats depend on (``zones[0]``), or moving towards /
    making way for an action that will."""
    first: list[Effect] = []
    rest: list[Effect] = []
    reach = zones[depth - 1]
    goal = tuple(zones[0])
    for _action, effect in all_actions(pos):
        piece = pos.pieces[effect.piece]
        if (piece.is_command if focus is None else piece.id == focus) or effect.crown:
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
