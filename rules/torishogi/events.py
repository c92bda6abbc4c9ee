"""What a move or a game-level act did (``rules.protocol.GameEvent``), and finished turns."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rules.protocol import FORFEIT
from rules.sides import Side
from rules.turn import DRAW, RESIGN

from .board import SHOWN
from .moves import readable
from .pieces import NAME, PROMOTES_TO

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
            return f"{me} resigns"
        if self.text == DRAW:
            return f"{me} and {them} agree a draw"
        if self.text == FORFEIT_WORD:
            return f"{me} forfeits on missed turns"
        assert self.target is not None
        square = SHOWN[self.target]
        if self.origin is None:
            said = f"{me} drops a {NAME[self.kind]} on {square}"
        else:
            parts = [f"moves {SHOWN[self.origin]}-{square}"]
            if self.captured:
                parts.append(f"captures {them}'s {NAME[self.captured]}")
            if self.promoted:
                parts.append(f"promotes to {NAME[PROMOTES_TO[self.kind]]}")
            said = f"{me}'s {NAME[self.kind]} {listing(parts)}"
        return f"{said}, {self.note}" if self.note else said


def listing(items: Sequence[str]) -> str:
    """Items as a sentence lists them: "a", "a and b", "a, b and c"."""
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " and " + items[-1]


@dataclass
class Turn:
    """A finished turn (``rules.protocol.GameTurn``): the move's notation, or a game word."""

    side: Side
    texts: list[str]
    events: list[Event] = field(default_factory=list)
