"""What a host asks of a game besides its turns, as plain data: a player's setup answered
(``Answered``), an agreement only some games have (``Agreement``), and the tournament scoring
of a game whose rule book has it (``Scoring``). The game seam (``rules.protocol.GameType``)
speaks these; the defaults a plain game takes are ``rules.policies.Policies``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol


@dataclass(frozen=True)
class Answered:
    """A player's setup after one request: every answer so far by question name, and a note
    on anything the request undid (TORA: an Assassin square no longer free, to choose again),
    "" for nothing."""

    answers: dict[str, str] = field(default_factory=dict)
    note: str = ""


@dataclass(frozen=True)
class Agreement:
    """Something the players of some games may agree on besides a draw (TORA's reset of a
    series, R28): ``kind`` as ``GameState.agreements`` names it; ``where`` says in which
    games, for a refusal to players of another game ("in a series (R28)"); ``needs`` says
    what it needs, for this game's players when it cannot be agreed now."""

    kind: str
    where: str
    needs: str


class Scoring(Protocol):
    """A tournament scoring (TORA's rule book, chapter 10): what each piece a player captures
    is worth in Game Points, the most one army gives, the handicaps of a rank differential,
    and what each side captured in a finished game. Captures are counted by ``kinds`` ("how
    many Soldiers"), boards named as in ``boards``; a band is the rank transition the
    chapter's chart gives a percentage score (-2 to 3)."""

    boards: tuple[str, ...]
    kinds: tuple[str, ...]

    def options(self, board: str) -> dict[str, Any]:
        """The match options of a tournament game on ``board`` (single games, no Assassins)."""
        ...

    def army(self, board: str, assassins: bool) -> dict[str, int]:
        """A whole army by kind: the most one player can capture in a game; ValueError for
        options the game does not have together."""
        ...

    def values(self, assassins: bool, band: int) -> dict[str, int]:
        """What each kind of capture is worth in Game Points to a player of ``band`` (0: the
        plain values of the game's own score)."""
        ...

    def rank_handicap(self, board: str, ranks: tuple[int, int]) -> tuple[int, int]:
        """Game Points added to each player's match total for the difference of their ranks
        (a higher rank is the stronger player)."""
        ...

    def scored(self, game: Any) -> tuple[dict[str, int], dict[str, int]]:
        """What each side (Challenger's first) captured in a finished game, by kind;
        ValueError for a game the scoring does not take (unfinished, or outside its rules)."""
        ...
