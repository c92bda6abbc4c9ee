"""The ladder's background work through the match service, on a real SQLite file: waiting
players paired once their allowed gap has widened (the lower rating plays the Challenger),
stale entries expired with a private notice, and the start-up catch-ups of a match that
finished rated but was never put on the ladder, and of a pairing whose match was not open
yet (a crash in between); and the AI taking on whoever waited as long as the server set."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterable

import pytest
from ladder_fixtures import GUILD, desk_of, finished, play_out, runner_of

from bot.ladder.queue import EXPIRE_AFTER, HOUR, OPENING, Matchmaking
from bot.ladder.rating import listen
from bot.ladder.results import Results
from bot.service import GuildSettings, Place, Terms, User, save_guild
from bot.service.testing import Harness
from storage.competitions.ladders import LadderKey
from tests.service_helpers import busy_while, gated

ANN, BOB, CID, DEE = User(1, "ann"), User(2, "bob"), User(3, "cid"), User(4, "dee")
HERE = Place(GUILD, 100)
SHORT1 = LadderKey(GUILD, "short", 1)


async def test_far_ratings_are_paired_by_a_tick_once_the_gap_allows(h: Harness) -> None:
    for user in (ANN, BOB):
        await h.store.save_player(user.id, user.name)
    await Results(h.store, h.clock.now).record_match(await finished(h.store, 1, 2, "C"))
    desk, runner = desk_of(h), runner_of(h)
    await desk.join_queue(HERE, ANN, "short")  # 1662
    await desk.join_queue(HERE, BOB, "short")  # 1338: 325 apart
    h.clock.advance(4 * HOUR)  # 300 allowed
    assert (await runner.tick()).opened == []
    h.clock.advance(HOUR)  # 350
    [opened] = (await runner.tick()).opened
    assert (opened.challenger, opened.opposition) == (BOB, ANN)  # the lower rating moves first
    assert h.threads.opened[opened.thread_id] == (HERE.channel_id, "bob vs ann (ladder)")
    assert await h.store.ladders.queue(GUILD, "short") == []
    await h.settle()
    assert "bob (1338) against ann (1662)" in h.delivery.texts(opened.thread_id)[0]


async def test_stale_entries_expire_and_their_players_are_told(h: Harness) -> None:
    desk, runner = desk_of(h), runner_of(h)
    await desk.join_queue(HERE, ANN, "short")
    h.clock.advance(EXPIRE_AFTER - HOUR)
    await desk.join_queue(HERE, BOB, "long")
    h.clock.advance(2 * HOUR)
    tick = await runner.tick()
    assert [(e.player_id, e.board) for e in tick.expired] == [(ANN.id, "short")]
    [notice] = h.delivery.user(ANN.id)
    assert notice.message.text.startswith(
        "Nobody close to your rating joined the short-board ladder queue within 24 hours"
    )
    assert notice.channel_id == HERE.channel_id  # where a closed-DMs fallback would show
    assert [e.player_id for e in await h.store.ladders.queue(GUILD, "long")] == [BOB.id]


async def test_the_service_is_busy_while_the_ladder_ticks(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A tick opens matches and posts: an idle garbage collection (``bot.collector``) would
    hold it up, so the service counts it in ``busy`` until it is done."""
    assert h.service is not None and h.store is not None
    ladders, reading, going_on = h.store.ladders, asyncio.Event(), asyncio.Event()
    monkeypatch.setattr(
        ladders, "waiting_ladders", gated(ladders.waiting_ladders, reading, going_on)
    )
    assert not h.service.busy()
    tick = runner_of(h).tick()
    await busy_while(h.service, tick, reading.is_set, going_on.set, "the ladder is ticking")


