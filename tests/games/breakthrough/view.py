"""What a player or a spectator sees of a game of Breakthrough (``rules.protocol.GameView``);
it says its board as a ``SquareMap``, which the host's generic drawing draws."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.protocol import Placed, SquareMap
from rules.sides import Side

from .board import GRID, Event


@dataclass(frozen=True)
class View:
    """``board`` is what the viewer sees: the acting player's staged move played in their
    own view (the preview of ending the turn), the board before it in everyone else's."""

    viewer: Side | None
    side: Side
    actions_left: int
    staged: tuple[Event, ...]
    last_turn: tuple[Event, ...]
    outcome: str | None
    winner: Side | None
    board: tuple[Side | None, ...]
    game: str = "breakthrough"
    deciding: bool = False
    decision: str = ""
    forced_pass: bool = False

    def pawns(self, side: Side) -> int:
        return sum(who == side for who in self.board)

    def square_map(self) -> SquareMap:
        pieces = {
            GRID.name(sq): Placed(who, "P", "Pawn")
            for sq, who in enumerate(self.board)
            if who is not None
        }
        shown = self.staged or self.last_turn
        touched = tuple(
            GRID.name(sq)
            for event in shown
            for sq in (event.origin, event.target)
            if sq is not None
        )
        return GRID.square_map(pieces, touched)

    def summary(self, names: Sequence[str]) -> str:
        """ "Pawns: ann 4, bob 3; bob to move"."""
        counts = f"Pawns: {names[0]} {self.pawns(Side(0))}, {names[1]} {self.pawns(Side(1))}"
        if self.outcome is None:
            return f"{counts}; {names[self.side]} to move"
        reason = self.outcome.partition("(")[2].rstrip(")")
        head = "a draw" if self.winner is None else f"{names[self.winner]} wins"
        return f"{counts}; {head} ({reason})"
