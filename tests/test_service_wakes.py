"""What a change wakes in the service (issue 26): the timers read every hosted match's
clock again (two reads) only after a change of a clock, not after every staged action."""

from __future__ import annotations

from pathlib import Path

from bot.service import Place, User
from bot.service.testing import Harness

HERE, ANN, BOB = Place(1, 100), User(1, "ann"), User(2, "bob")


async def test_a_staged_action_wakes_no_timer_and_a_turn_end_does(tmp_path: Path) -> None:
    """The timers read the clocks of the hosted matches again after a change of one of them
    (two reads): a staged action changes none, a turn end starts the next player's."""
    async with Harness(tmp_path / "t.sqlite3") as h:
        service = h.running
        await service.challenge(HERE, ANN, BOB)
        await service.accept(HERE, BOB)
        await service.setup(HERE, ANN, {"strategy": "aggressive"})
        await service.setup(HERE, BOB, {"strategy": "defensive"})
        woken = service._timers_changed
        woken.clear()
        await service.play(HERE, ANN, "G v5h9-v4h9")
        assert not woken.is_set()
        h.clock.advance(60.0)  # bob's day starts a minute after ann's
        await service.end_turn(HERE, ANN)
        assert woken.is_set()
