"""Review f1: regressions and half-applied fixes in today's merges (service, storage, AI)."""

from __future__ import annotations

import asyncio

import event_helpers as events
import pytest

from bot.service import Place, Terms, User
from bot.service.guild import GuildSettings, save_guild
from bot.service.robots import robot
from bot.service.testing import PRIVATE, Harness

HERE = Place(guild_id=1, channel_id=100)
ANN, BOB = User(1, "ann"), User(2, "bob")
HOUR, DAY = 3600.0, 86400.0


async def hosted_now(h: Harness):  # type: ignore[no-untyped-def]
    hosted = await h.running.records.live_in_channel(HERE.channel_id)
    assert hosted is not None
    return hosted


async def test_days_away_taken_during_a_setup_stop_its_deadline(h: Harness) -> None:
    """rR made a setup's time run outside time away (``Context.setup_clock``), but only
    when the setup begins: ann accepts bob's TORA challenge (setup due in 10 h), then takes
    3 away days from now. She is told "Your clocks stand still then", yet the setup's
    deadline is not moved (``Absences._held`` holds only PLAYING matches) and the match is
    called off (in a tournament: a forfeit scored against her) while she is away. She
    should find the setup's deadline moved past her return, as a setup begun during her
    days away has it."""
    await h.running.challenge(HERE, BOB, ANN, Terms(turn_seconds=10 * HOUR, game="tora"))
    await h.running.accept(HERE, ANN)
    await h.settle()
    before = await hosted_now(h)
    assert before.phase == "setup" and before.due_at is not None
    reply = await h.running.away(HERE.guild_id, ANN, h.clock.now(), 3)
    assert "Your clocks stand still then" in reply.text
    after = await hosted_now(h)
    assert after.due_at is not None and after.due_at >= h.clock.now() + 3 * DAY, (
        "the setup's deadline ignores her days away",
        after.due_at - h.clock.now(),
    )


async def test_a_reminder_offers_no_away_day_where_the_server_gives_none(h: Harness) -> None:
    """rR dropped the Away offer from reminders of matches whose terms have no away days,
    but not where the server gives none (``/tora-admin`` away_days 0, "This server gives no
    away days"): bob's reminder still says "Press Away for a day, or take away days with
    /tora away" and carries the Away for a day button, whose press is refused. He should
    see neither, as in a tournament's game without away days."""
    await save_guild(h.running._ctx.store, HERE.guild_id, GuildSettings(away_days=0))
    await h.running.challenge(
        HERE, ANN, BOB, Terms(turn_seconds=10 * HOUR, game="torishogi", roles="opposition")
    )
    await h.running.accept(HERE, BOB)
    await h.settle()
    await h.advance(8 * HOUR)  # 80 % of the first turn
    reminders = [
        d.message
        for u in (ANN, BOB)
        for d in h.delivery.user(u.id)
        if d.kind == PRIVATE and d.message.text.startswith("Reminder")
    ]
    assert reminders, "no reminder was sent"
    [reminder] = reminders
    assert "Away for a day" not in reminder.text, reminder.text
    assert "away" not in str(reminder.buttons), reminder.buttons


async def test_a_rematch_of_a_competitions_game_is_no_competitions_game(h: Harness) -> None:
    """A tournament's or event's game ended between people offers a Rematch (colours
    swapped, "It was a casual match."); the rematch copies its terms whole, so since rQ/rO
    it carries ``Terms.competition``: its setup reminder threatens a forfeit and its lapse
    is posted as "so this game is over" (and listed as a forfeit win), though no competition
    scores it. The lapse of such a casual rematch should read "so the match is off. Nothing
    is recorded.", as any challenge's."""
    competition = Terms(turn_seconds=10 * HOUR, game="torii", rated=False, competition=True)
    await h.running.open_match(HERE, ANN, BOB, competition)
    await h.settle()
    await h.running.setup(HERE, ANN, {"spirit": "Deer"})
    await h.running.setup(HERE, BOB, {"spirit": "Kitsune"})
    await h.settle()
    await h.running.resign(HERE, BOB)
    await h.settle()
    end = h.delivery.channel(HERE.channel_id)[-1]
    assert end.buttons is not None and end.buttons.verbs == ("rematch",)
    await h.running.rematch(HERE, ANN, end.buttons.stamp)
    await h.running.accept(HERE, BOB)
    await h.settle()
    await h.running.setup(HERE, ANN, {"spirit": "Deer"})  # bob never chooses
    await h.advance(11 * HOUR)
    lapse = [t for t in h.delivery.texts(HERE.channel_id) if "not finished in time" in t]
    assert lapse, h.delivery.texts(HERE.channel_id)[-3:]
    assert "the match is off. Nothing is recorded." in lapse[-1], lapse[-1]


