"""Review f1: regressions in rules/, storage/, bot/service/, ai/ of today's diff."""

from __future__ import annotations

from test_service_games import torii_until_the_monkeys_pause

from bot.service import Place, User
from bot.service.testing import Harness

HERE = Place(guild_id=1, channel_id=100)
ANN, BOB = User(1, "ann"), User(2, "bob")
HOUR = 3600.0


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
