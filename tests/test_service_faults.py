"""The service when its database fails for a while: the clock and outbox loops try again
within seconds (0.5 s, doubling up to 8 s, back to 0.5 s after a success), and the AI's
task outlives a read that failed, and plays its turn."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.service import Place, Terms, User, deadlines
from bot.service.backoff import Backoff
from bot.service.table import Table
from bot.service.testing import Harness
from rules import game_type
from tests.service_helpers import until

HERE = Place(guild_id=1, channel_id=100)
ANN, BOB = User(1, "ann"), User(2, "bob")


class Flaky:
    """Wraps a store read so that its next ``failures`` calls (from tasks named ``only``,
    if given) raise as a database that went away would."""

    def __init__(self, read: Callable, only: str = "") -> None:
        self._read = read
        self._only = only
        self.failures = 0
        self.failed = 0

    async def __call__(self, *args: object) -> object:
        task = asyncio.current_task()
        mine = task is not None and task.get_name().startswith(self._only)
        if self.failures and mine:
            self.failures -= 1
            self.failed += 1
            raise ConnectionError("the database went away (simulated)")
        return await self._read(*args)


async def _quiet() -> None:
    """Let the background loops run until they wait (on the manual clock) again."""
    for _ in range(20):
        await asyncio.sleep(0.01)


def test_backoff_doubles_from_half_a_second_to_eight_and_starts_over_after_a_success() -> None:
    backoff = Backoff()
    assert [backoff.failed() for _ in range(7)] == [0.5, 1.0, 2.0, 4.0, 8.0, 8.0, 8.0]
    backoff.reset()
    assert backoff.failed() == 0.5
    for _ in range(10_000):  # a database away for a day costs nothing to count
        backoff.failed()
    assert backoff.failed() == 8.0


async def test_the_outbox_loop_tries_again_within_seconds_and_backs_off(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Regression: after one failure the outbox waited a full minute."""
    async with Harness(tmp_path / "t.sqlite3") as h:
        await h.service.start(background=True)
        try:
            flaky = Flaky(h.store.hosting.private_firsts)
            h.store.hosting.private_firsts = flaky  # type: ignore[method-assign]
            flaky.failures = 3
            await h.service.challenge(HERE, ANN, BOB, Terms())  # a post to deliver
            await until(lambda: flaky.failed == 1)
            for wait, failed in ((0.5, 2), (1.0, 3)):
                h.clock.advance(wait - 0.01)
                await _quiet()
                assert flaky.failed == failed - 1  # not yet
                h.clock.advance(0.01)
                await until(lambda failed=failed: flaky.failed == failed)
            assert not h.delivery.texts(HERE.channel_id)
            h.clock.advance(2.0)  # the third wait: 2 s, then it goes
            await until(lambda: h.delivery.texts(HERE.channel_id))
            assert h.delivery.texts(HERE.channel_id)[0].startswith("ann challenges bob")
            assert "delivering the outbox failed; trying again in 0.5 s" in caplog.text
            # a success starts the backoff again from half a second: a look at the whole
            # outbox (at least hourly; a post queued goes to its destination's worker at once)
            flaky.failures = 1
            h.clock.advance(3600.0)
            await until(lambda: flaky.failed == 4)
            await h.service.decline(HERE, BOB)  # goes with the next look, half a second later
            h.clock.advance(0.49)
            await _quiet()
            assert len(h.delivery.texts(HERE.channel_id)) == 1
            h.clock.advance(0.01)
            await until(lambda: len(h.delivery.texts(HERE.channel_id)) == 2)
        finally:
            await h.service.stop()


async def test_the_timer_loop_tries_again_within_seconds(tmp_path: Path) -> None:
    """Regression: after one failure the clock's loop waited a full minute, so deadlines
    and reminders were a minute late."""
    async with Harness(tmp_path / "t.sqlite3") as h:
        await h.service.start(background=True)
        try:
            flaky = Flaky(h.store.hosting.next_due)
            h.store.hosting.next_due = flaky  # type: ignore[method-assign]
            flaky.failures = 3
            await h.service.challenge(HERE, ANN, BOB, Terms(), expires_in=600)
            await until(lambda: flaky.failed == 1)
            for wait, failed in ((0.5, 2), (1.0, 3)):
                h.clock.advance(wait - 0.01)
                await _quiet()
                assert flaky.failed == failed - 1  # not yet
                h.clock.advance(0.01)
                await until(lambda failed=failed: flaky.failed == failed)
            h.clock.advance(600)  # the challenge expires, on time
            await until(lambda: any("expired" in t for t in h.delivery.texts(100)))
        finally:
            await h.service.stop()


