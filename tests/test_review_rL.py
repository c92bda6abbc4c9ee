"""Review rL: Torii's rules exactly (TI1-TI20) and the hosting around them; each test asserts
the correct behaviour and fails today."""

from __future__ import annotations

import pytest
from test_torii_positions import make

from bot.service import Place, User
from rules.errors import IllegalAction

HERE = Place(guild_id=1, channel_id=100)
ANN, BOB = User(1, "ann"), User(2, "bob")
HOUR = 3600.0


# ---- refusals name the ruling that forbids the turn ----------------------------------------


def test_a_deers_one_diagonal_step_back_to_its_start_is_refused_for_the_start() -> None:
    """TI7 / TI12: from c2 the Deer steps up to c3, right to d3, then down-left back to c2, its
    only diagonal step of the turn. The step is illegal because c2 is where the turn began
    (TI7); the refusal says "only one step of a turn may be diagonal (TI12)" while no diagonal
    was made yet, and lists a diagonal step (f1) among the allowed ones."""
    game = make("", spirits="Dc2,Ke5", tiles="123,123")
    with pytest.raises(IllegalAction) as info:
        game.parse_action("3 c3 d3 c2")
    assert info.value.rule == "TI7", info.value
    assert "where the turn began" in str(info.value), info.value
