"""Review rL: Torii's rules exactly (TI1-TI20) and the hosting around them; each test asserts
the correct behaviour and fails today."""

from __future__ import annotations

import pytest
from test_torii_positions import make

from bot.service import Place, User
from rules.errors import IllegalAction
from rules.torii import TORII

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


# ---- records (TI19: as TORA's R50) --------------------------------------------------------


def test_a_record_writing_a_pass_as_r50_does_with_nothing_after_the_colon_is_read() -> None:
    """TI19 makes Torii's records "as TORA's R50", and R50 writes a pass as a turn line with
    "nothing after the colon for a pass" (TORA's reader reads it so). Torii's reader refuses
    such a line: "an empty action (nothing between ':' or ';' separators)", so a record
    written by the rulings' convention cannot be loaded, replayed or analysed."""
    record = "\n".join(
        [
            '[Game "torii"]',
            '[ChallengerSpirit "Deer"]',
            '[OppositionSpirit "Kitsune"]',
            '[Powers "on"]',
            '[FEN "6/6/6/6/6/6 Dc2,Kd5 9,9 4,4 -,123 C on"]',  # C's tiles all used: TI8
            "",
            "C:",
            "O: 3 e5 f5 f4",
            "",
        ]
    )
    game = TORII.read_record(record)
    assert len(game.turns) == 2 and game.turns[1].texts == ["3 e5 f5 f4"]
    assert game.turns[0].events[0].kind == "pass"  # TI8's pass
