"""Sides, piece kinds and point values (R13-R23, R27)."""

from __future__ import annotations

from typing import NamedTuple

from ..sides import Side

GENERAL, RULER, ARCHER, SOLDIER, CAVALRY, CANNON, ASSASSIN = "G", "R", "A", "S", "H", "C", "X"
KIND_NAMES = {
    GENERAL: "General",
    RULER: "Ruler",
    ARCHER: "Archer",
    SOLDIER: "Soldier",
    CAVALRY: "Cavalry",
    CANNON: "Cannon",
    ASSASSIN: "Assassin",
}
COMMAND_KINDS = frozenset({GENERAL, RULER})

# R27: values without and with the Assassin rules.
VALUES = {GENERAL: 8, RULER: 8, ARCHER: 1, SOLDIER: 1, CAVALRY: 3, CANNON: 3, ASSASSIN: 5}
ASSASSIN_VALUES = {GENERAL: 7, RULER: 7, ARCHER: 1, SOLDIER: 1, CAVALRY: 3, CANNON: 2, ASSASSIN: 5}


class Piece(NamedTuple):
    """One piece. Immutable: a change makes a new Piece (``_replace``), so copies are cheap."""

    id: int
    side: Side
    kind: str
    sq: int
    defending: bool = False
    ready: bool = True
    doomed: bool = False
    hidden: bool = False

    @property
    def is_command(self) -> bool:
        return self.kind in COMMAND_KINDS
