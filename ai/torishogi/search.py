"""ToriShogi's own search: alpha-beta on the engine's position (``make``/``unmake`` of
encoded moves, no game copy per node), iterative deepening, captures and promotions first.

It reads only the position, which holds nothing hidden. A side with no legal move has lost
(TS9: checkmate and stalemate alike); the repetition rules (TS10) are left to the game, as a
search of a few plies rarely meets them."""

from __future__ import annotations

import random
import time

from rules.torishogi import Position, ToriShogiGame, legal_moves, parse_fen

from ..search import OutOfTime
from .evaluation import HAND_BONUS, OTHER, VALUES

MATE = 100_000.0
SQUARE_MASK, PROMOTES = 63, 1 << 12  # of an encoded move (rules.torishogi.moves)


def material(pos: Position) -> float:
    """The side to move's material minus the opponent's, by ``evaluation``'s table."""
    total = 0.0
    us = pos.side
    for piece in pos.board:
        if piece:
            value = VALUES.get(piece & 15, OTHER)
            total += value if piece >> 4 == us else -value
    for side in (0, 1):
        held = sum(VALUES.get(kind, OTHER) * count for kind, count in enumerate(pos.hands[side]))
        total += HAND_BONUS * held if side == us else -HAND_BONUS * held
    return total


class Searcher:
    def __init__(self, deadline: float) -> None:
        self.deadline = deadline
        self.nodes = 0

    def negamax(self, pos: Position, depth: int, alpha: float, beta: float) -> float:
        self.nodes += 1
        if self.nodes & 255 == 0 and time.monotonic() > self.deadline:
            raise OutOfTime
        moves = legal_moves(pos)
        if not moves:
            return -MATE - depth  # lost: the sooner, the worse
        if depth == 0:
            return material(pos)
        for move in ordered(pos, moves):
            token = pos.make(move)
            score = -self.negamax(pos, depth - 1, -beta, -alpha)
            pos.unmake(move, token)
            if score >= beta:
                return score
            alpha = max(alpha, score)
        return alpha


def ordered(pos: Position, moves: list[int]) -> list[int]:
    """Captures of the most valuable piece first, then promotions, then the rest."""

    def key(move: int) -> float:
        target = pos.board[move & SQUARE_MASK]
        gain = VALUES.get(target & 15, OTHER) if target else 0.0
        return -(gain * 10 + (1 if move & PROMOTES else 0))

    return sorted(moves, key=key)


def best_move(fen: str, seconds: float, rng: random.Random, max_depth: int = 12) -> int | None:
    """The best move code of the position ``fen`` found within ``seconds`` (the last depth
    finished; ties at random), None if there is no legal move."""
    moves = legal_moves(parse_fen(fen))
    if not moves:
        return None
    searcher = Searcher(time.monotonic() + seconds)
    best = rng.choice(moves)
    for depth in range(1, max_depth + 1):
        pos = parse_fen(fen)  # a fresh one each depth: an interrupted search spends its own
        try:
            best = _root(searcher, pos, ordered(pos, moves), depth, rng)
        except OutOfTime:
            break
    return best


def _root(
    searcher: Searcher, pos: Position, moves: list[int], depth: int, rng: random.Random
) -> int:
    scored: list[tuple[float, int]] = []
    alpha = -float("inf")
    for move in moves:
        token = pos.make(move)  # OutOfTime leaves ``pos`` spent: the caller drops it
        score = -searcher.negamax(pos, depth - 1, -float("inf"), -alpha + 1e-6)
        pos.unmake(move, token)
        scored.append((score, move))
        alpha = max(alpha, score)
    top = max(score for score, _move in scored)
    return rng.choice([move for score, move in scored if score >= top - 1e-9])


def own_turn(game: ToriShogiGame, seconds: float, rng: random.Random, depth: int) -> list[str]:
    """The turn of ``game.side`` this search finds within ``seconds``, ``depth`` moves deep
    at most (``ai.engines.Engine.search``). A move already staged leaves nothing to add (the
    turn ends as it stands); a lost position, where the search finds none, any legal move."""
    legal = game.legal_actions()
    if not legal:
        return []
    code = best_move(game.fen(), seconds, rng, max_depth=depth)
    move = next((m for m in legal if m.code == code), None)
    if move is None:
        move = rng.choice(legal)
    return [game.notation(move)]
