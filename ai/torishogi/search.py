"""ToriShogi's own search, on the engine's position (``state.SearchState``: make/unmake of
encoded moves, the Zobrist key and material kept up to date, no copy per node).

Iterative deepening of a principal-variation search (the first move with the full window,
the others with a null window, searched again only if they beat it) behind an aspiration
window from the fifth ply on; a transposition table (``tt``); quiescence on captures and
promotions, and on the evasions of a check a few plies deep; move ordering (``ordering``);
null-move pruning (never in check, nor for a side with little left to move, where having to
move can hurt) and late-move reductions of quiet moves; checks extended; mates scored by
distance (the shortest preferred, the longest resisted).

It reads only the position and the game's history of positions, which hold nothing hidden.
A side with no legal move has lost (TS9: checkmate and stalemate alike). A repetition is
judged as the rules judge it (TS10, ``SearchState.repetition``): the fourth occurrence ends
the game, so no move that would lose by it is chosen while another is left.

A search stops at its deadline or its node budget (whichever comes first) with the best move
of the last depth it finished, or a better one found in the depth it was in.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from rules.torishogi import ToriShogiGame
from rules.torishogi.movegen import attacked, in_check, legal_moves
from rules.torishogi.pieces import PHOENIX, SWALLOW
from rules.torishogi.position import Key, Position

from ..search import OutOfTime
from .captures import captures
from .evaluation import static
from .ordering import Ordering, tactical
from .state import SearchState
from .tables import VALUE
from .tt import EXACT, LOWER, MATE, MATE_BOUND, UPPER, Table, from_table

INF = MATE + 1
REPEATED = 15_000  # a cycle its closer would lose if it went on: worse than any material
ASPIRATION = 50
ASPIRATION_FROM = 5
CHECK_EVASION_PLIES = 3  # how deep in quiescence a check is still answered move by move
QUIESCENCE_PLIES = 8  # beyond, the evaluation stands
DELTA = 150  # what a capture may bring besides its piece (the square bonuses, the hand)
NULL_MIN_PIECES = 4  # a side with fewer pieces (besides Swallows and the Phoenix) never passes
LMR_FROM_MOVE = 3
SOFT_SHARE = 0.5  # no new depth starts once this share of the time is gone
MAX_DEPTH = 64
FIXED_NODES = 20_000  # the work of a search without a clock (a hint): the same on any machine
NOISE = 4  # centi-Swallows of seeded noise in the evaluation: games differ, positions agree
MASK64 = (1 << 64) - 1
VALUE_OF = [VALUE.get(kind, 0) for kind in range(16)]
PAWNISH = (SWALLOW, PHOENIX)  # not counted as pieces that make passing safe


@dataclass
class Result:
    move: int | None
    score: int
    depth: int
    nodes: int
    seconds: float


class Searcher:
    def __init__(
        self,
        state: SearchState,
        deadline: float,
        max_nodes: int | None = None,
        salt: int = 0,
        table: Table | None = None,
    ) -> None:
        self.state = state
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
        if self.nodes & 511 == 0 and time.monotonic() > self.deadline:
            raise OutOfTime

    def _evaluate(self) -> int:
        score = static(self.state)
        if self.salt:
            mixed = (self.state.hash ^ self.salt) * 0x9E3779B97F4A7C15 & MASK64
            score += (mixed >> 61) - NOISE
        return score

    def _repeated(self, ply: int) -> int | None:
        judged = self.state.repetition()
        if judged is None:
            return None
        result, final = judged
        if result == 0:
            return 0
        worth = MATE - ply if final else REPEATED - ply
        return worth if result > 0 else -worth

    # ---- the tree ----------------------------------------------------------------------
    def negamax(self, depth: int, alpha: int, beta: int, ply: int, checked: bool) -> int:
        self._tick()
        state = self.state
        state.checks[-1] = checked
        repeated = self._repeated(ply)
        if repeated is not None:
            return repeated
        if depth <= 0:
            return self.quiesce(alpha, beta, ply, checked, 0)
        alpha = max(alpha, -(MATE - ply))  # no mate found below can be shorter than this
        beta = min(beta, MATE - ply - 1)
        if alpha >= beta:
            return alpha
        pv = beta - alpha > 1
        key = state.hash
        entry = self.table.probe(key)
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
        pos = state.pos
        moves = legal_moves(pos)
        if not moves:
            return -(MATE - ply)  # TS9: no legal move loses, checked or not
        if not pv and not checked and depth >= 3 and self._may_pass(pos):
            cut = self._null(depth, beta, ply)
            if cut:
                return beta
        return self._moves(moves, best_move, depth, alpha, beta, ply, checked, pv)

    def _moves(
        self,
        moves: list[int],
        best_move: int,
        depth: int,
        alpha: int,
        beta: int,
        ply: int,
        checked: bool,
        pv: bool,
    ) -> int:
        state = self.state
        pos = state.pos
        board = pos.board
        side = pos.side
        start_alpha = alpha
        best, found = -INF, 0
        extend = ply < 2 * self.root_depth
        for number, move in enumerate(self.order.ordered(board, side, moves, best_move, ply)):
            quiet = not tactical(board, move)
            token = state.make(move)
            try:
                gives = in_check(pos)
                new_depth = depth - 1 + (1 if gives and extend else 0)
                reduce = 0
                if depth >= 3 and number >= LMR_FROM_MOVE and quiet and not checked and not gives:
                    reduce = 1 + (number >= 8) + (depth >= 6 and number >= 16)
                score = self._child(number, new_depth, reduce, alpha, beta, ply + 1, gives)
            finally:
                state.unmake(move, token)
            if score > best:
                best, found = score, move
                if score > alpha:
                    alpha = score
                    if score >= beta:
                        if quiet:
                            self.order.cut(side, move, depth, ply)
                        break
        bound = LOWER if best >= beta else EXACT if best > start_alpha else UPPER
        self.table.store(state.hash, depth, bound, best, found, ply)
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

    def _may_pass(self, pos: Position) -> bool:
        """Whether the side to move has enough besides Swallows to skip a move safely: with
        little left, having to move can be its whole trouble (a null move would lie)."""
        side = pos.side
        pieces = sum(
            1 for piece in pos.board if piece and piece >> 4 == side and piece & 15 not in PAWNISH
        )
        return pieces + sum(pos.hands[side][2:]) >= NULL_MIN_PIECES

    def _null(self, depth: int, beta: int, ply: int) -> bool:
        """Whether passing still holds ``beta`` at a reduced depth (then so does any move)."""
        if self._evaluate() < beta:
            return False
        state = self.state
        floor = state.make_null()
        reduction = 3 if depth >= 6 else 2
        try:
            score = -self.negamax(depth - 1 - reduction, -beta, -beta + 1, ply + 1, False)
        finally:
            state.unmake_null(floor)
        return score >= beta and score < MATE_BOUND

    def quiesce(self, alpha: int, beta: int, ply: int, checked: bool, qply: int) -> int:
        """Captures and promotions until the position is quiet (a check answered by every
        evasion for ``CHECK_EVASION_PLIES``); the side to move may stand on its evaluation
        unless in check. A capture that cannot raise the score near ``alpha`` even if the
        piece were free, or that gives a bigger piece for a defended smaller one, is left
        out (quiescence looks for what changes the material, not for every exchange)."""
        if qply:
            self._tick()
            self.state.checks[-1] = checked
            repeated = self._repeated(ply)
            if repeated is not None:
                return repeated
        state = self.state
        pos = state.pos
        if checked and qply < CHECK_EVASION_PLIES:
            moves = legal_moves(pos)
            if not moves:
                return -(MATE - ply)
            return self._quiet_loop(
                self.order.ordered(pos.board, pos.side, moves, 0, ply), -INF, alpha, beta, ply, qply
            )
        stand = self._evaluate()
        if stand >= beta or qply >= QUIESCENCE_PLIES or checked:
            return stand  # a check this deep is left unanswered: the evaluation stands
        alpha = max(alpha, stand)
        board = pos.board
        them = pos.side ^ 1
        scored = []
        for move in captures(pos):
            gain = tactical(board, move)
            if stand + gain // 16 + DELTA <= alpha:
                continue  # even a free capture would not reach alpha
            to = move & 63
            attacker = VALUE_OF[board[move >> 6 & 63] & 15]
            if attacker > VALUE_OF[board[to] & 15] + 50 and attacked(board, to, them):
                continue  # a bigger piece for a defended smaller one
            scored.append((gain, move))
        scored.sort(reverse=True)
        return self._quiet_loop([m for _g, m in scored], stand, alpha, beta, ply, qply)

    def _quiet_loop(
        self, moves: list[int], best: int, alpha: int, beta: int, ply: int, qply: int
    ) -> int:
        state = self.state
        pos = state.pos
        for move in moves:
            token = state.make(move)
            try:
                score = -self.quiesce(-beta, -alpha, ply + 1, in_check(pos), qply + 1)
            finally:
                state.unmake(move, token)
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
        state = self.state
        pos = state.pos
        best, best_move = -INF, moves[0]
        for number, move in enumerate(moves):
            token = state.make(move)
            try:
                gives = in_check(pos)
                new_depth = depth - 1 + (1 if gives else 0)
                score = self._child(number, new_depth, 0, alpha, beta, 1, gives)
            finally:
                state.unmake(move, token)
            if score > best:
                best, best_move = score, move
                if score > alpha:
                    alpha = score
                    self.found = (move, score)
                    if score >= beta:
                        break
        return best_move, best

    def deepen(self, moves: list[int], max_depth: int, started: float, soft: float) -> Result:
        """Iterative deepening over the root's ``moves`` until the budget or ``max_depth``."""
        state = self.state
        moves = self.order.ordered(state.pos.board, state.pos.side, moves, 0, 0)
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


