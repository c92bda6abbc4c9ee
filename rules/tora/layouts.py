"""Starting armies and terrain presets (R4, R5, R6): pure data, standard library only.

Conventions (R2):

* A square is ``(h, v)``. ``h`` counts 1..N from the Opposition's home edge (h=1) to the
  Challenger's home edge (h=N); ``v`` counts 1..N across. Short board N=9, long board N=17.
* Notation writes the vertical number first: ``v5h7`` is ``(h=7, v=5)``.
* Directions: N is v+1, E is h+1 (towards the Challenger's edge); so S is v-1, W is h-1,
  NE is (h+1, v+1), and so on.

Setups are given for the Challenger only, as ``(letter, h, v)`` triples. Letters: G General,
R Ruler (shown as K or Q), A Archer, S Soldier, H Cavalry, C Cannon. The Opposition's army is
the Challenger's rotated 180 degrees about the board centre: ``mirror(h, v, size)``.
Each player picks a strategy independently, so any Challenger setup meets any Opposition setup.

Terrain presets are map texts in the syntax of R50's ``TerrainMap`` header: clauses separated
by ``;``, each ``water <squares>``, ``forest <squares>`` or ``hill <square> <downhill direction>``.
Every preset is symmetric under the same 180-degree rotation (a hill's image points the opposite
way), keeps off both home edges and off every starting square, and leaves open lanes.
The preset ``none`` is not listed here; the engine adds it.

The long setups are this project's design (R5): once published they must stay stable, because
recorded games (R50) name a setup, not its squares. Each Cannon stands in the second column (h14)
with friendly pieces on its W, NW and SW squares, so whatever setups meet, no Cannon's line of
fire reaches an enemy piece at the start; every other piece is 8 columns from the enemy front.
"""

from __future__ import annotations

SHORT_SETUPS: dict[str, tuple[tuple[str, int, int], ...]] = {
    # R4, copied from the ruling: G h9v5, C h8v5, S h8v4, S h8v6, A h7v5, A h9v3, A h9v7.
    "aggressive": (
        ("G", 9, 5),
        ("C", 8, 5),
        ("S", 8, 4),
        ("S", 8, 6),
        ("A", 7, 5),
        ("A", 9, 3),
        ("A", 9, 7),
    ),
    # R4: G h9v5, C h8v5, S h8v4, S h8v6, A h7v4, A h7v5, A h7v6.
    "defensive": (
        ("G", 9, 5),
        ("C", 8, 5),
        ("S", 8, 4),
        ("S", 8, 6),
        ("A", 7, 4),
        ("A", 7, 5),
        ("A", 7, 6),
    ),
}

LONG_SETUPS: dict[str, tuple[tuple[str, int, int], ...]] = {
    # Archers in the front column, cavalry on the front flanks and in the second line.
    "aggressive": (
        ("R", 17, 9),  # fixed by R5
        ("G", 14, 4),  # fixed by R5
        ("G", 13, 14),  # fixed by R5
        ("C", 14, 5),  # beside the first General, shielded by h13v4..v6
        ("C", 14, 13),  # behind the second General's flank, shielded by h13v12..v14
        ("S", 13, 3),
        ("S", 13, 5),
        ("S", 13, 12),
        ("S", 13, 15),
        ("S", 14, 7),
        ("S", 14, 9),
        ("S", 14, 11),
        ("S", 16, 8),
        ("S", 16, 10),
        ("A", 13, 4),
        ("A", 13, 6),
        ("A", 13, 7),
        ("A", 13, 8),
        ("A", 13, 9),
        ("A", 13, 10),
        ("A", 13, 11),
        ("A", 13, 13),
        ("A", 14, 3),
        ("H", 13, 2),
        ("H", 13, 16),
        ("H", 14, 8),
        ("H", 14, 10),
    ),
    # An unbroken front wall v3..v15 of Soldiers, three Archers and the second General; the
    # Cannons right behind it, the other Archers further back, Cavalry in reserve.
    "defensive": (
        ("R", 17, 9),  # fixed by R5
        ("G", 14, 4),  # fixed by R5
        ("G", 13, 14),  # fixed by R5
        ("C", 14, 5),  # beside the first General, shielded by h13v4..v6
        ("C", 14, 13),  # behind the second General's flank, shielded by h13v12..v14
        ("S", 13, 3),
        ("S", 13, 5),
        ("S", 13, 6),
        ("S", 13, 7),
        ("S", 13, 8),
        ("S", 13, 9),
        ("S", 13, 10),
        ("S", 13, 11),
        ("S", 13, 12),
        ("A", 13, 4),
        ("A", 13, 13),
        ("A", 13, 15),
        ("A", 14, 3),
        ("A", 14, 8),
        ("A", 14, 10),
        ("A", 14, 15),
        ("A", 16, 8),
        ("A", 16, 10),
        ("H", 15, 2),
        ("H", 15, 6),
        ("H", 15, 12),
        ("H", 15, 16),
    ),
}

TERRAIN_PRESETS: dict[str, dict[str, str]] = {
    "short": {
        # A river down the middle column, crossed dry-shod at v3, v5 and v7; woods at its ends.
        "river": "water v1h5 v2h5 v4h5 v6h5 v8h5 v9h5; forest v2h4 v8h4 v2h6 v8h6",
        # Two woods on opposite wings, a pond in the centre and one beside each wood.
        "woods": "water v3h6 v5h5 v7h4; forest v2h4 v3h4 v2h5 v8h5 v7h6 v8h6",
        # Each side's forward ridge slopes down to a wet valley in the centre.
        "highlands": (
            "water v5h5; forest v2h5 v8h5; "
            "hill v4h4 E; hill v5h4 E; hill v6h4 E; "
            "hill v4h6 W; hill v5h6 W; hill v6h6 W"
        ),
    },
    "long": {
        # A river down h9 with three fords (v3-v4, v8-v10, v14-v15); woods along its banks.
        "river": (
            "water v1h9 v2h9 v5h9 v6h9 v7h9 v11h9 v12h9 v13h9 v16h9 v17h9; "
            "forest v1h7 v2h7 v5h8 v6h8 v7h8 v11h10 v12h10 v13h10 v16h11 v17h11"
        ),
        # Four groves, two per side, with a pond at the centre.
        "woods": (
            "water v8h9 v9h9 v10h9; "
            "forest v3h7 v4h7 v4h8 v12h8 v13h8 v13h7 v5h10 v6h10 v5h11 v14h10 v14h11 v15h11"
        ),
        # Each side's forward ridge (h6 / h12) and a flank spur slope down to a wet valley.
        "highlands": (
            "water v8h9 v9h9 v10h9; forest v4h9 v14h9; "
            "hill v2h7 NE; hill v3h7 NE; "
            "hill v6h6 E; hill v7h6 E; hill v8h6 E; hill v9h6 E; "
            "hill v10h6 E; hill v11h6 E; hill v12h6 E; "
            "hill v6h12 W; hill v7h12 W; hill v8h12 W; hill v9h12 W; "
            "hill v10h12 W; hill v11h12 W; hill v12h12 W; "
            "hill v15h11 SW; hill v16h11 SW"
        ),
    },
}


def mirror(h: int, v: int, size: int) -> tuple[int, int]:
    """The square rotated 180 degrees: the Opposition's square for a Challenger square."""
    return size + 1 - h, size + 1 - v