async def test_the_background_loop_ticks_on_the_clock(h: Harness) -> None:
    runner = runner_of(h)
    await desk_of(h).join_queue(HERE, ANN, "short")
    assert await runner.start() == []
    try:
        await asyncio.sleep(0)  # the loop starts its nap
        h.clock.advance(EXPIRE_AFTER + HOUR)
        for _ in range(200):
            if not await h.store.ladders.queue(GUILD, "short"):
                break
            await asyncio.sleep(0.01)
        assert await h.store.ladders.queue(GUILD, "short") == []
    finally:
        await runner.stop()


async def test_a_match_saved_finished_but_never_rated_is_rated_on_the_next_start(
    h: Harness,
) -> None:
    h.wiring = []  # each match is saved finished; the process dies before the ladder hears
    await h.crash()
    for loser, terms in ((BOB, Terms()), (ANN, Terms(rated=False)), (ANN, Terms())):
        await h.service.open_match(HERE, ANN, BOB, terms)
        await play_out(h, HERE.channel_id, loser)
    await h.service.open_match(HERE, ANN, CID)
    await h.service.abort(HERE, CID)
    assert await h.store.ladders.seasons(GUILD, "short") == []
    h.wiring = [listen]
    await h.crash()
    runner = runner_of(h)
    rated = await runner.start()
    await runner.stop()
    assert [(r.challenger.player_id, r.challenger.wins, r.opposition.wins) for r in rated] == [
        (ANN.id, 1, 0),
        (ANN.id, 1, 1),
    ]  # in the order they finished; the casual and the aborted match stay off
    assert [s.games for s in await h.store.ladders.standings(SHORT1)] == [2, 2]
    assert (await runner.tick()).rated == []  # rated once


async def test_a_quick_restart_rates_what_the_earlier_life_left_before_the_service_starts(
    h: Harness,
) -> None:
    """A restart within the earlier life's ``ladder`` lease (a tick and TORA_CLAIM_SECONDS)
    still rates at once what that life left unrated: a process alone on its database takes
    the lease over (its holder can only be that life), before the service ends what fell
    due meanwhile."""
    h.wiring = []  # the match is saved finished; the process dies before the ladder hears
    await h.crash()
    await h.service.open_match(HERE, ANN, BOB, Terms())
    await play_out(h, HERE.channel_id, BOB)
    sharing, mine = h.store.sharing, h.store.sharing.owner
    sharing.owner = "earlier-life"
    assert await sharing.claim("ladder", h.clock.now() - 30, 120)  # renewed 30 s ago
    sharing.owner = mine
    runner = runner_of(h)
    try:
        rated = await runner.start()
    finally:
        await runner.stop()
    assert [(r.challenger.player_id, r.challenger.wins) for r in rated] == [(ANN.id, 1)]
    assert await h.store.ladders.unrated_matches() == []


async def test_a_notice_that_fails_once_is_retried_on_time_by_the_background_delivery(
    h: Harness,
) -> None:
    """Regression: the ladder's own outbox rows did not wake the service's delivery loop,
    so a notice that failed waited up to an hour for its retry."""
    desk, runner = desk_of(h), runner_of(h)
    await desk.join_queue(HERE, ANN, "short")
    await h.service.start(background=True)
    try:
        h.clock.advance(EXPIRE_AFTER + HOUR)
        h.delivery.fail_next = 1
        await runner.tick()
        assert h.delivery.user(ANN.id) == []
        for _ in range(200):  # the loop naps for the retry's seconds, not for its hour
            if h.delivery.user(ANN.id):
                break
            await asyncio.sleep(0.025)  # real time for the loop's reads (a loaded machine)
            h.clock.advance(h.settings.retry_first)
        assert 200 * h.settings.retry_first < HOUR
        [notice] = h.delivery.user(ANN.id)
        assert "ladder queue" in notice.message.text
    finally:
        await h.service.stop()


