"""Review rU: TORA's rules (rules/tora) against the rule book and rulings R1-R51.

Each test fails on a bug a player would notice; its docstring says what the player sees
and what they should see.
"""

from __future__ import annotations

import pytest
from positions import C, O, with_assassins

from rules.tora import ActionError


def _refusal(game, text: str) -> str:
    with pytest.raises(ActionError) as info:
        game.apply(text)
    return str(info.value)


def test_r43_r51_an_attack_then_search_is_not_refused_for_a_forest_that_is_not_there():
    """`A v9h12 x v9h10 search` (an attack and a search in one action, which R51 has no form
    for: a search follows at most a move) is read as a search with a target and refused with
    "R32: every square this arrow could pass is forest" on a board with no terrain at all;
    the same with a 1-away target says the Archer "cannot make that attack", an attack it
    may make. The player should be told what is wrong: a search cannot follow an attack
    (R43, R51)."""
    g = with_assassins((C, "A", "v9h12"), (O, "A", "v9h10"), (O, "A", "v9h11"))
    assert not g.pos.terrain.forest
    for text in ("A v9h12 x v9h10 search", "A v9h12 x v9h11 search"):
        message = _refusal(g, text)
        assert "forest" not in message, message
        assert "cannot make that attack" not in message, message
        assert "search" in message.lower(), message