async def test_the_ai_s_task_outlives_a_read_that_failed_and_plays_its_turn(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Regression: a read failing as the AI looked at its match killed its task ("Task
    exception was never retrieved") and the AI never played."""
    async with Harness(tmp_path / "t.sqlite3") as h:
        await h.service.challenge_ai(
            HERE, ANN, "easy", Terms(game="torishogi", rated=False, turn_seconds=3600)
        )
        await h.settle()
        flaky = Flaky(h.store.hosting.versions, only="tora-ai-")
        h.store.hosting.versions = flaky  # type: ignore[method-assign]
        flaky.failures = 2
        unretrieved: list[dict] = []
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(lambda _loop, context: unretrieved.append(context))
        try:
            await h.service.play(HERE, ANN, "c3c4")
            await h.service.end_turn(HERE, ANN)
            await h.settle()
            gc.collect()  # a task that died unseen reports it when collected
            await asyncio.sleep(0)
        finally:
            loop.set_exception_handler(None)
        assert flaky.failed == 2 and not unretrieved
        assert h.delivery.texts(HERE.channel_id)[-1].startswith(
            "AI (easy) (Opposition) ended their turn:"
        )
        assert "the AI in channel 100: a failure; again in 0.5 s" in caplog.text


async def test_the_ai_answers_a_turn_whose_save_committed_but_whose_answer_was_lost(
    h: Harness,
) -> None:
    """ann ends her turn against the AI; the database commits it, but its answer is lost
    (the connection drops after COMMIT, a timeout). The command fails, so the service drops
    its copy of the match (``Host._run``) and the AI is never asked to look (``_settle``
    only considers a copy still held). One process alone never looks after AI matches
    again (``look_after_robots`` runs only where processes share the database), so the
    AI sits silent through its whole turn, until its deadline takes it as missed."""
    from storage import DatabaseUnavailable

    await h.running.challenge_ai(
        HERE, ANN, "easy", Terms(game="torishogi", rated=False, turn_seconds=10 * 3600.0)
    )
    await h.settle()
    store = h.store
    assert store is not None
    real = store.save_hosted

    async def lost(*args: object, **kwargs: object) -> object:
        store.save_hosted = real  # type: ignore[method-assign]
        await real(*args, **kwargs)  # committed...
        raise DatabaseUnavailable("the connection dropped after COMMIT (simulated)")

    await h.running.play(HERE, ANN, "c3c4")
    store.save_hosted = lost  # type: ignore[method-assign]
    with pytest.raises(DatabaseUnavailable):
        await h.running.end_turn(HERE, ANN)
    await h.advance(60)  # a minute later
    said = h.delivery.texts(HERE.channel_id)
    assert said[-1].startswith("AI (easy) (Opposition) ended their turn:"), said[-1]


async def test_a_deadline_cut_short_by_a_stop_leaves_the_match_as_stored(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot stopping while a deadline is handled (a turn end may go on in its thread):
    the copy in memory may then be ahead of the store, so the next command reads the
    match again and the player to act is still the stored one."""
    ann, bob = User(1, "ann"), User(2, "bob")
    await h.running.challenge(HERE, ann, bob, Terms(game="torishogi", turn_seconds=3600.0))
    await h.running.accept(HERE, bob)
    await h.settle()

    async def cut_short(ctx: object, table: Table) -> None:
        game = table.game
        game.apply(game.notation(game.legal_actions()[0]))
        game.end_turn()  # the copy goes ahead of the store, then the stop comes
        raise asyncio.CancelledError

    monkeypatch.setattr(deadlines, "deadline", cut_short)
    h.clock.advance(3601.0)
    with pytest.raises(asyncio.CancelledError):
        await h.running.run_due()
    monkeypatch.undo()
    game = game_type("torishogi").new_game({}, ({}, {}))
    await h.running.play(HERE, ann, game.notation(game.legal_actions()[0]))  # ann still acts


async def test_a_post_goes_to_its_destination_without_a_look_at_the_whole_outbox(
    tmp_path: Path,
) -> None:
    """A commit's posts are handed to their destinations' workers (no read of every
    destination's first row); a destination whose row waits for a retry still holds the
    new row back until that row goes, in order."""
    async with Harness(tmp_path / "t.sqlite3") as h:
        await h.service.start(background=True)
        try:
            await _quiet()
            looks = Flaky(h.store.hosting.private_firsts)
            h.store.hosting.private_firsts = looks  # type: ignore[method-assign]
            looks.failures = 1_000  # any look at the whole outbox fails
            await h.service.challenge(HERE, ANN, BOB, Terms())
            await until(lambda: h.delivery.texts(HERE.channel_id))
            assert looks.failed == 0
            looks.failures = 0

            h.delivery.fail_next = 1  # the decline's post fails: retried in 2 s
            await h.service.decline(HERE, BOB)
            await _quiet()
            await h.service.challenge(HERE, BOB, ANN, Terms())  # held behind it
            await _quiet()
            assert len(h.delivery.texts(HERE.channel_id)) == 1
            h.clock.advance(2.0)
            await until(lambda: len(h.delivery.texts(HERE.channel_id)) == 3)
            texts = h.delivery.texts(HERE.channel_id)
            assert texts[2].startswith("bob challenges ann"), texts
        finally:
            await h.service.stop()
