"""ToriShogi's evaluation, in centi-Swallows (``tables``): material on the board and in hand
with the square bonuses (kept up to date move by move by ``state.SearchState``), Phoenix
safety, and a small bonus for the side to move.

Phoenix safety: the enemy pieces within two squares of a Phoenix and the pieces in the
enemy's hand (each one a drop beside it) count as attackers, weighted by how much harm the
piece does near a king; the danger grows with the square of their sum (one attacker is
little, three together are a mating net) and the Phoenix's own pieces beside it soften it.

For the host (``ai.engines``): ``evaluate`` is the same evaluation of a game for a side, in
Swallows; ``balance`` the material alone (what only a capture changes).
"""

from __future__ import annotations

from rules import Side
from rules.torishogi import (
    CRANE,
    EAGLE,
    FALCON,
    GOOSE,
    LEFT_QUAIL,
    PHEASANT,
    RIGHT_QUAIL,
    SIZE,
    SQUARES,
    SWALLOW,
    Position,
    ToriShogiGame,
)

from .tables import VALUE, material

TEMPO = 12
# How much an enemy piece near a Phoenix (or in hand, to be dropped there) threatens it.
THREAT = [0] * 16
for _kind, _weight in (
    (SWALLOW, 2),
    (PHEASANT, 2),
    (CRANE, 3),
    (LEFT_QUAIL, 3),
    (RIGHT_QUAIL, 3),
    (FALCON, 4),
    (GOOSE, 3),
    (EAGLE, 6),
):
    THREAT[_kind] = _weight
DANGER_SCALE = 4  # centi-Swallows per squared threat unit (self-play: docs/AI.md)
DANGER_CAP = 450
GUARD = 12  # each own piece beside the Phoenix
GUARDS_COUNTED = 4


def _near(sq: int, reach: int) -> tuple[int, ...]:
    rank, file = divmod(sq, SIZE)
    return tuple(
        other
        for other in SQUARES
        if other != sq and abs(other // SIZE - rank) <= reach and abs(other % SIZE - file) <= reach
    )


NEAR1 = [frozenset(_near(sq, 1)) for sq in SQUARES]
NEAR2 = [_near(sq, 2) for sq in SQUARES]


def danger(pos: Position, side: int) -> int:
    """How exposed ``side``'s Phoenix is (centi-Swallows, >= 0 before its guards)."""
    board = pos.board
    king = pos.kings[side]
    if king < 0:
        return 0
    near = NEAR1[king]
    threat = 0
    guards = 0
    for sq in NEAR2[king]:
        piece = board[sq]
        if piece:
            if piece >> 4 == side:
                if sq in near:
                    guards += 1
            else:
                threat += THREAT[piece & 15]
    enemy_hand = pos.hands[side ^ 1]
    threat += sum(THREAT[kind] for kind in range(1, 7) if enemy_hand[kind])
    return min(DANGER_SCALE * threat * threat, DANGER_CAP) - GUARD * min(guards, GUARDS_COUNTED)


def static(pos: Position, material: int) -> int:
    """The position for the side to move, in centi-Swallows, its ``material`` (for the
    Challenger, ``tables.material``) already counted."""
    score = material + danger(pos, 1) - danger(pos, 0)
    return (score if pos.side == 0 else -score) + TEMPO


def evaluate(game: ToriShogiGame, side: Side) -> float:
    """``static`` of ``game``'s position for ``side``, in Swallows."""
    pos = game.pos
    score = static(pos, material(pos.board, pos.hands)) - TEMPO
    return (score if game.side == side else -score) / VALUE[SWALLOW]


def balance(game: ToriShogiGame, side: Side) -> float:
    """Material on the board and in hand, in Swallows, each piece at its board value (the
    square bonuses and the hand's premium left out, so a drop moves nothing), the side's less
    the enemy's, halved: what only a capture (or a promotion) changes. A capture moves a
    piece from one side to the other, so one Swallow taken stands its owner one Swallow
    down, not two and a tenth."""
    pos = game.pos
    board = sum((VALUE[p & 15] if p >> 4 == 0 else -VALUE[p & 15]) for p in pos.board if p)
    hands = sum(
        VALUE[kind] * (count if who == 0 else -count)
        for who in (0, 1)
        for kind, count in enumerate(pos.hands[who])
        if count
    )
    total = (board + hands) / 2
    return (total if side == Side(0) else -total) / VALUE[SWALLOW]
