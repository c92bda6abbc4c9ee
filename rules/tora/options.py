"""A match's options (R4, R5, R28, R31-R33, R40): the board, each side's deployment and Ruler,
the terrain, the Assassin rules and a series' point target."""

from __future__ import annotations

from dataclasses import dataclass

from .geometry import BOARD_SIZES, LONG, SHORT
from .terrain import Terrain, parse_map, preset

STRATEGIES = ("aggressive", "defensive")


@dataclass(frozen=True)
class Options:
    board: str = SHORT
    challenger_setup: str = "aggressive"
    opposition_setup: str = "aggressive"
    terrain: str = "none"
    terrain_map: str = ""
    assassins: bool = False
    rulers: tuple[str, str] = ("K", "K")
    target: int = 0

    def validate(self) -> None:
        if self.board not in BOARD_SIZES:
            raise ValueError(f"board must be short or long, not {self.board!r}")
        for who, setup in (
            ("Challenger", self.challenger_setup),
            ("Opposition", self.opposition_setup),
        ):
            if setup not in STRATEGIES:
                raise ValueError(f"{who} setup must be aggressive or defensive, not {setup!r}")
        for letter in self.rulers:
            if letter not in ("K", "Q"):
                raise ValueError(f"a Ruler is K or Q, not {letter!r}")
        if self.assassins and self.board != LONG:
            raise ValueError("Assassins are played on the long board only (rule book ch. 2)")
        if self.target < 0:
            raise ValueError("a point target must be positive")

    def make_terrain(self) -> Terrain:
        size = BOARD_SIZES[self.board]
        if self.terrain_map:
            return parse_map(self.terrain_map, size)
        return preset(self.board, self.terrain)

    @property
    def strategies(self) -> tuple[str, str]:
        """Each side's deployment (R4, R5), the Challenger's first."""
        return self.challenger_setup, self.opposition_setup