async def paired_then_crashed(h: Harness, *, thread: bool, opened: bool) -> None:
    """ann and bob are paired and taken off the queue; the process dies before their match
    is open: before the thread, after it, or after the match but before the pairing went."""
    for user in (ANN, BOB):
        await h.store.save_player(user.id, user.name)
        await h.store.ladders.transact(
            lambda tx, user=user: tx.enqueue(GUILD, "short", user.id, HERE.channel_id),
            h.clock.now(),
        )
    [pairing] = await Matchmaking(h.store, h.clock.now).pair(GUILD, "short")
    if thread:
        thread_id = await h.threads.open_thread(HERE.channel_id, "ann vs bob (ladder)")
        await h.store.ladders.transact(
            lambda tx: tx.pairing_thread(pairing.id, thread_id), h.clock.now()
        )
        if opened:
            await h.service.open_match(Place(GUILD, thread_id), ANN, BOB, Terms())
    await h.crash()


async def test_a_pairing_a_crash_left_unopened_is_opened_on_start(h: Harness) -> None:
    await paired_then_crashed(h, thread=False, opened=False)
    assert await h.store.ladders.queue(GUILD, "short") == []  # off the queue already...
    [opened] = await runner_of(h).resume_pairings()  # ...but not dropped
    assert {opened.challenger, opened.opposition} == {ANN, BOB}
    assert await h.store.ladders.pairings() == []
    assert await runner_of(h).resume_pairings() == []


async def test_a_pairing_resumed_after_its_thread_was_opened_reuses_the_thread(
    h: Harness,
) -> None:
    await paired_then_crashed(h, thread=True, opened=False)
    [opened] = await runner_of(h).resume_pairings()
    assert len(h.threads.opened) == 1 and opened.thread_id in h.threads.opened
    assert (await h.store.hosting.live_in_channel(opened.thread_id)) is not None


async def test_a_pairing_whose_match_was_opened_before_the_crash_is_not_opened_twice(
    h: Harness,
) -> None:
    await paired_then_crashed(h, thread=True, opened=True)
    [opened] = await runner_of(h).resume_pairings()
    assert opened.hosted.id == 1 and len(h.threads.opened) == 1
    assert await h.store.ladders.pairings() == []


async def test_a_ladder_pairing_resumed_in_a_channel_without_threads_opens_a_new_match(
    h: Harness,
) -> None:
    """Where Discord opens no thread (no permission), a ladder pairing plays in the channel
    itself: the opener stores that channel as the pairing's "thread", then opens the
    match. ann and bob already played a ladder match there. The bot dies between the two
    steps; on the restart ``Opener._opened_before`` takes the latest match of the two
    players in that channel for the one opened before the crash: their old, ended match.
    The pairing is dropped as opened, and the new rated match is never opened: both
    players are off the queue, waiting for a match that never comes."""
    here = HERE
    h.threads.no_threads.add(here.channel_id)
    for user in (ANN, BOB):
        await h.store.save_player(user.id, user.name)
    old = await h.running.open_match(here, ANN, BOB, Terms(rated=False))
    await play_out(h, here.channel_id, ANN)  # their earlier match there, over
    for user in (ANN, BOB):
        await h.store.ladders.transact(
            lambda tx, user=user: tx.enqueue(GUILD, "short", user.id, here.channel_id),
            h.clock.now(),
        )
    [pairing] = await Matchmaking(h.store, h.clock.now).pair(GUILD, "short")
    # the opener found no thread, stored the channel itself, and died before the match
    await h.store.ladders.transact(
        lambda tx: tx.pairing_thread(pairing.id, here.channel_id), h.clock.now()
    )
    await h.crash()
    await runner_of(h).resume_pairings()
    live = await h.store.hosting.live_in_channel(here.channel_id)
    assert live is not None and live.id != old.id, "the pairing's match was never opened"


