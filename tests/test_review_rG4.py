"""Review rG4: Torii's words, menus and refusals against TI1-TI20 (failing tests, one per bug)."""

from __future__ import annotations

import pytest
from test_torii_positions import make

from rules.errors import IllegalAction
from rules.torii import TORII


def test_rg4_monkey_flip_label_hides_that_it_cancels_the_builders_reset() -> None:
    """TI15/TI11: ann (all tiles used after her turn) builds a Torii; bob's Monkey menu offers
    "Flip the opponent's tile 1 (used -> unused)", which reads as giving ann a tile back.
    Picking it leaves ann with tile 1 only, where "Flip no tile" would have reset all three
    (TI11): the label says the opposite of the flip's effect on ann's next turn. It should
    say that the reset then does not happen (ann keeps tiles 2 and 3 used)."""
    game = make(
        """
        ......
        ......
        ......
        .ccc..
        ......
        ......""",
        spirits="Ka2,Mf6",
        tiles="1,123",
    )
    game.apply("1 a3 build b3")
    game.end_turn()
    labels = {c.notation: str(c.label) for c in game.choices()}
    probe = game.copy()
    probe.apply("flip C")
    probe.end_turn()
    assert probe.fen().split()[4] == "1,123"  # ann: only tile 1 unused, no reset
    none = game.copy()
    none.apply("flip none")
    none.end_turn()
    assert none.fen().split()[4] == "123,123"  # flip none: ann's reset gives her all three
    label = labels["flip C"]
    assert "reset" in label or "2" in label, label
