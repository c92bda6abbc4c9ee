"""Time off (issue 27): away days within a yearly allowance per server (the clocks of the
player's matches stand still, deadlines move, opponents are told when they are back; an
early return gives the days not begun back), the automatic away day before a missed turn
(off per player or per server; its interplay with forfeits), weekends off in the players'
own time zones, and the ladder not pairing a player who is away."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import zoneinfo
from dataclasses import replace
from typing import Any

import pytest
from test_service_games import torii_until_the_monkeys_pause

from bot.app.answers import Unusable
from bot.app.callers import Caller
from bot.app.time_off import TimeOff
from bot.service import MatchService, Place, Refused, Terms, User
from bot.service.guild import GuildSettings, save_guild
from bot.service.people import PlayerSettings, checked_zone, load_player, save_player
from bot.service.testing import PRIVATE, Harness
from storage import DatabaseUnavailable, Store, players

HERE = Place(guild_id=1, channel_id=100)
ANN, BOB = User(1, "ann"), User(2, "bob")
HOUR, DAY = 3600.0, 86400.0
START = 1_800_000_000.0  # the manual clock's start: Friday 15 January 2027, 08:00 UTC


async def started(h: Harness, **terms: object) -> None:
    terms = {"turn_seconds": 10 * HOUR, "game": "torishogi", **terms}
    await h.running.challenge(HERE, ANN, BOB, Terms(**terms))  # type: ignore[arg-type]
    await h.running.accept(HERE, BOB)
    await h.settle()


async def due(h: Harness) -> float:
    hosted = await h.running.records.live_in_channel(HERE.channel_id)
    assert hosted is not None and hosted.due_at is not None
    return hosted.due_at


def last_post(h: Harness) -> str:
    return h.delivery.texts(HERE.channel_id)[-1]


def dms(h: Harness, user: User) -> list[str]:
    return [d.message.text for d in h.delivery.user(user.id) if d.kind == PRIVATE]


async def test_away_days_move_a_running_deadline_and_an_early_return_gives_days_back(
    h: Harness,
) -> None:
    await started(h)
    await h.advance(2 * HOUR)  # 8 h of ann's turn left
    reply = await h.running.away(HERE.guild_id, ANN, h.clock.now(), 3)
    assert "(3 days; 11 of 14 left this year)" in reply.text
    assert reply.buttons == ("back",)
    assert await due(h) == h.clock.now() + 3 * DAY + 8 * HOUR
    await h.settle()
    post = h.delivery.channel(HERE.channel_id)[-1]
    assert post.text.startswith("ann (Challenger) is away from <t:")
    assert f"they are back <t:{int(h.clock.now() + 3 * DAY)}:f>" in post.text
    assert post.mentions == (BOB.id,)  # the opponent is told: news he gets no DM of
    await h.advance(DAY + 12 * HOUR)
    assert "deadline" not in last_post(h)
    back = await h.running.back(HERE.guild_id, ANN)
    assert back.text == "Welcome back: 1 day given back (12 of 14 left this year)."
    assert await due(h) == h.clock.now() + 8 * HOUR  # her clock runs again from here
    await h.settle()
    assert last_post(h).startswith("ann (Challenger) is back early: their clock runs again.")
    status = await h.running.away_days(HERE.guild_id, ANN)
    assert status.text == "You have 12 away days left this year, of 14."


async def test_a_turn_that_begins_while_away_runs_from_the_return(h: Harness) -> None:
    await started(h)
    await h.running.away(HERE.guild_id, BOB, h.clock.now() + HOUR, 2)  # planned: in an hour
    await h.advance(2 * HOUR)
    await h.running.play(HERE, ANN, "c3c4")
    await h.running.end_turn(HERE, ANN)
    assert await due(h) == START + HOUR + 2 * DAY + 10 * HOUR
    with pytest.raises(Refused, match="You are already away from"):
        await h.running.away(HERE.guild_id, BOB, h.clock.now(), 1)
    with pytest.raises(Refused, match=r"You have 12 away days left this year \(of 14\); 13 days"):
        await h.running.away(HERE.guild_id, BOB, START + 5 * DAY, 13)


async def test_away_until_a_date_ends_at_that_dates_midnight_in_the_players_time_zone(
    h: Harness,
) -> None:
    """``/tora away until:2027-01-20`` asked on a Friday morning is back at 00:00 on the
    20th, the player's midnight: whole days counted from the time of asking ran on to the
    same morning hour on the 20th."""
    await started(h)
    await save_player(h.running._ctx.store, ANN.id, PlayerSettings(timezone="Europe/Paris"))
    answer = await TimeOff(h.running).away(
        Caller(ANN, HERE.guild_id, HERE.channel_id), until="2027-01-20"
    )
    midnight = dt.datetime(2027, 1, 20, tzinfo=zoneinfo.ZoneInfo("Europe/Paris")).timestamp()
    back = f"until <t:{int(midnight)}:f> (<t:{int(midnight)}:R>)"
    assert f"{back} (5 days; 9 of 14 left this year)" in answer.text, answer.text
    [away] = await h.running._ctx.store.aways(HERE.guild_id, [ANN.id], h.clock.now())
    assert (away.starts_at, away.ends_at) == (START, midnight)


async def test_two_calendar_days_away_across_the_end_of_summer_time_cost_two_days(
    h: Harness,
) -> None:
    """Regression: ``/tora away start:2027-10-30 until:2027-11-01`` in Europe/Paris is
    Saturday and Sunday away, but the clocks go back an hour that Sunday: the 49 hours were
    counted in days of 24 hours, and the player was charged three away days for two. A
    day is the player's: ``days:2`` from Saturday noon ends at Monday noon there."""
    paris = zoneinfo.ZoneInfo("Europe/Paris")
    await save_player(h.running._ctx.store, ANN.id, PlayerSettings(timezone="Europe/Paris"))
    answer = await TimeOff(h.running).away(
        Caller(ANN, HERE.guild_id, HERE.channel_id), start="2027-10-30", until="2027-11-01"
    )
    assert "(2 days; 12 of 14 left this year)" in answer.text, answer.text
    assert (
        "12 away days left this year, of 14" in (await h.running.away_days(HERE.guild_id, ANN)).text
    )
    noon = dt.datetime(2027, 11, 6, 12, tzinfo=paris).timestamp()
    await h.running.away(HERE.guild_id, ANN, noon, 2)
    aways = await h.running._ctx.store.aways(HERE.guild_id, [ANN.id], h.clock.now())
    ends = dt.datetime(2027, 11, 8, 12, tzinfo=paris).timestamp()
    assert [a.ends_at for a in aways][-1] == ends
    assert (
        "10 away days left this year, of 14" in (await h.running.away_days(HERE.guild_id, ANN)).text
    )