async def test_the_ai_takes_no_takeback_in_an_event_game(h: Harness) -> None:
    """rQ made an event's game against the AI (E11, unrated by default) no practice game:
    no hints, no pause agreed, since it counts in the standings. The twin was left out: the
    AI still agrees to every takeback there (``robots.agrees``), so the entrant the odd
    round pairs with the AI may take back any turn against it, which no entrant playing a
    person can count on ("An AI agrees to a takeback (practice games)", docs/SERVICE.md).
    The AI should decline it there, as it declines the pause."""
    desk = await events.desk_of(h)
    await events.create(desk, "Odd", "torishogi", "swiss", rounds=2, ai_fill="easy")
    for n in (1, 2, 3):
        await desk.join(events.HERE, events.user(n), "Odd")
    await desk.begin(events.HERE, events.ADMIN, "Odd", admin=True)
    await h.settle()
    snap = await events.snapshot(h, "Odd")
    [against_ai] = [p for p in snap.pairings if p.second_id == robot("easy").id]
    hosted = await h.store.hosting.get(against_ai.hosted_id)
    place = Place(events.GUILD, hosted.channel_id)
    player = events.user(against_ai.first_id)
    robots = h.service._robots
    search = robots.search
    started, gate = asyncio.Event(), asyncio.Event()

    async def gated(*args: object) -> list[str]:
        started.set()
        await gate.wait()
        return await search(*args)

    robots.search = gated  # type: ignore[method-assign]
    await h.service.play(place, player, "c3c4")
    await h.service.end_turn(place, player)
    await asyncio.wait_for(started.wait(), 5)  # the AI is thinking
    await h.service.takeback(place, player)
    gate.set()
    await h.settle()
    posted = "\n".join(h.delivery.texts(hosted.channel_id))
    assert "(Opposition) accepted" not in posted, posted[-800:]


async def test_the_web_picture_of_an_aborted_match_says_it_ended(h: Harness) -> None:
    """rM made an aborted match's board say it ended (``Table.status``: the headline "The
    match ended without a result" in place of who is to act), but only for the channel's
    pictures: the web board's picture (``Look.status``, ``looking._status``, drawn by
    ``bot/app/boards``) of the same aborted match still has no headline, so it marks bob as
    the side to act and names him to move. It should say the match ended, as the channel's
    end picture does."""
    await h.running.challenge(HERE, ANN, BOB, Terms(turn_seconds=10 * HOUR, game="torishogi"))
    await h.running.accept(HERE, BOB)
    await h.settle()
    await h.running.play(HERE, ANN, "c3c4")
    await h.running.end_turn(HERE, ANN)
    hosted = await hosted_now(h)
    await h.running.abort(HERE, ANN)
    await h.settle()
    look = await h.running.look(hosted.id)
    assert look.hosted.phase == "ended" and look.outcome is None
    status = look.worded_status()
    assert status.headline == "The match ended without a result", status


async def test_a_look_before_an_automatic_away_day_does_not_silence_its_new_deadlines_reminder(
    h: Harness,
) -> None:
    """rR: a look before a missed ToriShogi deadline no longer silences the reminder of the
    deadline that follows on the same turn (``unlook`` in ``deadlines._missed_move``). Its
    twin, the automatic away day (``absence.auto_away``: the same turn's deadline moved a
    day on), keeps the look: ann looked at her board, missed her deadline, was given an
    automatic day, and no reminder comes before the new deadline. It should come, as after
    a missed ToriShogi turn."""
    await save_guild(h.running._ctx.store, HERE.guild_id, GuildSettings(auto_away=True))
    await h.running.challenge(HERE, ANN, BOB, Terms(turn_seconds=10 * HOUR, game="torishogi"))
    await h.running.accept(HERE, BOB)
    await h.settle()
    await h.running.board(HERE, ANN)  # she looked at her first turn
    start = h.clock.now()
    await h.advance(10 * HOUR)  # her deadline: an automatic day, her turn now ends at +34 h
    assert "gave them one of their away days" in h.delivery.texts(HERE.channel_id)[-1]
    await h.advance(23 * HOUR)  # past 80 % of the turn, before the new deadline
    assert h.clock.now() < start + 34 * HOUR
    reminders = [
        d.message.text
        for d in h.delivery.user(ANN.id)
        if d.kind == PRIVATE and d.message.text.startswith("Reminder")
    ]
    assert reminders, "no reminder before the deadline the automatic day moved"
