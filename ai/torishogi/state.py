"""The search's position (``ai.pvs.Board``): the rules core's ``Position`` with its Zobrist
key and its material (values and square bonuses, ``tables``) kept up to date move by move,
and the keys of every position since the game's start, for repetition (TS10).

``make``/``unmake`` change only what the move changes: the key and the material are updated
from the squares and hand counts it touches, never recomputed. A null move (the side to move
passes, for null-move pruning) is a move of its own: the positions before it are not the
same line of play, so no repetition is looked for across it.
"""

from __future__ import annotations

from rules.torishogi import (
    BASE_OF,
    DROP,
    PHOENIX,
    PROMOTED,
    PROMOTES,
    SWALLOW,
    Key,
    Position,
    in_check,
    legal_moves,
)

from .captures import noisy, tactical
from .evaluation import static
from .tables import HANDV, PSQ, ZHAND, ZSIDE, ZSQ, material, zobrist

REPETITIONS = 4  # TS10: the fourth time ends the game
NULL_MIN_PIECES = 4  # a side with fewer pieces (besides Swallows and the Phoenix) never passes
PAWNISH = (SWALLOW, PHOENIX)  # not counted as pieces that make passing safe


class SearchState:
    """``keys[i]``, ``checks[i]``: the key of the i-th position since the game's start and
    whether its side to move was in check (the search sets the flag of a position when it
    reaches it); ``root`` the index of the searched position; ``seen`` how often each key
    occurs in ``keys``; ``floor`` the first index a repetition may go back to."""

    __slots__ = ("checks", "floor", "hash", "keys", "pos", "root", "score", "scores", "seen")

    def __init__(self, pos: Position, history: list[tuple[Key, bool]] | None = None) -> None:
        self.pos = pos
        self.hash = zobrist(pos.board, pos.hands, pos.side)
        self.score = material(pos.board, pos.hands)
        past = history[:-1] if history else []
        self.keys = [zobrist(board, _hands(hands), side) for (board, hands, side), _c in past]
        self.checks = [checked for _key, checked in past]
        self.keys.append(self.hash)
        self.checks.append(bool(history and history[-1][1]))
        self.root = len(self.keys) - 1
        self.floor = 0
        self.scores = [self.score]
        self.seen: dict[int, int] = {}
        for key in self.keys:
            self.seen[key] = self.seen.get(key, 0) + 1

    # ---- what the search asks (``ai.pvs.Board``) ------------------------------------------
    @property
    def side(self) -> int:
        return self.pos.side

    def moves(self) -> list[int]:
        return legal_moves(self.pos)

    def in_check(self) -> bool:
        return in_check(self.pos)

    def mark_check(self, checked: bool) -> None:
        self.checks[-1] = checked

    def evaluate(self) -> int:
        return static(self.pos, self.score)

    def tactical(self, move: int) -> int:
        return tactical(self.pos.board, move)

    def noisy(self, stand: int, alpha: int) -> list[int]:
        return noisy(self.pos, stand, alpha)

    def may_pass(self) -> bool:
        """Whether the side to move has enough besides Swallows to skip a move safely: with
        little left, having to move can be its whole trouble (a null move would lie)."""
        pos = self.pos
        side = pos.side
        pieces = sum(
            1 for piece in pos.board if piece and piece >> 4 == side and piece & 15 not in PAWNISH
        )
        return pieces + sum(pos.hands[side][2:]) >= NULL_MIN_PIECES

    # ---- moves -----------------------------------------------------------------------------
    def make(self, move: int) -> int:
        """Play ``move`` (legal); returns the token ``unmake`` needs."""
        pos = self.pos
        board = pos.board
        side = pos.side
        to = move & 63
        origin = move >> 6 & 63
        key = self.hash ^ ZSIDE
        score = self.score
        if origin >= DROP:
            kind = origin - DROP
            piece = kind | side << 4
            held = pos.hands[side][kind]
            key ^= ZHAND[side][kind][held] ^ ZHAND[side][kind][held - 1] ^ ZSQ[piece][to]
            score += PSQ[piece][to] - HANDV[side][kind]
        else:
            piece = board[origin]
            now = PROMOTED[piece] if move & PROMOTES else piece
            key ^= ZSQ[piece][origin] ^ ZSQ[now][to]
            score += PSQ[now][to] - PSQ[piece][origin]
            taken = board[to]
            if taken:
                base = BASE_OF[taken]
                held = pos.hands[side][base]
                key ^= ZSQ[taken][to] ^ ZHAND[side][base][held] ^ ZHAND[side][base][held + 1]
                score += HANDV[side][base] - PSQ[taken][to]
        token = pos.make(move)
        self._enter(key, score)
        return token

    def unmake(self, move: int, token: int) -> None:
        self.pos.unmake(move, token)
        self._leave()

    def make_null(self) -> int:
        """The side to move passes; returns the floor ``unmake_null`` restores."""
        self.pos.side ^= 1
        self._enter(self.hash ^ ZSIDE, self.score)
        floor, self.floor = self.floor, len(self.keys) - 1
        return floor

    def unmake_null(self, floor: int) -> None:
        self.pos.side ^= 1
        self.floor = floor
        self._leave()

    def _enter(self, key: int, score: int) -> None:
        self.hash = key
        self.score = score
        self.keys.append(key)
        self.checks.append(False)
        self.scores.append(score)
        self.seen[key] = self.seen.get(key, 0) + 1

    def _leave(self) -> None:
        key = self.keys.pop()
        self.checks.pop()
        self.scores.pop()
        self.seen[key] -= 1
        self.hash = self.keys[-1]
        self.score = self.scores[-1]

    def repetition(self) -> tuple[int, bool] | None:
        """TS10 for the position now, if it repeats one since the game's start: +1 if the
        side to move wins by it, -1 if it loses, 0 for a draw (mutual perpetual check), and
        whether the game ends here (the fourth occurrence). A repetition of a position of the
        searched line (from the root on) that is not yet the fourth is judged as if the
        cycle went on to the fourth: whoever closed it loses, unless a perpetual check
        decides (so the search never drifts into a cycle the rules would make it lose).
        None: no repetition to judge (the first, or an earlier one of the game's own)."""
        keys = self.keys
        now = len(keys) - 1
        key = keys[now]
        if self.seen[key] < 2:
            return None
        earlier = [i for i in range(now - 2, self.floor - 1, -2) if keys[i] == key]
        if not earlier:
            return None
        if len(earlier) >= REPETITIONS - 1:
            return verdict(self.checks, earlier[REPETITIONS - 2], now), True
        if earlier[0] < self.root:
            return None
        return verdict(self.checks, earlier[0], now), False


def verdict(checks: list[bool], first: int, now: int) -> int:
    """TS10 as ``rules.torishogi.rulings.repetition_outcome`` judges the stretch from
    ``first`` to ``now`` (positions of the same side to move at both ends), for the side to
    move now: +1 won, -1 lost, 0 drawn."""
    mover_checks = all(checks[i] for i in range(first, now + 1, 2))
    to_move_checks = all(checks[i] for i in range(first + 1, now, 2))
    if mover_checks and to_move_checks:
        return 0
    if to_move_checks:
        return -1
    return 1  # the mover repeated (or checked throughout): the mover loses


def _hands(packed: bytes) -> list[list[int]]:
    """The two hands of a repetition key (``Position.key``: both hands' counts in a row)."""
    half = len(packed) // 2
    return [list(packed[:half]), list(packed[half:])]
