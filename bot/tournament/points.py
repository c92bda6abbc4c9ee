"""Game Point Value of one game: the enemy pieces a player scored, at the R27 values."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, fields
from enum import StrEnum

from rules.tora import (
    ARCHER,
    ASSASSIN,
    ASSASSIN_VALUES,
    CANNON,
    CAVALRY,
    GENERAL,
    RULER,
    SOLDIER,
    VALUES,
)


class Board(StrEnum):
    """The board size; ranks, tables and targets are all kept per board (chapter 10)."""

    SHORT = "short"
    LONG = "long"


# Captures field -> the rules core's piece letter whose R27 value it carries.
_LETTERS = {
    "soldiers": SOLDIER,
    "archers": ARCHER,
    "cannons": CANNON,
    "cavalry": CAVALRY,
    "command": GENERAL,
    "assassin": ASSASSIN,
}


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
    def from_kinds(cls, kinds: Iterable[str]) -> Captures:
        """From the rules core's piece letters (G, R, A, S, H, C, X) of the pieces scored."""
        counts = Counter(GENERAL if kind == RULER else kind for kind in kinds)
        unknown = set(counts) - set(_LETTERS.values())
        if unknown:
            raise ValueError(f"unknown piece letters: {', '.join(sorted(unknown))}")
        return cls(**{name: counts[letter] for name, letter in _LETTERS.items()})

    def counts(self) -> dict[str, int]:
        """Field name -> number captured."""
        return {field.name: getattr(self, field.name) for field in fields(self)}


def piece_values(assassins: bool) -> dict[str, int]:
    """R27 value of each Captures field: the second table when the Assassin rules are on."""
    table = ASSASSIN_VALUES if assassins else VALUES
    return {name: table[letter] for name, letter in _LETTERS.items()}


def army(board: Board, assassins: bool) -> Captures:
    """A whole army, the most one player can capture in a game.

    Short: 1 General, 1 Cannon, 3 Archers and 2 Soldiers (chapter 10: "1 General- 8 points,
    1 Cannon/Catapult- 3 points, Combination of any two and three Archers and Soldiers").
    Long: 1 Ruler and 2 Generals, 9 Archers, 9 Soldiers, 4 Cavalry, 2 Cannons and, with the
    Assassin rules, the Assassin if the opponent fields one.
    """
    if board is Board.SHORT:
        if assassins:
            raise ValueError("the Assassin rules are played on the long board only (R40)")
        return Captures(soldiers=2, archers=3, cannons=1, command=1)
    return Captures(soldiers=9, archers=9, cannons=2, cavalry=4, command=3, assassin=int(assassins))


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