async def test_a_ladder_pairing_whose_thread_hit_a_discord_outage_is_opened_at_the_next_tick(
    h: Harness,
) -> None:
    """ann and bob join the ladder queue and are paired. Discord answers the thread's
    creation with a 503 (a blip: any later try works). The opener treats it as final: the
    pairing is dropped, both players are off the queue, and each is told "I could not open
    it: something went wrong on my side ... please tell a server admin, and join again".
    A transient failure should leave the stored pairing for the next tick, which opens
    it (as it does for a pairing a crash left), as tournaments and events retry theirs."""
    here = HERE
    for user in (ANN, BOB):
        await h.store.save_player(user.id, user.name)
    real = h.threads.open_thread
    failures = [ConnectionError("503 Service Unavailable (simulated)")]

    async def flaky(channel_id: int, name: str) -> int:
        if failures:
            raise failures.pop()
        return await real(channel_id, name)

    h.threads.open_thread = flaky  # type: ignore[method-assign]
    desk, runner = desk_of(h), runner_of(h)
    await desk.join_queue(here, ANN, "short")
    reply = await desk.join_queue(here, BOB, "short")
    assert "I will try again within a minute" in reply.text
    h.clock.advance(60)
    await runner.tick()
    await h.settle()
    told = [d.message.text for d in h.delivery.user(ANN.id)]
    assert not any("could not open it" in text for text in told), told
    opened = [t for t in h.threads.opened]
    assert opened and await h.store.hosting.live_in_channel(opened[0]) is not None


async def test_a_ladder_pairing_that_keeps_failing_is_given_up_after_an_hour(h: Harness) -> None:
    """A pairing whose opening fails otherwise than by a refusal (Discord or the database
    away) is kept for the next tick; one failing for good that way (Discord answering 503
    all day) was tried again every minute without end, both players off the queue and
    never told. After an hour it is given up: the pairing dropped, both players told."""
    for user in (ANN, BOB):
        await h.store.save_player(user.id, user.name)

    async def down(channel_id: int, name: str) -> int:
        raise ConnectionError("503 Service Unavailable (simulated)")

    h.threads.open_thread = down  # type: ignore[method-assign]
    desk, runner = desk_of(h), runner_of(h)
    await desk.join_queue(HERE, ANN, "short")
    await desk.join_queue(HERE, BOB, "short")
    for _ in range(3):  # kept for the next tick
        h.clock.advance(60)
        await runner.tick()
    assert len(await h.store.ladders.pairings()) == 1
    h.clock.advance(HOUR)
    await runner.tick()
    await h.settle()
    assert await h.store.ladders.pairings() == [], "tried again without end"
    for user in (ANN, BOB):
        told = [d.message.text for d in h.delivery.user(user.id)]
        assert any("could not open it" in text for text in told), told


async def test_a_pairing_opened_twice_at_once_gets_one_thread_and_one_match(h: Harness) -> None:
    """Two openings of one stored pairing at once (the start-up's and a tick's, or two
    processes') each claim it first: one claim wins, so the players get one match."""
    await paired_then_crashed(h, thread=False, opened=False)
    first, second = await asyncio.gather(
        runner_of(h).resume_pairings(), runner_of(h).resume_pairings()
    )
    assert len(first) + len(second) == 1
    assert len(h.threads.opened) == 1
    assert await h.store.ladders.pairings() == []


async def test_a_pairing_claimed_by_a_process_that_died_is_opened_once_its_claim_runs_out(
    h: Harness,
) -> None:
    await paired_then_crashed(h, thread=False, opened=False)
    [pairing] = await h.store.ladders.pairings()
    await h.store.ladders.transact(
        lambda tx: tx.claim_pairing(pairing.id, "another:process", OPENING), h.clock.now()
    )
    assert await runner_of(h).resume_pairings() == []  # the other process opens it now...
    h.clock.advance(OPENING)
    [opened] = await runner_of(h).resume_pairings()  # ...or died doing so
    assert {opened.challenger, opened.opposition} == {ANN, BOB}