def think(
    pos: Position,
    history: list[tuple[Key, bool]] | None,
    seconds: float,
    rng: random.Random,
    max_depth: int = MAX_DEPTH,
    max_nodes: int | None = None,
) -> Result:
    """The search of ``pos`` (spent by it) after the game's ``history`` of positions (its
    last one ``pos``; None: no past), within ``seconds`` and ``max_nodes``, ``max_depth``
    plies deep at most. The seed from ``rng`` varies the evaluation by a few
    centi-Swallows, so games differ. ``move`` is None when there is no legal move."""
    started = time.monotonic()
    moves = legal_moves(pos)
    salt = rng.getrandbits(64) | 1
    if not moves:
        return Result(None, -MATE, 0, 0, 0.0)
    if len(moves) == 1:
        return Result(moves[0], 0, 0, 0, 0.0)
    state = SearchState(pos, history)
    state.checks[state.root] = in_check(pos)
    budget = max(seconds, 0.0)
    deadline = started + budget if math.isfinite(budget) else math.inf
    soft = started + budget * SOFT_SHARE if math.isfinite(budget) else math.inf
    searcher = Searcher(state, deadline, max_nodes, salt)
    return searcher.deepen(moves, max_depth, started, soft)


def own_turn(game: ToriShogiGame, seconds: float, rng: random.Random, depth: int) -> list[str]:
    """The turn of ``game.side`` this search finds within ``seconds``, ``depth`` plies deep
    at most (``ai.engines.Engine.search``); without a clock (``seconds`` infinite: a hint)
    within ``FIXED_NODES`` nodes, so the same position gives the same move anywhere. A move
    already staged leaves nothing to add (the turn ends as it stands)."""
    legal = game.legal_actions()
    if not legal:
        return []
    nodes = None if math.isfinite(seconds) else FIXED_NODES
    found = think(game.pos.copy(), game.history, seconds, rng, depth, nodes)
    move = next((m for m in legal if m.code == found.move), None)
    if move is None:  # the rules core and the search disagree: an engine bug, never hidden
        raise RuntimeError(f"the search chose {found.move}, which is not a legal move")
    return [game.notation(move)]