async def test_a_server_without_away_days_refuses_them(h: Harness) -> None:
    await started(h)
    await save_guild(h.running._ctx.store, HERE.guild_id, GuildSettings(away_days=0))
    with pytest.raises(Refused, match="This server gives no away days"):
        await h.running.away(HERE.guild_id, ANN, h.clock.now(), 1)


async def auto_away_here(h: Harness) -> None:
    """The server gives automatic away days (the tests' harness does not by default)."""
    await save_guild(h.running._ctx.store, HERE.guild_id, GuildSettings(auto_away=True))


async def test_an_automatic_away_day_comes_before_a_missed_turn(h: Harness) -> None:
    await auto_away_here(h)
    await started(h, forfeit_after=1)
    await h.advance(10 * HOUR)  # ann's deadline, nothing played
    assert last_post(h).startswith(
        "ann did not play by the deadline, so I gave them one of their away days "
        "(13 days of 14 left this year): their turn now ends <t:"
    )
    assert dms(h, ANN)[-1].startswith("Your turn against bob (Opposition) reached its deadline")
    assert await due(h) == START + 10 * HOUR + DAY
    await h.advance(DAY)  # one automatic day per turn: now the turn is missed
    assert "forfeits" in last_post(h)


async def test_a_look_before_an_automatic_away_day_does_not_silence_its_new_deadlines_reminder(
    h: Harness,
) -> None:
    """ann looked at her board, missed her deadline and was given an automatic day: the
    reminder of the deadline it moved still comes, as after a missed ToriShogi turn."""
    await auto_away_here(h)
    await started(h)
    await h.running.board(HERE, ANN)  # she looked at her first turn
    start = h.clock.now()
    await h.advance(10 * HOUR)  # her deadline: an automatic day, her turn now ends at +34 h
    assert "gave them one of their away days" in last_post(h)
    await h.advance(23 * HOUR)  # past 80 % of the turn, before the new deadline
    assert h.clock.now() < start + 34 * HOUR
    assert any(text.startswith("Reminder") for text in dms(h, ANN)), dms(h, ANN)


