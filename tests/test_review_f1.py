"""Review f1: regressions in rules/, storage/, bot/service/, ai/ of today's diff."""

from __future__ import annotations

from test_service_games import TO_A_FORCED_PASS, torii_until_the_monkeys_pause

from bot.service import Place, Refused, Terms, User
from bot.service.testing import Harness

HERE = Place(guild_id=1, channel_id=100)
ANN, BOB = User(1, "ann"), User(2, "bob")
HOUR = 3600.0


async def _shogi_with_anns_plan(h: Harness, rated: bool) -> None:
    terms = Terms(game="torishogi", turn_seconds=10 * HOUR, rated=rated)
    await h.running.challenge(HERE, ANN, BOB, terms)
    await h.running.accept(HERE, BOB)
    await h.running.play(HERE, ANN, "c3c4")
    await h.running.end_turn(HERE, ANN)
    await h.settle()
    await h.running.plans(HERE, ANN, add="c5c4 > a3a4")
    await h.running.play(HERE, BOB, "c5c4")


async def test_a_turn_answered_by_a_plan_is_not_called_a_decision_rated(h: Harness) -> None:
    """bob ends a plain ToriShogi turn in a rated match; ann's planned reply is played at
    once, so bob's turn comes back before his end_turn answers. play.end_turn takes that
    (game.side == side) for a Monkey decision (TI15) and tells him "Your decision is made,
    and your own turn begins." (no Plan button), where yesterday he read "Your turn is
    over." with the Plan button."""
    await _shogi_with_anns_plan(h, rated=True)
    ended = await h.running.end_turn(HERE, BOB)
    assert "decision" not in ended.text, ended.text


async def test_a_turn_answered_by_a_plan_is_not_called_a_decision_casual(h: Harness) -> None:
    """The same in a casual match: bob is told his "decision is made" and offered to take
    it back "until you end your own turn"; he made no decision, and the takeback it offers
    is refused (the last turn is ann's planned reply)."""
    await _shogi_with_anns_plan(h, rated=False)
    ended = await h.running.end_turn(HERE, BOB)
    assert "decision" not in ended.text, ended.text


async def test_a_torii_turn_answered_by_a_forced_pass_is_not_called_a_decision(
    h: Harness,
) -> None:
    """ann (Monkey) ends her 5th turn flipping bob's tile 1 to used: bob's turn is a forced
    pass (TI8), which the host now plays at once, so her own turn is back when end_turn
    answers. She is told "Your decision is made, and your own turn begins. Changed your
    mind? Ask bob to let you take it back ..." (play.end_turn reads game.side == side as a
    Monkey decision): she made no decision, and the takeback offered is refused (the last
    turn is bob's pass)."""
    await h.service.challenge(
        HERE, ANN, BOB, Terms(turn_seconds=10 * HOUR, game="torii", rated=False)
    )
    await h.service.accept(HERE, BOB)
    await h.service.setup(HERE, ANN, {"spirit": "Monkey"})
    await h.service.setup(HERE, BOB, {"spirit": "Kitsune"})
    await h.settle()
    ended = None
    for index, text in enumerate(TO_A_FORCED_PASS):
        player = ANN if index % 2 == 0 else BOB
        await h.service.play(HERE, player, text)
        ended = await h.service.end_turn(HERE, player)
        await h.settle()
    assert ended is not None
    said = ended.text
    offered_back = "take it back" in said
    refused = False
    if offered_back:
        try:
            await h.service.takeback(HERE, ANN)
        except Refused:
            refused = True
    assert "decision" not in said and not refused, said


async def test_a_monkey_decision_taken_back_costs_no_increment(h: Harness) -> None:
    """On an increment clock a Monkey decision earns no increment (turns._next_turn:
    earned=own), but its takeback (new today, 3a0e0e0) goes through timing.taken_back,
    which takes an increment off the asker's allowance as for any turn: bob, deciding with
    14 h, decides, takes it back and is left 10 h to decide again (4 h lost for nothing)."""
    await torii_until_the_monkeys_pause(
        h, rated=False, clock="increment", increment_seconds=4 * HOUR, cap_seconds=40 * HOUR
    )

    async def bobs_time() -> float:
        hosted = await h.running.records.live_in_channel(HERE.channel_id)
        assert hosted is not None and hosted.clocks is not None
        return hosted.clocks[1]

    deciding = await bobs_time()
    await h.running.play(HERE, BOB, "flip C")
    await h.running.end_turn(HERE, BOB)
    await h.running.takeback(HERE, BOB)
    await h.running.takeback(HERE, ANN)  # accepts: bob decides again
    await h.settle()
    assert await bobs_time() == deciding
