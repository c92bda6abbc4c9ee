"""What a move or a game-level act did (``rules.protocol.GameEvent``), and finished turns."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rules.protocol import FORFEIT
from rules.sides import Side
from rules.turn import DRAW, RESIGN
from rules.words import frame, listing, msg

from .board import SHOWN
from .moves import readable
from .pieces import NAME, PROMOTES_TO

NOTES = {"check": msg("check"), "checkmate": msg("checkmate")}  # an event's note, worded

FORFEIT_WORD = FORFEIT
GAME_WORDS = (RESIGN, DRAW, FORFEIT_WORD)


@dataclass(frozen=True)
class Event:
    """One staged or played move (``text`` its canonical notation, Fairy-Stockfish's, as it is
    stored and recorded), or a game-level act (``text`` one of ``GAME_WORDS``). Nothing in
    ToriShogi is hidden: ``public()`` is the event itself. ``note`` is "check", "checkmate"
    or empty."""

    side: Side
    text: str
    hidden: bool = False
    note: str = ""
    kind: int = 0  # the piece moved or dropped, before promotion
    origin: int | None = None  # None for a drop
    target: int | None = None
    captured: int = 0
    promoted: bool = False

    @property
    def readable(self) -> str:
        """The move in the players' form ("Falcon 4f-5f", "Swallow drop 4d"), or the word."""
        if self.target is None:
            return self.text
        return readable(self.kind, self.origin, self.target, self.captured, self.promoted)

    def public(self) -> Event:
        return self

    def words(self, names: Sequence[str]) -> str:
        """ "ann's Falcon moves 4f-5f and captures bob's Swallow", "bob drops a Swallow on
        4d, check", "ann resigns" (in the board's coordinates, TS1)."""
        me, them = names[self.side], names[self.side.other]
        if self.text == RESIGN:
            return msg("{player} resigns", player=me)
        if self.text == DRAW:
            return msg("{player} and {opponent} agree a draw", player=me, opponent=them)
        if self.text == FORFEIT_WORD:
            return msg("{player} forfeits on missed turns", player=me)
        assert self.target is not None
        square = SHOWN[self.target]
        if self.origin is None:
            said = msg(
                "{player} drops a {piece} on {square}",
                player=me,
                piece=NAME[self.kind],
                square=square,
            )
        else:
            parts = [msg("moves {origin}-{target}", origin=SHOWN[self.origin], target=square)]
            if self.captured:
                parts.append(
                    msg("captures {opponent}'s {piece}", opponent=them, piece=NAME[self.captured])
                )
            if self.promoted:
                parts.append(msg("promotes to {piece}", piece=NAME[PROMOTES_TO[self.kind]]))
            said = msg(
                "{player}'s {piece} {actions}",
                player=me,
                piece=NAME[self.kind],
                actions=listing(parts),
            )
        if not self.note:
            return said
        return frame("{said}, {note}", said=said, note=NOTES.get(self.note, self.note))


@dataclass
class Turn:
    """A finished turn (``rules.protocol.GameTurn``): the move's notation, or a game word."""

    side: Side
    texts: list[str]
    events: list[Event] = field(default_factory=list)
