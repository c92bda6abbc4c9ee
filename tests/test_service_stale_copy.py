"""Where several processes share the database, a process's copy of a match falls behind the
store when another process changes it. A turn command (an action staged, one taken back, a
turn's end) is answered as on the match as stored, whether the copy was behind or not; on a
current copy it reads no stored versions first (its write checks them)."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from typing import Any

import pytest
from test_service_delivery import play_a_turn

from bot.service import DatabaseUnavailable, NotAllowed, Place, Refused, Settings, Terms, User
from bot.service.clock import ManualClock
from bot.service.testing import Harness
from storage import Config

HERE = Place(guild_id=1, channel_id=100)
ANN, BOB = User(1, "ann"), User(2, "bob")
SHARED = Settings(
    burst=1000,
    every=0.001,
    ai_processes=0,
    draw_processes=0,
    poll_seconds=1.0,
    claim_seconds=30.0,
    auto_away=False,
)


@pytest.fixture
async def pair(db: Config) -> AsyncIterator[tuple[Harness, Harness]]:
    """Two processes on one database, both holding a match where bob is to act (ann's
    first turn played in the first)."""
    clock = ManualClock()
    first, second = (
        Harness(db, settings=SHARED, clock=clock),
        Harness(db, settings=SHARED, clock=clock),
    )
    await first.open()
    await second.open()
    try:
        await play_a_turn(first)
        await first.running.board(HERE, BOB)
        await second.running.board(HERE, BOB)
        yield first, second
    finally:
        await second.close()
        await first.close()


async def offered(h: Harness, user: User) -> list[str]:
    return [notation for _shown, notation in await h.running.choices(HERE, user)]


async def test_a_turn_ended_elsewhere_does_not_refuse_the_next_player_here(
    pair: tuple[Harness, Harness],
) -> None:
    first, second = pair
    await second.running.play(HERE, BOB, (await offered(second, BOB))[0])
    await second.running.end_turn(HERE, BOB)
    # the first's copy still has bob to act
    action = (await offered(second, ANN))[0]
    reply = await first.running.play(HERE, ANN, action)
    assert reply.text.startswith(f"Staged: {action}")


async def test_an_action_staged_elsewhere_is_taken_back_here(
    pair: tuple[Harness, Harness],
) -> None:
    first, second = pair
    action = (await offered(second, BOB))[0]
    await second.running.play(HERE, BOB, action)
    # the first's copy has nothing staged
    reply = await first.running.undo(HERE, BOB)
    assert reply.text.startswith(f"Taken back: {action}")


async def test_an_action_staged_here_joins_the_one_staged_elsewhere(
    pair: tuple[Harness, Harness],
) -> None:
    """The copy here accepts the action and its write finds the stored match moved on: it
    is staged on the stored match, after the other, as it would have been had the copy
    been read again first."""
    first, second = pair
    before = await offered(first, BOB)
    staged = before[0]
    await second.running.play(HERE, BOB, staged)
    after = await offered(second, BOB)
    piece = staged.split()[1][:4]
    other = next(text for text in before if text in after and piece not in text)
    reply = await first.running.play(HERE, BOB, other)
    assert "1. " + staged in reply.text and "2. " + other in reply.text
    assert f"1. {staged}\n2. {other}" in (await second.running.board(HERE, BOB)).text


async def test_a_refusal_on_a_current_copy_is_the_refusal(pair: tuple[Harness, Harness]) -> None:
    first, _second = pair
    with pytest.raises(NotAllowed, match="It is bob's turn"):
        await first.running.play(HERE, ANN, "G v4h9-v3h9")
    with pytest.raises(Refused, match="nothing to take back"):
        await first.running.undo(HERE, BOB)


async def test_a_refusal_here_still_stands_when_the_copy_was_behind(
    pair: tuple[Harness, Harness],
) -> None:
    first, second = pair
    await second.running.play(HERE, BOB, (await offered(second, BOB))[0])
    await second.running.end_turn(HERE, BOB)
    with pytest.raises(NotAllowed, match="It is ann's turn"):
        await first.running.play(HERE, BOB, (await offered(second, ANN))[0])


async def test_a_save_whose_answer_was_lost_is_not_played_again(
    pair: tuple[Harness, Harness],
) -> None:
    """The database took the save but its answer was lost (a cut connection after COMMIT,
    the writer unable to tell): the command fails as the database's failure, its copy
    dropped, and is not played again on the stored match (where it would be refused as
    illegal, or staged twice)."""
    first, _second = pair
    service = first.running
    writer = service._ctx.store._writer
    run = writer.run

    async def lost(job: Any, **how: Any) -> Any:
        await run(job, **how)
        raise DatabaseUnavailable("the answer to COMMIT was lost (simulated)")

    action = (await offered(first, BOB))[0]
    writer.run = lost  # type: ignore[method-assign]
    try:
        with pytest.raises(DatabaseUnavailable):
            await service.play(HERE, BOB, action)
    finally:
        writer.run = run  # type: ignore[method-assign]
    board = (await service.board(HERE, BOB)).text
    assert f"1. {action}" in board and "2. " not in board


async def test_a_batch_of_clocks_outlasting_its_claims_is_not_fired_again_elsewhere(
    db: Config, caplog: pytest.LogCaptureFixture
) -> None:
    """The first process claimed two lapsed challenges (for 30 s) and spent 35 s on the
    first (the long board's turn ends take time): the second's claim ran out, so the second
    process claimed it and fired it too; the first's own firing then failed on the stored
    versions, logged as an ERROR and held off for 300 s. The first now renews the claims of
    what is left of its batch as it goes: the second finds nothing to fire, nothing fails."""
    clock = ManualClock()
    first, second = (Harness(db, settings=SHARED, clock=clock) for _ in range(2))
    await first.open()
    await second.open()
    try:
        for channel in (100, 101):
            await first.running.challenge(Place(1, channel), ANN, BOB, Terms())
        clock.advance(30 * 86400.0)  # both challenges lapsed
        fire = first.running._fire
        seen: list[int] = []

        async def slow(table: Any, now: float) -> None:
            seen.append(table.hosted.channel_id)
            if len(seen) == 1:
                clock.advance(35.0)  # longer than the claim
            else:  # the other process looks, as it does every second
                await second.running.run_due()
            await fire(table, now)

        first.running._fire = slow  # type: ignore[method-assign]
        with caplog.at_level(logging.ERROR):
            await first.running.run_due()
        assert seen == [100, 101]
        assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
        for channel in (100, 101):
            assert await first.running.records.live_in_channel(channel) is None
    finally:
        await second.close()
        await first.close()
