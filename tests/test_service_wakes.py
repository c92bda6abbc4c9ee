"""What a change wakes in the service (issue 26): the timers read every hosted match's
clock again (two reads) only after a change of a clock, not after every staged action."""

from __future__ import annotations

import asyncio
import contextlib
import math
from collections.abc import AsyncIterator, Callable
from pathlib import Path

from bot.service import MatchService, Place, User
from bot.service.testing import Harness
from tests.service_helpers import ANN, BOB, HERE, started


async def test_a_staged_action_wakes_no_timer_and_a_turn_end_does(tmp_path: Path) -> None:
    """The timers read the clocks of the hosted matches again after a change of one of them
    (two reads): a staged action changes none, a turn end starts the next player's."""
    async with Harness(tmp_path / "t.sqlite3") as h:
        service = h.running
        await started(service)
        woken = service._timers_changed
        woken.clear()
        await service.play(HERE, ANN, "G v5h9-v4h9")
        assert not woken.is_set()
        h.clock.advance(60.0)  # bob's day starts a minute after ann's
        await service.end_turn(HERE, ANN)
        assert woken.is_set()


async def test_the_timers_wake_for_a_clock_sooner_than_the_one_they_wait_for(
    tmp_path: Path,
) -> None:
    """Once the timers sleep until the soonest clock (read then), a turn's end that starts
    the next player's clock later than that does not wake them to read again (they read it
    when they wake); a new clock sooner than that does, and so does any change once the
    daily digests are due a look (each minute)."""
    async with Harness(tmp_path / "t.sqlite3") as h:
        service = h.running
        await started(service)
        woken = service._timers_changed
        async with timer_loop(service):
            await _until(lambda: service._timers_until != math.inf)
            waiting_for = service._timers_until
            h.clock.advance(30.0)
            await service.end_turn(HERE, ANN)
            assert not woken.is_set(), "bob's clock starts after the one the timers wait for"
            reminded = service._tables[HERE.channel_id].hosted.remind_at
            assert reminded is not None and reminded > waiting_for
            await service.challenge(Place(1, 101), User(3, "cy"), User(4, "di"), None, 600.0)
            assert woken.is_set(), "the challenge expires in 10 minutes, sooner than any turn"
            await _until(lambda: service._timers_until != math.inf and not woken.is_set())
            h.clock.advance(60.0)
            await service.end_turn(HERE, BOB)
            assert woken.is_set(), "a minute later the digests are due a look"


@contextlib.asynccontextmanager
async def timer_loop(service: MatchService) -> AsyncIterator[None]:
    """The service's timer loop running meanwhile (a harness runs none of its own)."""
    timers = asyncio.create_task(service._timer_loop())
    try:
        yield
    finally:
        timers.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await timers


async def _until(condition: Callable[[], bool]) -> None:
    for _ in range(1000):
        if condition():
            return
        await asyncio.sleep(0)
    raise AssertionError("the timer loop did not get there")


async def test_with_no_clock_at_all_the_first_one_set_wakes_the_timers(tmp_path: Path) -> None:
    """Timers that found no clock sleep as long as they may (an hour): the first clock set
    afterwards (a challenge's expiry) wakes them, whenever the digests were last looked at;
    else it fired up to an hour late."""
    async with Harness(tmp_path / "t.sqlite3") as h:
        service = h.running
        woken = service._timers_changed
        async with timer_loop(service):
            await _until(lambda: service._digests_at != -math.inf and not woken.is_set())
            await service.challenge(HERE, ANN, BOB, None, 600.0)
            assert woken.is_set(), "the challenge expires in 10 minutes"