async def test_a_pairing_left_by_a_process_that_died_is_opened_by_the_next_tick(
    h: Harness,
) -> None:
    """Whoever holds the ladder's lease opens the stored pairings left unopened, each tick:
    a process that takes the lease over from one that died while opening a pairing does
    not wait for a start-up of its own (its start-up may not have held the lease)."""
    for user in (ANN, BOB):
        await h.store.save_player(user.id, user.name)
        await h.store.ladders.transact(
            lambda tx, user=user: tx.enqueue(GUILD, "short", user.id, HERE.channel_id),
            h.clock.now(),
        )
    await Matchmaking(h.store, h.clock.now).pair(GUILD, "short")  # then the process dies
    runner = runner_of(h)  # the process that takes the lease over
    assert (await runner.tick()).opened == []  # the dead opener's claim still holds
    h.clock.advance(OPENING)
    [opened] = (await runner.tick()).opened
    assert {opened.challenger, opened.opposition} == {ANN, BOB}
    assert (await runner.tick()).opened == [] and await h.store.ladders.pairings() == []


async def test_the_ai_plays_whoever_waited_as_long_as_the_server_set_on_the_ai_ladder(
    h: Harness,
) -> None:
    desk, runner = desk_of(h), runner_of(h)
    await desk.join_queue(HERE, ANN, "torishogi")
    h.clock.advance(5 * HOUR)
    assert (await runner.tick()).opened == []  # off by default: ann waits on
    await save_guild(h.store, GUILD, GuildSettings(ai_fill_after=2 * HOUR))
    [opened] = (await runner.tick()).opened
    assert {opened.challenger.name, opened.opposition.name} == {"ann", "AI (normal)"}
    await h.settle()
    thread = h.delivery.texts(opened.thread_id)
    assert thread[0].startswith(
        "Nobody else came for a ToriShogi ladder match, so ann plays the AI: a rated match on "
        "the AI ToriShogi ladder"
    )
    await h.service.resign(Place(GUILD, opened.thread_id), ANN)
    await h.settle()
    ai_ladder = await h.store.ladders.seasons(GUILD, "ai-torishogi")
    assert len(ai_ladder) == 1  # rated there...
    assert await h.store.ladders.seasons(GUILD, "torishogi") == []  # ...never with people


async def test_the_ai_plays_whoever_waited_the_queues_whole_24_hours_when_the_server_set_so(
    h: Harness,
) -> None:
    """Regression: `ai_fill:24h` (the longest wait allowed) was saved, yet the AI never
    played: the tick expired the waiting player before it paired anyone with the AI, and
    told them nobody came."""
    await save_guild(h.store, GUILD, GuildSettings(ai_fill_after=EXPIRE_AFTER))
    runner = runner_of(h)
    await desk_of(h).join_queue(HERE, ANN, "torishogi")
    h.clock.advance(EXPIRE_AFTER + 30)  # the first tick after her 24 hours
    tick = await runner.tick()
    assert tick.expired == []
    [opened] = tick.opened
    assert {opened.challenger.name, opened.opposition.name} == {"ann", "AI (normal)"}


async def test_queue_entries_stale_after_downtime_expire_rather_than_being_paired(
    h: Harness,
) -> None:
    """Regression: two far-rated players queue; the bot is down for two days. The first tick
    after the restart paired them into a rated match (it pairs before it expires, and their
    gap had widened meanwhile) between two players who left long ago, where it must tell
    them their 24 hours ran out."""
    for user in (ANN, BOB):
        await h.store.save_player(user.id, user.name)
    await Results(h.store, h.clock.now).record_match(await finished(h.store, 1, 2, "C"))
    desk, runner = desk_of(h), runner_of(h)
    await desk.join_queue(HERE, ANN, "short")  # 1662
    await desk.join_queue(HERE, BOB, "short")  # 1338: too far apart to pair at once
    h.clock.advance(2 * EXPIRE_AFTER + HOUR)  # no tick ran meanwhile (the bot was down)
    tick = await runner.tick()
    assert tick.opened == []
    assert sorted(e.player_id for e in tick.expired) == [ANN.id, BOB.id]
    for user in (ANN, BOB):  # each told privately
        [notice] = h.delivery.user(user.id)
        assert notice.message.text.startswith("Nobody close to your rating joined")


