"""Review rL: Torii's rules exactly (TI1-TI20) and the hosting around them; each test asserts
the correct behaviour and fails today."""

from __future__ import annotations

import pytest
from test_torii_positions import make

from bot.service import Place, Terms, User
from bot.service.testing import Harness
from rules.errors import IllegalAction
from rules.torii import TORII
from rules.torii.actions import PASS

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


# ---- hosting: a turn TI8 makes a pass ---------------------------------------------------------

# ann (Monkey) and bob (Kitsune): ann's 5th turn builds on c1 and flips bob's tile 1 to used
# while his tiles 2 and 3 are used, so bob's turn is a pass (TI8: no unused tile has a path).
TO_A_FORCED_PASS = ["3 c1 b1 a1", "3 d4 e4 f4", "1 b1", "2 f3 f2", "3 c1 d1 d3 build c1 flip O"]


async def monkey_flips_bob_into_a_pass(h: Harness, **terms: object) -> None:
    await h.service.challenge(HERE, ANN, BOB, Terms(turn_seconds=10 * HOUR, game="torii", **terms))
    await h.service.accept(HERE, BOB)
    await h.service.setup(HERE, ANN, {"spirit": "Monkey"})
    await h.service.setup(HERE, BOB, {"spirit": "Kitsune"})
    await h.settle()
    for index, text in enumerate(TO_A_FORCED_PASS):
        player = ANN if index % 2 == 0 else BOB
        await h.service.play(HERE, player, text)
        await h.service.end_turn(HERE, player)
        await h.settle()
    table = await h.service._table(HERE.channel_id)
    assert table.game.legal_actions() == [PASS]


async def test_a_player_whose_turn_is_a_forced_pass_is_told_so_not_asked_for_a_move(
    h: Harness,
) -> None:
    """TI8: bob's tiles are all used (ann's Monkey flipped his tile 1), so his turn is a pass.
    Today his "your turn" notice and the channel's post ask him for "a move" and to "pick your
    actions", never saying that the only thing he can do is pass."""
    await monkey_flips_bob_into_a_pass(h)
    notice = h.delivery.user(BOB.id)[-1].message.text
    yours = next(line for line in notice.splitlines() if line.startswith("Your turn against"))
    assert "pass" in yours, yours
    posted = h.delivery.texts(HERE.channel_id)[-1]
    to_act = next(line for line in posted.splitlines() if line.startswith("bob (Opposition)"))
    assert "pass" in to_act, to_act
