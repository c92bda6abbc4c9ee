"""A principal-variation search for one-move games, on a game's own position (``Board``:
make/unmake of encoded moves with an incremental Zobrist key, no copy per node), the
machinery ToriShogi's engine plays by (``ai.torishogi``) and another one-move game's can.

Iterative deepening of a principal-variation search (the first move with the full window,
the others with a null window, searched again only if they beat it) behind an aspiration
window from the fifth ply on; a transposition table (``transposition``); quiescence on the
moves that change the material (``Board.noisy``), and on the evasions of a check a few plies
deep; move ordering (``ordering``); null-move pruning (never in check, nor where the game
says passing could lie, ``Board.may_pass``) and late-move reductions of quiet moves; checks
extended; a side with no legal move lost, scored by its distance (the shortest win
preferred, the longest loss resisted); repetition as the game judges it
(``Board.repetition``).

A search stops at its deadline or its node budget (whichever comes first) with the best move
of the last depth it finished, or a better one found in the depth it was in.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Protocol

from .ordering import Ordering
from .search import OutOfTime
from .transposition import EXACT, LOWER, MATE, MATE_BOUND, UPPER, Table, from_table

INF = MATE + 1
REPEATED = 15_000  # a cycle its closer would lose if it went on: worse than any material
ASPIRATION = 50
ASPIRATION_FROM = 5
CHECK_EVASION_PLIES = 3  # how deep in quiescence a check is still answered move by move
QUIESCENCE_PLIES = 8  # beyond, the evaluation stands
LMR_FROM_MOVE = 3
SOFT_SHARE = 0.5  # no new depth starts once this share of the time is gone
MAX_DEPTH = 64
NOISE = 4  # hundredths of a pawn of seeded noise in the evaluation: games differ
MASK64 = (1 << 64) - 1
CLOCK_EVERY = 512  # nodes between two looks at the clock, unless the game's nodes cost more


class Board(Protocol):
    """A game's position as the search plays on it. Scores are integers for the side to
    move (a hundredth of the game's smallest piece, ``MATE`` a win)."""

    hash: int  # the Zobrist key of the position, kept up to date by make/unmake

    @property
    def side(self) -> int: ...

    def moves(self) -> list[int]:
        """Every legal move, encoded; none: the side to move has lost."""
        ...

    def in_check(self) -> bool: ...

    def make(self, move: int) -> int:
        """Play a legal ``move``; the token ``unmake`` needs."""
        ...

    def unmake(self, move: int, token: int) -> None: ...

    def make_null(self) -> int:
        """The side to move passes (never in check); the token ``unmake_null`` needs."""
        ...

    def unmake_null(self, token: int) -> None: ...

    def mark_check(self, checked: bool) -> None:
        """Whether the side to move of the position now is in check (for ``repetition``)."""
        ...

    def repetition(self) -> tuple[int, bool] | None:
        """If the position now repeats: +1 the side to move wins by it, -1 loses, 0 draws,
        and whether the game ends here; None: nothing to judge."""
        ...

    def evaluate(self) -> int: ...

    def tactical(self, move: int) -> int:
        """What a capture or promotion wins, by MVV-LVA; 0 for a quiet move."""
        ...

    def noisy(self, stand: int, alpha: int) -> list[int]:
        """The captures and promotions worth a look in quiescence (the side to move not in
        check, its evaluation ``stand``), best first."""
        ...

    def may_pass(self) -> bool:
        """Whether passing is sound enough here for null-move pruning."""
        ...


@dataclass
class Result:
    """A search's answer: its ``move`` (None: no legal move), the move's ``score``, the last
    ``depth`` finished, the ``nodes`` visited (quiescence's too) and the ``seconds`` spent."""

    move: int | None
    score: int
    depth: int
    nodes: int
    seconds: float


class Searcher:
    """One search of ``board``: its budget (``deadline``, ``max_nodes``, the clock read
    every ``clock_every`` nodes, a power of two), its noise (``salt``), its table, move
    ordering and node count."""

    def __init__(
        self,
        board: Board,
        deadline: float,
        max_nodes: int | None = None,
        salt: int = 0,
        table: Table | None = None,
        clock_every: int = CLOCK_EVERY,
    ) -> None:
        self.board = board
        self.clock_mask = clock_every - 1
        self.deadline = deadline
        self.max_nodes = max_nodes if max_nodes is not None else 1 << 62
        self.salt = salt
        self.table = table or Table()
        self.order = Ordering()
        self.nodes = 0
        self.root_depth = 0
        self.found: tuple[int, int] | None = None

    # ---- budget and evaluation -----------------------------------------------------------
    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes >= self.max_nodes:
            raise OutOfTime
        if self.nodes & self.clock_mask == 0 and time.monotonic() > self.deadline:
            raise OutOfTime

    def _evaluate(self) -> int:
        score = self.board.evaluate()
        if self.salt:
            mixed = (self.board.hash ^ self.salt) * 0x9E3779B97F4A7C15 & MASK64
            score += (mixed >> 61) - NOISE
        return score

    def _repeated(self, ply: int) -> int | None:
        judged = self.board.repetition()
        if judged is None:
            return None
        result, final = judged
        if result == 0:
            return 0
        worth = MATE - ply if final else REPEATED - ply
        return worth if result > 0 else -worth

    def _enter(self, ply: int, checked: bool) -> int | None:
        """A node reached: counted against the budget; its score if a repetition decides."""
        self._tick()
        self.board.mark_check(checked)
        return self._repeated(ply)

    # ---- the tree ----------------------------------------------------------------------
    def negamax(self, depth: int, alpha: int, beta: int, ply: int, checked: bool) -> int:
        repeated = self._enter(ply, checked)
        if repeated is not None:
            return repeated
        if depth <= 0:
            return self.quiesce(alpha, beta, ply, checked, 0)
        alpha = max(alpha, -(MATE - ply))  # no mate found below can be shorter than this
        beta = min(beta, MATE - ply - 1)
        if alpha >= beta:
            return alpha
        pv = beta - alpha > 1
        board = self.board
        entry = self.table.probe(board.hash)
        best_move = 0
        if entry is not None:
            best_move = entry.move
            if entry.depth >= depth and not pv:
                score = from_table(entry.score, ply)
                if (
                    entry.bound == EXACT
                    or (entry.bound == LOWER and score >= beta)
                    or (entry.bound == UPPER and score <= alpha)
                ):
                    return score
        moves = board.moves()
        if not moves:
            return -(MATE - ply)  # no legal move loses, checked or not
        if (
            not pv
            and not checked
            and depth >= 3
            and board.may_pass()
            and self._null(depth, beta, ply)
        ):
            return beta
        return self._moves(moves, best_move, depth, alpha, beta, ply, checked)

    def _moves(
        self,
        moves: list[int],
        best_move: int,
        depth: int,
        alpha: int,
        beta: int,
        ply: int,
        checked: bool,
    ) -> int:
        board = self.board
        side = board.side
        tactical = board.tactical
        start_alpha = alpha
        best, found = -INF, 0
        extend = ply < 2 * self.root_depth
        for number, move in enumerate(self.order.ordered(tactical, side, moves, best_move, ply)):
            quiet = not tactical(move)
            token = board.make(move)
            try:
                gives = board.in_check()
                new_depth = depth - 1 + (1 if gives and extend else 0)
                reduce = 0
                if depth >= 3 and number >= LMR_FROM_MOVE and quiet and not checked and not gives:
                    reduce = 1 + (number >= 8) + (depth >= 6 and number >= 16)
                score = self._child(number, new_depth, reduce, alpha, beta, ply + 1, gives)
            finally:
                board.unmake(move, token)
            if score > best:
                best, found = score, move
                if score > alpha:
                    alpha = score
                    if score >= beta:
                        if quiet:
                            self.order.cut(side, move, depth, ply)
                        break
        bound = LOWER if best >= beta else EXACT if best > start_alpha else UPPER
        self.table.store(board.hash, depth, bound, best, found, ply)
        return best

    def _child(
        self, number: int, depth: int, reduce: int, alpha: int, beta: int, ply: int, gives: bool
    ) -> int:
        """The score of the move just made, the ``number``-th tried: the first with the full
        window, the others with a null window (``reduce`` plies less, for a late quiet
        move), searched again in full only if they beat ``alpha``."""
        if number == 0:
            return -self.negamax(depth, -beta, -alpha, ply, gives)
        score = -self.negamax(depth - reduce, -alpha - 1, -alpha, ply, gives)
        if score > alpha and reduce:
            score = -self.negamax(depth, -alpha - 1, -alpha, ply, gives)
        if alpha < score < beta:
            score = -self.negamax(depth, -beta, -alpha, ply, gives)
        return score

    def _null(self, depth: int, beta: int, ply: int) -> bool:
        """Whether passing still holds ``beta`` at a reduced depth (then so does any move)."""
        if self._evaluate() < beta:
            return False
        board = self.board
        token = board.make_null()
        reduction = 3 if depth >= 6 else 2
        try:
            score = -self.negamax(depth - 1 - reduction, -beta, -beta + 1, ply + 1, False)
        finally:
            board.unmake_null(token)
        return beta <= score < MATE_BOUND

    def quiesce(self, alpha: int, beta: int, ply: int, checked: bool, qply: int) -> int:
        """The moves that change the material until the position is quiet (a check answered
        by every evasion for ``CHECK_EVASION_PLIES``); the side to move may stand on its
        evaluation unless in check."""
        if qply:
            repeated = self._enter(ply, checked)
            if repeated is not None:
                return repeated
        board = self.board
        if checked and qply < CHECK_EVASION_PLIES:
            moves = board.moves()
            if not moves:
                return -(MATE - ply)
            ordered = self.order.ordered(board.tactical, board.side, moves, 0, ply)
            return self._quiet_loop(ordered, -INF, alpha, beta, ply, qply)
        stand = self._evaluate()
        if stand >= beta or qply >= QUIESCENCE_PLIES or checked:
            return stand  # a check this deep is left unanswered: the evaluation stands
        alpha = max(alpha, stand)
        return self._quiet_loop(board.noisy(stand, alpha), stand, alpha, beta, ply, qply)

    def _quiet_loop(
        self, moves: list[int], best: int, alpha: int, beta: int, ply: int, qply: int
    ) -> int:
        board = self.board
        for move in moves:
            token = board.make(move)
            try:
                score = -self.quiesce(-beta, -alpha, ply + 1, board.in_check(), qply + 1)
            finally:
                board.unmake(move, token)
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if score >= beta:
                        break
        return best

    # ---- the root ----------------------------------------------------------------------
    def root(self, moves: list[int], depth: int, alpha: int, beta: int) -> tuple[int, int]:
        """The best of ``moves`` (best first) and its score at ``depth``; ``self.found``
        holds the best so far, for a search cut short."""
        board = self.board
        best, best_move = -INF, moves[0]
        for number, move in enumerate(moves):
            token = board.make(move)
            try:
                gives = board.in_check()
                new_depth = depth - 1 + (1 if gives else 0)
                score = self._child(number, new_depth, 0, alpha, beta, 1, gives)
            finally:
                board.unmake(move, token)
            if score > best:
                best, best_move = score, move
                if score > alpha:
                    alpha = score
                    self.found = (move, score)
                    if score >= beta:
                        break
        return best_move, best

    def deepen(self, moves: list[int], max_depth: int, started: float, soft: float) -> Result:
        """Iterative deepening over the root's ``moves`` until the budget or ``max_depth``;
        no new depth starts after ``soft``."""
        board = self.board
        board.mark_check(board.in_check())
        moves = self.order.ordered(board.tactical, board.side, moves, 0, 0)
        best_move, best_score, done = moves[0], 0, 0
        for depth in range(1, max_depth + 1):
            self.root_depth = depth
            self.table.age = depth
            self.found = None
            try:
                move, score = self._aspirated(moves, depth, best_score)
            except OutOfTime:
                if self.found is not None:  # the best move of the unfinished depth so far
                    best_move, best_score = self.found
                break
            best_move, best_score, done = move, score, depth
            moves.remove(move)
            moves.insert(0, move)
            if abs(score) > MATE_BOUND and MATE - abs(score) <= depth:
                break  # a mate found within the full width of this depth: none shorter
            if time.monotonic() > soft:
                break
        return Result(best_move, best_score, done, self.nodes, time.monotonic() - started)

    def _aspirated(self, moves: list[int], depth: int, guess: int) -> tuple[int, int]:
        if depth < ASPIRATION_FROM or abs(guess) > MATE_BOUND:
            return self.root(moves, depth, -INF, INF)
        width = ASPIRATION
        while True:
            alpha, beta = max(guess - width, -INF), min(guess + width, INF)
            move, score = self.root(moves, depth, alpha, beta)
            if alpha < score < beta:
                return move, score
            width *= 4
            if width > 4 * MATE:
                return self.root(moves, depth, -INF, INF)


def search(
    board: Board,
    seconds: float,
    salt: int,
    max_depth: int = MAX_DEPTH,
    max_nodes: int | None = None,
    clock_every: int = CLOCK_EVERY,
) -> Result:
    """The best move on ``board`` (spent by the search) within ``seconds`` (infinite: no
    clock) and ``max_nodes``, ``max_depth`` plies deep at most; ``salt`` seeds the noise of
    the evaluation (0: none). The clock is read every ``clock_every`` nodes (a power of two:
    1 for a game whose node costs milliseconds, so the deadline is kept). ``move`` is None
    when there is no legal move."""
    started = time.monotonic()
    moves = board.moves()
    if not moves:
        return Result(None, -MATE, 0, 0, 0.0)
    if len(moves) == 1:
        return Result(moves[0], 0, 0, 0, 0.0)
    budget = max(seconds, 0.0)
    deadline, soft = started + budget, started + budget * SOFT_SHARE
    searcher = Searcher(board, deadline, max_nodes, salt, clock_every=clock_every)
    return searcher.deepen(moves, max_depth, started, soft)