async def test_an_automatic_away_day_on_a_friday_evening_ends_the_turn_after_the_weekend(
    h: Harness,
) -> None:
    """The automatic day stops the clock for a day; with nothing left of the turn, it ends
    when the clock next runs, after the player's weekend (not inside it, on Saturday), with
    a reminder as any deadline has; and it is still one day per turn."""
    await auto_away_here(h)
    await started(h, weekends_off=True)
    await h.advance(10 * HOUR)  # Friday 18:00 UTC: the day runs to Saturday 18:00
    monday = START + 64 * HOUR
    assert await due(h) == monday
    assert f"their turn now ends <t:{int(monday)}:f>" in last_post(h)
    hosted = await h.running.records.live_in_channel(HERE.channel_id)
    assert hosted is not None and hosted.remind_at == monday - 2 * HOUR  # at 80 % of 10 h
    await h.advance(monday - h.clock.now())
    assert "missed turns in a row: 1" in last_post(h)


async def test_coming_back_during_an_automatic_away_day_keeps_the_day_to_play_the_turn(
    h: Harness,
) -> None:
    """The automatic day begins at the deadline, with nothing left of the turn: coming back
    from it would end the turn at once. It is not ended early: the turn keeps the day."""
    await auto_away_here(h)
    await started(h)
    await h.advance(10 * HOUR)  # the automatic day, to START + 34 h
    await h.advance(2 * HOUR)
    with pytest.raises(Refused, match="was given automatically, to save a turn") as refused:
        await h.running.back(HERE.guild_id, ANN)
    assert f"<t:{int(START + 34 * HOUR)}:f>" in str(refused.value)
    await h.settle()
    assert await due(h) == START + 34 * HOUR
    assert "missed turns" not in last_post(h)
    await h.running.play(HERE, ANN, "c3c4")
    await h.running.end_turn(HERE, ANN)  # she plays it


async def test_days_away_refused_during_an_automatic_day_are_advised_after_it(
    h: Harness,
) -> None:
    """Days away asked for during an automatic day are refused, and the refusal does not
    advise coming back first (an automatic day is not ended early): days after it are
    taken."""
    await auto_away_here(h)
    await started(h)
    await h.advance(10 * HOUR)  # the automatic day, to START + 34 h
    with pytest.raises(Refused, match="given automatically") as refused:
        await h.running.away(HERE.guild_id, ANN, h.clock.now(), 3)
    assert "back:True" not in str(refused.value)
    assert f"<t:{int(START + 34 * HOUR)}:f>" in str(refused.value)
    await h.running.away(HERE.guild_id, ANN, START + 34 * HOUR, 3)  # as advised


async def test_an_automatic_away_day_is_off_per_player_or_per_server(h: Harness) -> None:
    store = h.running._ctx.store
    await auto_away_here(h)
    await started(h)
    await save_player(store, ANN.id, PlayerSettings(auto_away=False))
    await h.advance(10 * HOUR)
    assert "missed turns in a row: 1" in last_post(h)  # torishogi: the clock starts again
    await save_player(store, ANN.id, PlayerSettings())
    await save_guild(store, HERE.guild_id, GuildSettings(auto_away=False))
    await h.advance(10 * HOUR)
    assert "missed turns in a row: 2" in last_post(h)


async def test_the_automatic_day_survives_a_crash_between_its_writes(h: Harness) -> None:
    await auto_away_here(h)
    await started(h)
    await h.advance(10 * HOUR)
    first = await due(h)
    await h.crash()
    await h.settle()
    assert await due(h) == first  # the restart does not give a second day


async def test_an_unanswered_monkey_question_is_none_on_a_server_with_automatic_away_days(
    h: Harness,
) -> None:
    """TI15: "no answer by then means none". Regression: on a server with automatic away
    days, bob's Monkey question reaching its deadline unanswered gave him one of his away
    days first, so the question waited a day more and ann's game was held up for an answer
    the ruling says is none."""
    await auto_away_here(h)
    await torii_until_the_monkeys_pause(h)
    await h.advance(10 * HOUR)  # bob does not answer
    lapsed = last_post(h)
    assert "away days" not in lapsed, lapsed
    assert "`flip none`" in lapsed, lapsed


