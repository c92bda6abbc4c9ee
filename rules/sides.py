"""The two sides of every hosted game: the Challenger moves first, the Opposition second."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import IntEnum

from .words import Text, msg


class Side(IntEnum):
    CHALLENGER = 0
    OPPOSITION = 1

    @property
    def other(self) -> Side:
        return _OTHERS[self]

    @property
    def letter(self) -> str:
        return "CO"[self]

    @property
    def title(self) -> str:
        return ("challenger", "opposition")[self]

    @property
    def term(self) -> str:
        """The side as the rule books name it, a game term in every language's texts."""
        return ("Challenger", "Opposition")[self]

    @classmethod
    def from_letter(cls, letter: str) -> Side:
        try:
            return cls("CO".index(letter.upper()))
        except ValueError:
            raise ValueError(f"side must be C or O, not {letter!r}") from None


_OTHERS = (Side.OPPOSITION, Side.CHALLENGER)  # by side: ``Side(1 - side)``, looked up


@dataclass(frozen=True)
class Outcome:
    """How a game (or series) ended; ``winner`` is None for a tie. ``reason`` is a short
    phrase ("resignation", "checkmate", "forfeit", ...)."""

    winner: Side | None
    reason: str

    def __str__(self) -> str:
        head = "tie" if self.winner is None else f"{self.winner.title} wins"
        return f"{head} ({self.reason})"

    def words(self, reasons: Mapping[str, str]) -> Text:
        """``str(self)`` as a message, its reason worded by ``reasons`` (the game's)."""
        reason = reasons.get(self.reason, self.reason)
        if self.winner is None:
            return msg("tie ({reason})", reason=reason)
        return msg("{side} wins ({reason})", side=self.winner.term, reason=reason)
