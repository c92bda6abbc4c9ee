"""Review rR: failing tests of correspondence comforts (deadlines, clocks, reminders, away
days, digest, notifications). Each test is one bug; its docstring says what the user sees
and what they should see."""

from __future__ import annotations

from bot.service import Place, Refused, Terms, User
from bot.service.guild import GuildSettings, save_guild
from bot.service.testing import PRIVATE, Harness

HERE = Place(guild_id=1, channel_id=100)
THERE = Place(guild_id=1, channel_id=101)  # another match of the same server
ANN, BOB, CAT = User(1, "ann"), User(2, "bob"), User(3, "cat")
HOUR, DAY = 3600.0, 86400.0
START = 1_800_000_000.0  # the manual clock's start: Friday 15 January 2027, 08:00 UTC


async def start(h: Harness, place: Place, first: User, second: User, **terms: object) -> None:
    terms = {"turn_seconds": 10 * HOUR, "game": "torishogi", **terms}
    await h.running.challenge(place, first, second, Terms(**terms))  # type: ignore[arg-type]
    await h.running.accept(place, second)
    await h.settle()


async def due(h: Harness, place: Place) -> float:
    hosted = await h.running.records.live_in_channel(place.channel_id)
    assert hosted is not None and hosted.due_at is not None
    return hosted.due_at


def dms(h: Harness, user: User) -> list[str]:
    return [d.message.text for d in h.delivery.user(user.id) if d.kind == PRIVATE]


async def test_an_automatic_away_day_stops_the_clock_of_the_players_other_matches_too(
    h: Harness,
) -> None:
    """ann plays two matches in one server, both her turn. Her first reaches its deadline
    with nothing played: the bot gives her an automatic away day (a server-wide time away:
    `/tora away` lists it, and any turn of hers that begins in it runs from its end). But
    her other match's running deadline is not moved and its opponent is not told: that turn
    ends in the middle of her away day, counted missed ("missed turns in a row: 1"). It
    should stand still as during any time away (its deadline moved by the day)."""
    await save_guild(h.running._ctx.store, HERE.guild_id, GuildSettings(auto_away=True))
    await start(h, HERE, ANN, BOB)  # ann's turn, due in 10 h
    await start(h, THERE, ANN, CAT, turn_seconds=20 * HOUR)  # ann's turn, due in 20 h
    await h.advance(10 * HOUR)  # the first deadline: an automatic day, to START + 34 h
    assert "gave them one of their away days" in h.delivery.texts(HERE.channel_id)[-1]
    aways = await h.running._ctx.store.aways(HERE.guild_id, [ANN.id], h.clock.now())
    assert [(a.starts_at, a.ends_at, a.automatic) for a in aways] == [
        (START + 10 * HOUR, START + 34 * HOUR, True)
    ]
    await h.advance(11 * HOUR)  # past the other match's old deadline, within her away day
    there = h.delivery.texts(THERE.channel_id)
    assert not any("deadline" in text for text in there), there[-1]
    assert await due(h, THERE) == START + 34 * HOUR + 10 * HOUR  # 10 h left after the day


async def test_reminders_turned_off_during_a_turn_send_none_for_that_turn(h: Harness) -> None:
    """ann's turn runs (10 h; a reminder due at 80 %). Two hours in she picks "no
    reminders" in `/tora settings`; the form shows "no reminders", yet at 8 h she still gets
    "Reminder: your turn against bob ... ends in 2 h": the reminder scheduled when the turn
    began is sent without looking at her choice again. She should get none."""
    await start(h, HERE, ANN, BOB)
    await h.advance(2 * HOUR)
    await h.running.records.set_notify(ANN, "reminders", "none")
    await h.advance(7 * HOUR)  # past 80 % of her turn
    reminders = [text for text in dms(h, ANN) if text.startswith("Reminder")]
    assert reminders == [], reminders


async def test_a_reminder_in_a_match_without_away_days_offers_no_away_day(h: Harness) -> None:
    """A tournament game whose organiser chose `away_days:False` (its terms say "away days
    do not stop the clock"). The reminder still says "Away from your games? Press Away for a
    day, or take away days with /tora away" and carries the Away for a day button: pressing
    it spends one of the player's away days and this game's clock runs on, so the turn is
    missed anyway. The reminder of such a game should offer no away day."""
    await start(h, HERE, ANN, BOB, away_days=False)
    await h.advance(8 * HOUR)  # 80 % of her turn
    [reminder] = [
        d.message
        for d in h.delivery.user(ANN.id)
        if d.kind == PRIVATE and d.message.text.startswith("Reminder")
    ]
    assert "Away for a day" not in reminder.text, reminder.text
    assert "away" not in str(reminder.buttons), reminder.buttons


