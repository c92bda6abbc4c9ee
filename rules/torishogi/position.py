"""A position: board, hands, side to move and move counters, with incremental make/unmake.

``make`` returns a small token that ``unmake`` needs to restore the position exactly; both
touch only the squares and hand counts the move changes, so a search (perft, the Swallow-drop
mate test) costs no copying.
"""

from __future__ import annotations

from .board import SQUARES
from .moves import DROP, PROMOTES
from .pieces import BASE, EAGLE, FALCON, GOOSE, PHOENIX, SWALLOW, code, kind_of

# PROMOTED[code]: the code a promoting piece becomes; BASE_OF[code]: the kind a captured piece
# goes to the hand as (TS4, unpromoted).
PROMOTED = list(range(32))
for _side in (0, 1):
    PROMOTED[code(SWALLOW, _side)] = code(GOOSE, _side)
    PROMOTED[code(FALCON, _side)] = code(EAGLE, _side)
BASE_OF = [BASE.get(c & 15, 0) for c in range(32)]

Key = tuple[bytes, bytes, int]
State = tuple[list[int], list[list[int]], int, int, int, list[int]]  # as pickled


class Position:
    """``board[sq]`` holds piece codes (0 empty); ``hands[side][kind]`` counts; ``kings``
    the two Phoenix squares; ``halfmove`` counts plies since the last capture, drop or
    promotion (the irreversible moves, after which Fairy-Stockfish starts it again) and
    ``fullmove`` starts at 1 and grows after each Opposition move, as in FEN."""

    __slots__ = ("board", "fullmove", "halfmove", "hands", "kings", "side")

    def __init__(
        self,
        board: list[int],
        hands: list[list[int]],
        side: int,
        halfmove: int = 0,
        fullmove: int = 1,
    ) -> None:
        self.board = board
        self.hands = hands
        self.side = side
        self.halfmove = halfmove
        self.fullmove = fullmove
        self.kings = [-1, -1]
        for sq in SQUARES:
            piece = board[sq]
            if piece and kind_of(piece) == PHOENIX:
                self.kings[piece >> 4] = sq

    def copy(self) -> Position:
        return Position(
            list(self.board),
            [list(self.hands[0]), list(self.hands[1])],
            self.side,
            self.halfmove,
            self.fullmove,
        )

    def key(self) -> Key:
        """What makes two positions the same for repetition (TS10): board, hands, side."""
        return bytes(self.board), bytes(self.hands[0] + self.hands[1]), self.side

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return (
            self.key() == other.key()
            and self.halfmove == other.halfmove
            and self.fullmove == other.fullmove
            and self.kings == other.kings
        )

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __getstate__(self) -> State:
        return (self.board, self.hands, self.side, self.halfmove, self.fullmove, self.kings)

    def __setstate__(self, state: State) -> None:
        self.board, self.hands, self.side, self.halfmove, self.fullmove, self.kings = state

    def make(self, move: int) -> int:
        """Play ``move`` (assumed legal); returns the token ``unmake`` needs: the captured
        code and the previous half-move clock."""
        board = self.board
        side = self.side
        to = move & 63
        origin = move >> 6 & 63
        token = self.halfmove << 5
        if origin >= DROP:
            board[to] = origin - DROP | side << 4
            self.hands[side][origin - DROP] -= 1
            self.halfmove = 0
        else:
            piece = board[origin]
            captured = board[to]
            if captured:
                self.hands[side][BASE_OF[captured]] += 1
                token |= captured
            self.halfmove = 0 if captured or move & PROMOTES else self.halfmove + 1
            board[origin] = 0
            board[to] = PROMOTED[piece] if move & PROMOTES else piece
            if piece & 15 == PHOENIX:
                self.kings[side] = to
        if side:
            self.fullmove += 1
        self.side = side ^ 1
        return token

    def unmake(self, move: int, token: int) -> None:
        side = self.side ^ 1
        self.side = side
        if side:
            self.fullmove -= 1
        self.halfmove = token >> 5
        board = self.board
        to = move & 63
        origin = move >> 6 & 63
        if origin >= DROP:
            board[to] = 0
            self.hands[side][origin - DROP] += 1
            return
        piece = board[to]
        if move & PROMOTES:
            piece = piece - GOOSE + SWALLOW if piece & 15 == GOOSE else piece - EAGLE + FALCON
        board[origin] = piece
        captured = token & 31
        board[to] = captured
        if captured:
            self.hands[side][BASE_OF[captured]] -= 1
        if piece & 15 == PHOENIX:
            self.kings[side] = origin
