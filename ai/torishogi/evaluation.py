"""ToriShogi's evaluation: material on the board and in hand, in Swallows (ours, not a
published table: the two promoted birds are strong sliders, a piece in hand a little more
than on the board, as it can drop anywhere), and check."""

from __future__ import annotations

from rules import Side
from rules.torishogi import EAGLE, GOOSE, PHOENIX, SWALLOW, ToriShogiGame, View

VALUES = {SWALLOW: 1.0, GOOSE: 3.0, EAGLE: 9.0, PHOENIX: 0.0}
OTHER = 4.0  # Falcon, Crane, Pheasant and the Quails
HAND_BONUS = 1.1


def evaluate(game: ToriShogiGame, side: Side) -> float:
    view = game.view_for(side)
    total = _material(view, side)
    if view.in_check:
        total += -0.5 if view.side == side else 0.5
    return total


def balance(game: ToriShogiGame, side: Side) -> float:
    """Material on the board and in hand: what only a capture changes."""
    return _material(game.view_for(side), side)


def _material(view: View, side: Side) -> float:
    total = 0.0
    for piece in view.pieces:
        value = VALUES.get(piece.kind, OTHER)
        total += value if piece.side == side else -value
    for who in Side:
        for kind, count in view.hand(who):
            value = VALUES.get(kind, OTHER) * HAND_BONUS * count
            total += value if who == side else -value
    return total