async def test_weekends_off_in_each_players_time_zone(h: Harness) -> None:
    store = h.running._ctx.store
    await store.save_player(ANN.id, ANN.name)
    await store.save_player(BOB.id, BOB.name)
    await save_player(store, ANN.id, PlayerSettings(timezone="Asia/Tokyo"))
    await save_player(store, BOB.id, PlayerSettings(timezone="America/Los_Angeles"))
    await started(h, weekends_off=True)
    assert "weekends off" in h.delivery.texts(HERE.channel_id)[0]
    # ann's Friday 17:00 in Tokyo: 7 h before her Saturday, the other 3 h from her Monday
    sunday_15_utc = START + 2 * DAY + 7 * HOUR
    assert await due(h) == sunday_15_utc + 3 * HOUR
    await h.running.play(HERE, ANN, "c3c4")
    await h.running.end_turn(HERE, ANN)
    # bob's Friday 00:00 in Los Angeles: his Saturday begins 24 h later, after his 10 h
    assert await due(h) == START + 10 * HOUR


async def test_a_day_given_runs_outside_the_receivers_weekend_and_time_away(h: Harness) -> None:
    """A gift of a day is a day of running clock: a calendar day from a Friday evening
    would end the turn in the receiver's weekend, when their clock stands still."""
    await started(h, weekends_off=True)
    assert await due(h) == START + 10 * HOUR  # Friday 18:00 UTC: 6 h before her Saturday
    await h.running.give_time(HERE, BOB)
    monday = START + 64 * HOUR
    assert await due(h) == monday + 18 * HOUR  # 6 h on Friday, the other 18 h from Monday
    await h.running.away(HERE.guild_id, ANN, monday + 20 * HOUR, 1)  # planned for Monday
    first = await due(h)
    await h.running.give_time(HERE, BOB)
    assert await due(h) == first + DAY + DAY  # the day given runs after her day away


async def test_a_match_without_away_days_keeps_its_clock_running(h: Harness) -> None:
    await save_guild(h.running._ctx.store, HERE.guild_id, GuildSettings(auto_away=True))
    await started(h, away_days=False)  # a tournament's choice
    assert "away days do not stop the clock" in h.delivery.texts(HERE.channel_id)[0]
    first = await due(h)
    await h.running.away(HERE.guild_id, ANN, h.clock.now(), 3)
    assert await due(h) == first  # her deadline does not move
    await h.settle()
    assert not any("is away" in text for text in h.delivery.texts(HERE.channel_id))
    await h.advance(10 * HOUR)  # and no automatic away day: the turn is missed
    assert "missed turns in a row: 1" in last_post(h)