async def test_a_queue_entry_stale_after_downtime_is_not_paired_with_the_ai_either(
    h: Harness,
) -> None:
    """Regression: with the AI set to fill the queue after an hour, a player who queued
    before the bot was down for two days was given a rated match against the AI by the
    first tick after the restart, where their wait had run out."""
    await save_guild(h.store, GUILD, GuildSettings(ai_fill_after=HOUR))
    runner = runner_of(h)
    await desk_of(h).join_queue(HERE, ANN, "torishogi")
    h.clock.advance(2 * EXPIRE_AFTER)
    tick = await runner.tick()
    assert tick.opened == []
    assert [e.player_id for e in tick.expired] == [ANN.id]


async def test_the_ai_plays_only_whoever_waited_when_their_locks_were_taken(h: Harness) -> None:
    """The AI fill took the locks of who had waited an hour (ann), then read the queue again
    to pair: bob, whose hour came while the locks were being taken, was paired with the AI
    too, without his lock (a challenge of his to the AI, meanwhile, could pass his cap).
    Only the players locked are paired; bob is paired by a later tick, under his own."""
    await save_guild(h.store, GUILD, GuildSettings(ai_fill_after=HOUR))
    runner = runner_of(h)
    await desk_of(h).join_queue(HERE, ANN, "torishogi")
    h.clock.advance(60)
    await h.store.save_player(BOB.id, BOB.name)  # queued apart from ann (another process)
    await h.store.ladders.transact(
        lambda tx: tx.enqueue(GUILD, "torishogi", BOB.id, HERE.channel_id), h.clock.now()
    )
    h.clock.advance(HOUR - 60)  # ann has waited her hour, bob a minute short of his
    locked: list[int] = []
    caps = h.service.ai_caps

    @contextlib.asynccontextmanager
    async def slow(guild_id: int, user_ids: Iterable[int]) -> AsyncIterator[None]:
        locked.extend(user_ids)
        async with caps(guild_id, user_ids):
            h.clock.advance(120)  # the locks were held elsewhere a while
            yield

    h.service.ai_caps = slow  # type: ignore[method-assign]
    opened = await runner._fill(GUILD, "torishogi")
    assert locked == [ANN.id]
    assert [{o.challenger.name, o.opposition.name} for o in opened] == [{"ann", "AI (normal)"}]
    assert [e.player_id for e in await h.store.ladders.queue(GUILD, "torishogi")] == [BOB.id]
    later = await runner._fill(GUILD, "torishogi")
    assert locked == [ANN.id, BOB.id]
    assert [{o.challenger.name, o.opposition.name} for o in later] == [{"bob", "AI (normal)"}]


async def test_ladder_matches_opened_by_one_tick_share_one_pointer_post(h: Harness) -> None:
    """A tick opening several ladder matches in threads of one channel points at them all
    in a single post there (not one post per match, flooding the channel)."""
    for user in (ANN, BOB, CID, DEE):
        await h.store.save_player(user.id, user.name)
    await Results(h.store, h.clock.now).record_match(await finished(h.store, 1, 2, "C"))
    await Results(h.store, h.clock.now).record_match(await finished(h.store, 3, 4, "C", "long"))
    desk, runner = desk_of(h), runner_of(h)
    for user, board in ((ANN, "short"), (BOB, "short"), (CID, "long"), (DEE, "long")):
        await desk.join_queue(HERE, user, board)  # each winner 325 above its loser: unpaired
    await h.settle()
    assert h.delivery.texts(HERE.channel_id) == []
    h.clock.advance(5 * HOUR)  # 350 allowed
    opened = (await runner.tick()).opened
    assert len(opened) == 2
    await h.settle()
    [pointer] = h.delivery.texts(HERE.channel_id)
    assert pointer.startswith("Rated ladder matches have begun, each in its own thread:")
    assert all(f"<#{o.thread_id}>" in pointer for o in opened), pointer