async def test_taking_away_days_does_not_claim_a_running_clock_stands_still(h: Harness) -> None:
    """ann's only match here is a game without away days (a tournament's choice: its clock
    runs on). `/tora away days:3` answers "Your clocks stand still then; 0 matches were
    told": she leaves trusting that, and her game's turns are missed and forfeited while she
    is away. The answer should say that this game's clock does not stop."""
    await start(h, HERE, ANN, BOB, away_days=False)
    reply = await h.running.away(HERE.guild_id, ANN, h.clock.now(), 3)
    assert "Your clocks stand still then" not in reply.text, reply.text


async def test_the_refusal_of_days_away_during_an_automatic_day_gives_advice_that_works(
    h: Harness,
) -> None:
    """ann missed a deadline and was given an automatic away day. She now wants three days
    off (or presses Away for a day on the reminder that follows): refused, "You are already
    away from ... Come back first with /tora away back:True, or choose other days." She
    does as told: `/tora away back:True` is refused too ("given automatically ... not ended
    early"). The advice should work, or the refusal should say what does (a start after
    the automatic day's end)."""
    await save_guild(h.running._ctx.store, HERE.guild_id, GuildSettings(auto_away=True))
    await start(h, HERE, ANN, BOB)
    await h.advance(10 * HOUR)  # the automatic day, to START + 34 h
    try:
        await h.running.away(HERE.guild_id, ANN, h.clock.now(), 3)
    except Refused as refused:
        advice = str(refused)
    else:
        return  # taken (e.g. after the automatic day): fine
    if "back:True" in advice:
        try:
            await h.running.back(HERE.guild_id, ANN)
        except Refused as again:
            raise AssertionError(f"advised: {advice!r}; then refused: {again}") from None


async def test_a_tournament_games_setup_deadline_honours_a_players_time_away(h: Harness) -> None:
    """A Swiss event whose away days stop its clocks ("away days stop its clocks", the
    default). p2 is away for three days when the round begins: the TORA game's setup
    deadline is set a turn's time from now as if nobody were away, so the setup lapses in
    the middle of p2's time away ("setup lapsed"), scored as a forfeit loss for p2 when p1
    did choose. The setup's clock should stand still while the player is away (the deadline
    after their return), as a running turn's does."""
    import event_helpers as events

    desk = await events.desk_of(h)
    await events.create(desk, "Cup", "tora", "swiss", rounds=1)
    for n in (1, 2):
        await desk.join(events.HERE, events.user(n), "Cup")
    await h.running.away(events.GUILD, events.user(2), h.clock.now(), 3)
    back = h.clock.now() + 3 * DAY
    await desk.begin(events.HERE, events.ADMIN, "Cup", admin=True)
    await h.settle()
    assert h.store is not None
    [game] = await h.store.hosting.live()
    assert game.phase == "setup" and game.due_at is not None
    assert game.due_at > back, (game.due_at - h.clock.now()) / HOUR


async def test_a_look_in_a_missed_torishogi_turn_does_not_silence_the_next_deadlines_reminder(
    h: Harness,
) -> None:
    """ToriShogi (a turn cannot pass): ann glances at her board, then misses her deadline;
    her clock starts again ("missed turns in a row: 1 of 3 before a forfeit"). Her first
    glance keeps every later reminder of that position away: no reminder before the second
    missed deadline, nor before the third, which forfeits the match. Each new deadline
    should bring its reminder (a look before a missed deadline says nothing of the next)."""
    await start(h, HERE, ANN, BOB)
    await h.running.board(HERE, ANN)  # she looked at her first turn
    await h.advance(10 * HOUR)  # missed: her clock starts again, 10 h
    assert "missed turns in a row: 1" in h.delivery.texts(HERE.channel_id)[-1]
    await h.advance(9 * HOUR)  # past 80 % of the new deadline
    reminders = [text for text in dms(h, ANN) if text.startswith("Reminder")]
    assert reminders, "no reminder before her second missed deadline"
