"""Chapter 10 of the rule book, the part that is TORA's own: what each enemy piece a player
captures is worth in Game Points (the R27 values, and the bands' effects), the most one army
gives, the handicaps of a rank differential, and what each side captured in a finished game
(``CHAPTER_10``, the ``rules.hosting.Scoring`` that TORA's game type offers). The tournament
format built on it (four-game matches, bands, ranks) is the host's.

Captures are counted by kind: ``command`` holds Generals and Rulers together (a crowned
General is a Ruler; both are worth the same)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from ..sides import Side
from .game import Game
from .geometry import LONG, SHORT
from .pieces import (
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

# A kind of capture -> the piece letter whose R27 value it carries.
LETTERS = {
    "soldiers": SOLDIER,
    "archers": ARCHER,
    "cannons": CANNON,
    "cavalry": CAVALRY,
    "command": GENERAL,
    "assassin": ASSASSIN,
}
KINDS = tuple(LETTERS)

# Rank differential -> (lower ranked player, higher ranked player); 8 stands for "8+".
LONG_HANDICAPS: dict[int, tuple[int, int]] = {
    4: (0, -4),
    5: (6, -8),
    6: (12, -12),
    7: (18, -16),
    8: (24, -20),
}
SHORT_HANDICAPS: dict[int, tuple[int, int]] = {
    4: (0, -1),
    5: (1, -2),
    6: (2, -3),
    7: (4, -4),
    8: (6, -5),
}
HANDICAPS = {LONG: LONG_HANDICAPS, SHORT: SHORT_HANDICAPS}
FIRST_ROW = 4  # "Players within 3 ranks of each other do not use this table."
LAST_ROW = 8  # "8+": larger differentials use this row too

# The chart's bands, as the rank transition each states.
TWO_LOWER, ONE_HIGHER, TWO_HIGHER, THREE_HIGHER = -2, 1, 2, 3


def kinds_of(letters: Iterable[str]) -> dict[str, int]:
    """Captures by kind from the piece letters (G, R, A, S, H, C, X) of the pieces scored."""
    counts = Counter(GENERAL if letter == RULER else letter for letter in letters)
    unknown = set(counts) - set(LETTERS.values())
    if unknown:
        raise ValueError(f"unknown piece letters: {', '.join(sorted(unknown))}")
    return {kind: counts[letter] for kind, letter in LETTERS.items()}


def piece_values(assassins: bool) -> dict[str, int]:
    """R27 value of each kind of capture: the second table when the Assassin rules are on."""
    table = ASSASSIN_VALUES if assassins else VALUES
    return {kind: table[letter] for kind, letter in LETTERS.items()}


class Chapter10:
    """TORA's tournament scoring (see the module's docstring)."""

    boards: tuple[str, ...] = (SHORT, LONG)
    kinds: tuple[str, ...] = KINDS

    def options(self, board: str) -> dict[str, Any]:
        return {"board": board}

    def army(self, board: str, assassins: bool) -> dict[str, int]:
        """A whole army, the most one player can capture in a game.

        Short: 1 General, 1 Cannon, 3 Archers and 2 Soldiers (chapter 10: "1 General- 8
        points, 1 Cannon/Catapult- 3 points, Combination of any two and three Archers and
        Soldiers"). Long: 1 Ruler and 2 Generals, 9 Archers, 9 Soldiers, 4 Cavalry, 2 Cannons
        and, with the Assassin rules, the Assassin if the opponent fields one.
        """
        if board == SHORT:
            if assassins:
                raise ValueError("the Assassin rules are played on the long board only (R40)")
            return dict.fromkeys(KINDS, 0) | {
                "soldiers": 2,
                "archers": 3,
                "cannons": 1,
                "command": 1,
            }
        return {
            "soldiers": 9,
            "archers": 9,
            "cannons": 2,
            "cavalry": 4,
            "command": 3,
            "assassin": int(assassins),
        }

    def values(self, assassins: bool, band: int) -> dict[str, int]:
        """What each captured piece is worth in Game Points to a player in ``band``.

        The effects add up as the bands rise: a player at 80-95% also has Cannons at 1
        point, one at 96-100% Cannons and Cavalry at 1 and command pieces at 5, so a better
        score never earns more Game Points from the same captures. At 0-19% every piece is
        worth 1 more.
        """
        values = piece_values(assassins)
        if band >= ONE_HIGHER:
            values["cannons"] = 1
        if band >= TWO_HIGHER:
            values["cavalry"] = 1
        if band >= THREE_HIGHER:
            values["command"] = 5
        if band == TWO_LOWER:
            values = {kind: value + 1 for kind, value in values.items()}
        return values

    def rank_handicap(self, board: str, ranks: tuple[int, int]) -> tuple[int, int]:
        """Game Points added to each player's match total for the difference of their ranks.

        A higher rank number is the stronger player (the chapter's Player A goes from rank 2
        to rank 3 by playing better), so the lower number is the "Lower Ranked Player".
        """
        first, second = ranks
        differential = abs(first - second)
        if differential < FIRST_ROW:
            return 0, 0
        lower, higher = HANDICAPS[board][min(differential, LAST_ROW)]
        return (lower, higher) if first < second else (higher, lower)

    def scored(self, game: Any) -> tuple[dict[str, int], dict[str, int]]:
        """The enemy pieces each side scored in a finished game.

        A side scores every enemy piece it removes (R27), and a command piece as soon as it
        is doomed (the game may end before the round removes it). So the pieces a side
        scored are the enemy's army as set up, less the enemy pieces still standing and not
        doomed. The one exception, a friendly piece removed with a revealed Assassin (R43),
        needs the Assassin rules, which tournament games do not use; the totals are checked
        against the game's own score all the same.
        """
        if not isinstance(game, Game):
            raise ValueError("tournament games are TORA's")
        if not game.is_over():
            raise ValueError("captures are read once the game is over")
        if game.options.assassins:
            raise ValueError("tournament games are played without the Assassin rules")
        if game.game_number != 1:
            raise ValueError("tournament games are single games, not a series to a target")
        army = Counter((p.side, p.kind) for p in Game(game.options).pieces())
        standing = Counter((p.side, p.kind) for p in game.pieces() if not p.doomed)
        gone = army.copy()
        gone.subtract(standing)
        scored = []
        values = piece_values(False)
        for side in Side:
            letters = [k for (owner, k), n in gone.items() if owner is side.other for _ in range(n)]
            counts = kinds_of(letters)
            if sum(counts[kind] * values[kind] for kind in KINDS) != game.scores()[side]:
                raise ValueError(
                    f"the {side.title}'s captures do not add up to its score {game.scores()[side]}"
                )
            scored.append(counts)
        return scored[0], scored[1]


CHAPTER_10 = Chapter10()