async def test_away_days_cut_off_by_a_crash_still_stop_the_running_clock(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ann takes 3 away days while her turn runs (8 h left). The bot dies while her away
    days and her moved deadline are being saved: either both are stored or neither (one
    transaction), never her away days alone, which would refuse her retry ("You are already
    away...") and leave the old deadline to end her turn, missed, in the middle of her time
    away. What is stored as away stops the clock it applies to."""
    from storage.hosting import hosted

    await started(h)
    await h.advance(2 * HOUR)  # 8 h of ann's turn left

    def dies(*args: object, **kwargs: object) -> object:
        raise RuntimeError("the bot died before the deadlines moved (simulated)")

    monkeypatch.setattr(hosted, "update_hosted", dies)
    with pytest.raises(RuntimeError):
        await h.running.away(HERE.guild_id, ANN, h.clock.now(), 3)
    monkeypatch.undo()
    await h.crash()
    with contextlib.suppress(Refused):  # before: "You are already away from ..."
        await h.running.away(HERE.guild_id, ANN, h.clock.now(), 3)  # ann tries again
    await h.advance(9 * HOUR)  # past the old deadline, well within her days away
    said = h.delivery.texts(HERE.channel_id)
    assert not any("deadline" in text for text in said), said[-1]


async def test_a_reminder_in_a_match_without_away_days_offers_no_away_day(h: Harness) -> None:
    """A tournament game whose clock runs on through time away: its reminder offers no away
    day (neither the words nor the Away for a day button), which would be spent for nothing."""
    await started(h, away_days=False)
    await h.advance(8 * HOUR)  # 80 % of her turn
    [reminder] = [
        d.message
        for d in h.delivery.user(ANN.id)
        if d.kind == PRIVATE and d.message.text.startswith("Reminder")
    ]
    assert "Away for a day" not in reminder.text, reminder.text
    assert "away" not in str(reminder.buttons), reminder.buttons


async def test_a_reminder_offers_no_away_day_where_the_server_gives_none(h: Harness) -> None:
    """A server whose admins give no away days (``away_days`` 0): bob's reminder offers
    none, neither the words nor the Away for a day button, whose press would be refused
    (as in a tournament's game without away days)."""
    await save_guild(h.running._ctx.store, HERE.guild_id, GuildSettings(away_days=0))
    await h.running.challenge(
        HERE, ANN, BOB, Terms(turn_seconds=10 * HOUR, game="torishogi", roles="opposition")
    )
    await h.running.accept(HERE, BOB)
    await h.settle()
    await h.advance(8 * HOUR)  # 80 % of his turn
    [reminder] = [
        d.message
        for u in (ANN, BOB)
        for d in h.delivery.user(u.id)
        if d.kind == PRIVATE and d.message.text.startswith("Reminder")
    ]
    assert "Away for a day" not in reminder.text, reminder.text
    assert "away" not in str(reminder.buttons), reminder.buttons


async def test_taking_away_days_says_which_clocks_run_on(h: Harness) -> None:
    """ann's only match here is a game without away days (a tournament's choice): the
    answer to her days away does not say her clocks stand still, but that this one runs on."""
    await started(h, away_days=False)
    reply = await h.running.away(HERE.guild_id, ANN, h.clock.now(), 3)
    assert "Your clocks stand still then" not in reply.text, reply.text
    assert "1 match of yours here keeps its clock running then" in reply.text


async def test_an_automatic_away_day_stops_the_clock_of_the_players_other_matches_too(
    h: Harness,
) -> None:
    """An automatic away day is a time away in the server: ann's other match, her turn
    too, stands still through it (its deadline moved by the day, its channel told), rather
    than being missed in the middle of it."""
    there = Place(guild_id=HERE.guild_id, channel_id=101)
    cat = User(3, "cat")
    await auto_away_here(h)
    await started(h)  # ann's turn, due in 10 h
    terms = Terms(turn_seconds=20 * HOUR, game="torishogi")
    await h.running.challenge(there, ANN, cat, terms)
    await h.running.accept(there, cat)
    await h.settle()  # ann's turn there too, due in 20 h
    await h.advance(10 * HOUR)  # the first deadline: an automatic day, to START + 34 h
    assert "gave them one of their away days" in last_post(h)
    assert "is away from" not in last_post(h)  # (told once here: the day's own note)
    told = h.delivery.texts(there.channel_id)[-1]
    assert "ann (Challenger) is away from" in told and f"<t:{int(START + 44 * HOUR)}:f>" in told
    await h.advance(11 * HOUR)  # past the old deadline there, within her away day
    assert not any("deadline" in text for text in h.delivery.texts(there.channel_id))
    hosted = await h.running.records.live_in_channel(there.channel_id)
    assert hosted is not None and hosted.due_at == START + 44 * HOUR  # 10 h left after it


async def ann_s_second_match(h: Harness) -> Place:
    """Beside ``started``'s match (ann's turn, due in 10 h), a second one in the server,
    ann's turn there too, due in 20 h."""
    there = Place(guild_id=HERE.guild_id, channel_id=101)
    cat = User(3, "cat")
    await h.running.challenge(there, ANN, cat, Terms(turn_seconds=20 * HOUR, game="torishogi"))
    await h.running.accept(there, cat)
    await h.settle()
    return there


async def test_an_automatic_day_still_stops_the_other_matches_clocks_after_a_crash(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: the process that gave an automatic away day moved the player's other
    matches in a later step, from memory; dead in between, it left ann's other deadline
    running through her day, and no restart took the step again."""
    await auto_away_here(h)
    await started(h)
    there = await ann_s_second_match(h)

    async def dies_first(service: object) -> None:
        """The process dies once the day is saved, before the other matches move."""

    monkeypatch.setattr(MatchService, "_days_given", dies_first)
    await h.advance(10 * HOUR)  # the first deadline: an automatic day, to START + 34 h
    assert "gave them one of their away days" in last_post(h)
    monkeypatch.undo()
    await h.crash()
    await h.settle()
    hosted = await h.running.records.live_in_channel(there.channel_id)
    assert hosted is not None and hosted.due_at == START + 44 * HOUR  # 10 h left after it
    told = h.delivery.texts(there.channel_id)[-1]
    assert "ann (Challenger) is away from" in told


async def test_an_automatic_day_stops_the_other_matches_clocks_after_a_long_outage(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: the process that gave ann an automatic day died before moving her other
    match, and came back after that match's old deadline (START + 20 h, within her day):
    the restart fired that deadline before it moved the match by the day, so ann's turn
    there was missed in the middle of her away day."""
    await auto_away_here(h)
    await started(h)
    there = await ann_s_second_match(h)

    async def dies_first(service: object) -> None:
        """The process dies once the day is saved, before the other matches move."""

    monkeypatch.setattr(MatchService, "_days_given", dies_first)
    await h.advance(10 * HOUR)  # the first deadline: an automatic day, to START + 34 h
    monkeypatch.undo()
    await h.close()
    h.clock.advance(11 * HOUR)  # the bot down past the old deadline there
    await h.open()
    await h.settle()
    hosted = await h.running.records.live_in_channel(there.channel_id)
    assert hosted is not None and hosted.missed == (0, 0), hosted
    assert hosted.due_at is not None and hosted.due_at >= START + 34 * HOUR  # not within it
    told = h.delivery.texts(there.channel_id)
    assert not any("deadline" in text for text in told), told


async def test_an_automatic_day_given_late_keeps_the_other_matches_time_left(h: Harness) -> None:
    """Regression: the bot was down over ann's deadline (START + 10 h) and came back two
    hours later: her automatic day began at that deadline, but her other match was moved
    as if her clock there had run until the restart, so she came back to 8 h left there
    instead of the 10 h she had when the day began."""
    await auto_away_here(h)
    await started(h)
    there = await ann_s_second_match(h)
    await h.close()
    h.clock.advance(12 * HOUR)  # down from before her deadline until two hours after it
    await h.open()
    await h.settle()
    hosted = await h.running.records.live_in_channel(there.channel_id)
    assert hosted is not None and hosted.due_at == START + 44 * HOUR  # 10 h left after it


async def test_two_processes_that_find_an_unmoved_automatic_day_move_the_other_match_once(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The day's note is taken in the transaction that moves the other matches: two
    processes that both read it (here one restarted after a crash, and another looking
    at once) move ann's other deadline by the day once, and tell its channel once."""
    await auto_away_here(h)
    await started(h)
    there = await ann_s_second_match(h)

    async def dies_first(service: object) -> None:
        """The process dies once the day is saved, before the other matches move."""

    with monkeypatch.context() as patched:
        patched.setattr(MatchService, "_days_given", dies_first)
        await h.advance(10 * HOUR)
    await h.close()
    both_read = asyncio.Barrier(2)
    read = Store.unmoved

    async def reading_together(store: Store) -> list[Any]:
        found = await read(store)
        await both_read.wait()
        return found

    monkeypatch.setattr(Store, "unmoved", reading_together)
    shared = replace(h.settings, poll_seconds=1.0)
    first, second = (Harness(h.config, settings=shared, clock=h.clock) for _ in range(2))
    try:
        await asyncio.gather(first.open(), second.open())
        hosted = await first.running.records.live_in_channel(there.channel_id)
        assert hosted is not None and hosted.due_at == START + 44 * HOUR  # not 68 h
        told = first.delivery.texts(there.channel_id) + second.delivery.texts(there.channel_id)
        assert sum("ann (Challenger) is away from" in text for text in told) == 1
    finally:
        await first.close()
        await second.close()


async def test_away_naming_both_days_and_until_is_refused(h: Harness) -> None:
    """`/tora away days:3 until:2027-01-20` says two things: it is refused, naming both,
    rather than taking the days and ignoring the date."""
    caller = Caller(ANN, HERE.guild_id, HERE.channel_id)
    with pytest.raises(Unusable, match="not both"):
        await TimeOff(h.running).away(caller, days=3, until="2027-01-20")
    assert await h.running._ctx.store.aways(HERE.guild_id, [ANN.id], h.clock.now()) == []


async def test_away_until_a_date_in_another_form_is_told_how_to_write_a_date(
    h: Harness,
) -> None:
    """`/tora away until:2027/03/01` (or `01.03.2027`) was told it is not a duration, never
    how to write the date the option takes."""
    caller = Caller(ANN, HERE.guild_id, HERE.channel_id)
    for typed in ("2027/03/01", "01.03.2027", "1 3 2027"):
        with pytest.raises(Unusable, match="write it as `2027-03-01`"):
            await TimeOff(h.running).away(caller, until=typed)


def test_a_time_zone_typed_in_any_case_is_taken_as_spelled() -> None:
    """`/tora settings timezone:utc` was refused, offering `UTC`: zones were matched
    case-sensitively."""
    for typed, spelled in (("utc", "UTC"), ("europe/paris", "Europe/Paris"), ("UTC", "UTC")):
        assert checked_zone(typed) == spelled
    with pytest.raises(Refused, match="not a time zone I know"):
        checked_zone("europe/atlantis")


async def test_away_with_start_and_until_both_past_is_refused_not_stored_backwards(
    h: Harness,
) -> None:
    """`/tora away start:2027-01-01 until:2027-01-05` on 15 January stored a time away from
    now until 10 days ago and told the opponent of it (the start was moved to now after
    `until` was checked against the typed start)."""
    await started(h)
    caller = Caller(ANN, HERE.guild_id, HERE.channel_id)
    with pytest.raises(Unusable, match="would end in the past"):
        await TimeOff(h.running).away(caller, start="2027-01-01", until="2027-01-05")
    assert await h.running._ctx.store.aways(HERE.guild_id, [ANN.id], 0) == []


async def test_away_from_a_past_start_counts_the_days_from_now(h: Harness) -> None:
    """`/tora away start:2027-01-10 until:2027-01-16` on Friday 15 January answered "(6 days;
    8 of 14 left this year)" though the time away stored runs from now: the days were
    counted from the typed start."""
    await started(h)
    caller = Caller(ANN, HERE.guild_id, HERE.channel_id)
    answer = await TimeOff(h.running).away(caller, start="2027-01-10", until="2027-01-16")
    assert "(1 day; 13 of 14 left this year)" in answer.text, answer.text
    status = await h.running.away_days(HERE.guild_id, ANN)
    assert "13 away days left" in status.text


async def test_a_players_settings_cut_off_by_a_failure_are_saved_whole_or_not_at_all(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``/tora-settings timezone:Asia/Tokyo auto_away:False`` saves both or neither: a
    failure between them (the database away for a moment) never keeps the new time zone with
    the old automatic away days, a combination nobody chose."""
    store = h.running._ctx.store
    await store.save_player(ANN.id, ANN.name)
    before = PlayerSettings(timezone="Europe/Paris")
    await save_player(store, ANN.id, before)
    real, calls = players.set_player_setting, 0

    def failing_on_the_second(*args: Any) -> None:
        nonlocal calls
        calls += 1
        if calls == 2:
            raise DatabaseUnavailable("lost its connection (simulated)")
        real(*args)

    monkeypatch.setattr(players, "set_player_setting", failing_on_the_second)
    with pytest.raises(DatabaseUnavailable):
        await save_player(store, ANN.id, PlayerSettings(timezone="Asia/Tokyo", auto_away=False))
    monkeypatch.undo()
    assert await load_player(store, ANN.id) == before


async def test_days_away_taken_during_a_setup_move_its_deadline(h: Harness) -> None:
    """ann accepts bob's TORA challenge (setup due in 10 h), then takes 3 away days from
    now: the setup's deadline moves past her return, as a setup begun during her days away
    has it (``Context.setup_clock``), so it does not lapse while she is away; coming back
    early moves it back."""
    await h.running.challenge(HERE, BOB, ANN, Terms(turn_seconds=10 * HOUR, game="tora"))
    await h.running.accept(HERE, ANN)
    await h.settle()
    before = await due(h)
    reply = await h.running.away(HERE.guild_id, ANN, h.clock.now(), 3)
    assert "Your clocks stand still then" in reply.text, reply.text
    away_ends = h.clock.now() + 3 * DAY
    assert await due(h) == pytest.approx(away_ends + 10 * HOUR, abs=2 * HOUR)
    await h.advance(HOUR)
    await h.running.back(HERE.guild_id, ANN)
    assert await due(h) == pytest.approx(before + HOUR)
