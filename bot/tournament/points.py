"""Game Point Value of one game: the enemy pieces a player scored, at the R27 values."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from enum import StrEnum

from .scoring import scoring


class Board(StrEnum):
    """The board size; ranks, tables and targets are all kept per board (chapter 10)."""

    SHORT = "short"
    LONG = "long"


@dataclass(frozen=True)
class Captures:
    """The enemy pieces one player scored in one game, by kind.

    ``command`` counts Generals and Rulers together (a crowned General is a Ruler; both are
    worth the same). Only scored pieces count: a friendly piece removed with a revealed Assassin
    scores nothing (R43), both pieces of a Cavalry trade do (R18).
    """

    soldiers: int = 0
    archers: int = 0
    cannons: int = 0
    cavalry: int = 0
    command: int = 0
    assassin: int = 0

    def __post_init__(self) -> None:
        for field in fields(self):
            if getattr(self, field.name) < 0:
                raise ValueError(f"captured {field.name} cannot be negative")

    @classmethod
    def of(cls, counts: Mapping[str, int]) -> Captures:
        """From captures counted by kind, as the scoring counts them."""
        return cls(**counts)

    def counts(self) -> dict[str, int]:
        """Field name -> number captured."""
        return {field.name: getattr(self, field.name) for field in fields(self)}


def piece_values(assassins: bool) -> dict[str, int]:
    """R27 value of each Captures field: the second table when the Assassin rules are on."""
    return scoring().values(assassins, 0)


def army(board: Board, assassins: bool) -> Captures:
    """A whole army, the most one player can capture in a game (ValueError: the Assassin
    rules on the short board, R40)."""
    return Captures.of(scoring().army(board, assassins))


def check_captures(captures: Captures, board: Board, assassins: bool) -> None:
    """Refuse captures one enemy army cannot provide."""
    limits = army(board, assassins).counts()
    for name, count in captures.counts().items():
        if count > limits[name]:
            rules = "with" if assassins else "without"
            raise ValueError(
                f"{count} {name} captured, but a {board}-board army {rules} the Assassin "
                f"rules has {limits[name]}"
            )


def personal_score(captures: Captures, assassins: bool) -> int:
    """A player's points in one game at the plain R27 values: the Game Point Value before any
    handicap, and the Personal Score the Percentage Score is taken from."""
    values = piece_values(assassins)
    return sum(count * values[name] for name, count in captures.counts().items())
