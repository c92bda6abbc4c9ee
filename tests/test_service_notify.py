"""Notifications each player controls (issue 27): by default one ping per turn (the DM, not
the channel mention; no channel post mentions a player who wants none but a challenge);
DMs of their turn and of proposals on or off; reminders none, at 50 % and 80 % or hours
before, never to a player who acted or looked since; quiet hours holding DMs until they end
and keeping posts from pinging; a daily digest in place of the turn DMs, bounded to one
message; the server's defaults under each player's own."""

from __future__ import annotations

import datetime as dt

import pytest
from service_helpers import calls_counted

from bot.i18n import LOCALES, _, speaking
from bot.service import Place, Terms, User
from bot.service.digest import LENGTH, last_slot
from bot.service.languages import LANGUAGE
from bot.service.notify import DMS_CLOSED
from bot.service.outbox import DM_FALLBACK
from bot.service.testing import PRIVATE, Harness

HERE = Place(guild_id=1, channel_id=100)
ANN, BOB = User(1, "ann"), User(2, "bob")
HOUR, DAY = 3600.0, 86400.0


async def started(h: Harness, **terms: object) -> None:
    terms = {"turn_seconds": 10 * HOUR, "game": "torishogi", **terms}
    await h.running.challenge(HERE, ANN, BOB, Terms(**terms))  # type: ignore[arg-type]
    await h.running.accept(HERE, BOB)
    await h.settle()


async def wants(h: Harness, user: User, **settings: str) -> None:
    for key, value in settings.items():
        await h.running.records.set_notify(user, key, value)


def dms(h: Harness, user: User) -> list[str]:
    return [d.message.text for d in h.delivery.user(user.id) if d.kind == PRIVATE]


def turn_posts(h: Harness) -> list[tuple[str, tuple[int, ...]]]:
    return [(m.text, m.mentions) for m in h.delivery.channel(HERE.channel_id)]


async def test_by_default_a_turn_pings_once_by_dm_and_a_mention_is_a_choice(h: Harness) -> None:
    await started(h)
    begun = turn_posts(h)[-1]
    assert "The game begins" in begun[0] and begun[1] == ()  # no mention: the DM pings
    assert dms(h, ANN)[-1].startswith("Your turn against bob (Opposition)")
    await wants(h, BOB, mention="on", dm_turn="off")
    await h.running.play(HERE, ANN, "c3c4")
    await h.running.end_turn(HERE, ANN)
    await h.settle()
    assert turn_posts(h)[-1][1] == (BOB.id,)
    assert not any("Your turn against ann" in text for text in dms(h, BOB))


async def test_server_defaults_sit_under_each_players_own(h: Harness) -> None:
    await h.running.records.set_server_notify(HERE.guild_id, "mention", "on")
    await wants(h, ANN, mention="off")
    await started(h)
    assert turn_posts(h)[-1][1] == ()  # ann's own setting wins
    await h.running.play(HERE, ANN, "c3c4")
    await h.running.end_turn(HERE, ANN)
    await h.settle()
    assert turn_posts(h)[-1][1] == (BOB.id,)  # bob has the server's


async def test_mention_me_is_about_turns_and_proposals_other_news_pings(h: Harness) -> None:
    """The "Mention me" setting (off by default: the turn's DM pings instead) governs the posts a DM
    stands beside: the turn's and a proposal's. The news of a match that names a player
    and has no DM (a gift of time, its end, a challenge, a decline) pings them: the one
    ping of that event. The form says so ("no mention on my turn")."""
    await wants(h, BOB, mention="off")
    await started(h)
    await h.running.play(HERE, ANN, "c3c4")
    await h.running.end_turn(HERE, ANN)
    await h.settle()
    assert turn_posts(h)[-1][1] == ()  # bob's turn: his DM pings him, not the post
    await h.running.give_time(HERE, ANN)
    await h.settle()
    post = [m for m in h.delivery.channel(HERE.channel_id) if "gave bob" in m.text][-1]
    assert post.mentions == (BOB.id,), post.mentions
    await h.running.resign(HERE, ANN)
    await h.settle()
    ended = h.delivery.channel(HERE.channel_id)[-1]
    assert "resign" in ended.text and BOB.id in ended.mentions, (ended.text, ended.mentions)
    await h.running.challenge(HERE, ANN, BOB, Terms(game="torishogi"))
    await h.settle()
    assert h.delivery.channel(HERE.channel_id)[-1].mentions == (BOB.id,)  # he is called
    await h.running.decline(HERE, BOB)
    await h.settle()
    assert h.delivery.channel(HERE.channel_id)[-1].mentions == (ANN.id,)


async def test_proposals_reach_the_opponent_by_dm_unless_turned_off(h: Harness) -> None:
    await started(h)
    await h.running.draw(HERE, ANN)
    await h.settle()
    notice = h.delivery.user(BOB.id)[-1].message
    assert notice.text.startswith("ann (Challenger) proposes a draw in your match against them.")
    assert notice.buttons is not None and notice.buttons.verbs == ("draw", "decline-draw")
    await wants(h, ANN, proposals="off")
    await h.running.pause(HERE, BOB)
    await h.settle()
    assert not any("proposes a pause" in text for text in dms(h, ANN))


async def test_reminders_as_each_player_wants_them(h: Harness) -> None:
    await wants(h, ANN, reminders="50,80")
    await started(h)
    await h.advance(5 * HOUR)
    assert dms(h, ANN)[-1].startswith("Reminder: your turn against bob (Opposition) ends in 5 h")
    await h.advance(3 * HOUR)
    assert dms(h, ANN)[-1].startswith("Reminder: your turn against bob (Opposition) ends in 2 h")
    await wants(h, BOB, reminders="h3")
    await h.running.play(HERE, ANN, "c3c4")
    await h.running.end_turn(HERE, ANN)
    await h.advance(7 * HOUR)
    assert dms(h, BOB)[-1].startswith("Reminder: your turn against ann (Challenger) ends in 3 h")


async def test_no_reminder_after_acting_or_looking(h: Harness) -> None:
    await wants(h, ANN, reminders="50,80")
    await started(h)
    await h.running.board(HERE, ANN)  # she looked: the 50 % reminder is not sent
    await h.advance(5 * HOUR)
    assert not any(text.startswith("Reminder") for text in dms(h, ANN))
    await h.running.play(HERE, ANN, "c3c4")  # she acted: nor the 80 % one
    await h.advance(3 * HOUR)
    assert not any(text.startswith("Reminder") for text in dms(h, ANN))
    await wants(h, BOB, reminders="none")
    await h.advance(2 * HOUR)  # her staged move is played at the deadline
    await h.advance(9 * HOUR)
    assert not any(text.startswith("Reminder") for text in dms(h, BOB))


async def test_a_look_at_the_board_outlives_a_restart(h: Harness) -> None:
    await wants(h, ANN, reminders="50,80")
    await started(h)
    await h.running.board(HERE, ANN)  # she looked, then the bot restarts
    await h.crash()
    await h.advance(8 * HOUR)  # past 50 % and 80 % of her turn
    assert not any(text.startswith("Reminder") for text in dms(h, ANN))


async def test_quiet_hours_hold_a_dm_and_send_it_after(h: Harness) -> None:
    await started(h)  # Friday 08:00 UTC
    await wants(h, BOB, quiet="22-7")
    await h.advance(15 * HOUR)  # 23:00 (ann's deadline passed: her clock starts again)
    await h.running.play(HERE, ANN, "c3c4")
    await h.running.end_turn(HERE, ANN)
    await h.settle()
    assert not any(text.startswith("ann (Challenger) ended their turn") for text in dms(h, BOB))
    await h.advance(7 * HOUR + 30 * 60)  # 06:30: still quiet
    assert not any(text.startswith("ann (Challenger) ended their turn") for text in dms(h, BOB))
    await h.advance(HOUR)  # 07:30: it goes (before the reminder held behind it)
    assert dms(h, BOB)[-2].startswith("ann (Challenger) ended their turn")
    assert dms(h, BOB)[-1].startswith("Reminder: your turn against ann (Challenger)")


async def test_quiet_hours_keep_a_channel_post_from_pinging_at_night(h: Harness) -> None:
    """Regression: bob wants mentions in the channel and quiet hours 22-7; his "your turn"
    DM at 23:00 was held until 07:00, yet the turn post's mention pinged him at 23:00 (a
    channel post's mentions were kept whatever the hour). The post goes, without his ping;
    in the morning it pings him again, and at night not even a challenge does."""
    await started(h)  # Friday 08:00 UTC
    await wants(h, BOB, mention="on", quiet="22-7")
    await h.advance(15 * HOUR)  # 23:00 UTC, bob's time zone
    await h.running.play(HERE, ANN, "c3c4")
    await h.running.end_turn(HERE, ANN)
    await h.settle()
    assert not any(t.startswith("ann (Challenger) ended their turn") for t in dms(h, BOB))
    assert turn_posts(h)[-1][0].startswith("ann (Challenger) ended their turn")
    assert turn_posts(h)[-1][1] == ()
    await h.advance(8 * HOUR)  # 07:00
    await h.running.play(HERE, BOB, "a5a4")
    await h.running.end_turn(HERE, BOB)
    await h.running.play(HERE, ANN, "a3a4")
    await h.running.end_turn(HERE, ANN)
    await h.settle()
    assert turn_posts(h)[-1][1] == (BOB.id,)
    await h.running.resign(HERE, BOB)
    await h.advance(15 * HOUR)  # 22:00
    await h.running.challenge(HERE, ANN, BOB, Terms(game="torishogi"))
    await h.settle()
    assert turn_posts(h)[-1][0].startswith("ann challenges bob") and turn_posts(h)[-1][1] == ()


async def test_a_reminder_held_in_quiet_hours_is_dropped_once_its_turn_was_played(
    h: Harness,
) -> None:
    """ann wants quiet hours 22-7 and a reminder 1 h before her deadline (23:00 here). The
    22:00 reminder is held until 07:00; she plays her turn at 22:30 anyway. At 07:00 she got
    "Reminder: your turn against bob ends in 1 h" of a turn that ended 8 hours before, while
    it is bob's turn: a held reminder whose turn is over is dropped."""
    await wants(h, ANN, quiet="22-7", reminders="h1")
    await h.running.challenge(HERE, ANN, BOB, Terms(game="torishogi", turn_seconds=15 * HOUR))
    await h.running.accept(HERE, BOB)
    await h.settle()  # Friday 08:00 UTC: ann's turn ends at 23:00
    await h.advance(14 * HOUR)  # 22:00: the reminder is held
    await h.advance(30 * 60)  # 22:30
    assert not any(text.startswith("Reminder") for text in dms(h, ANN))
    await h.running.play(HERE, ANN, "c3c4")
    await h.running.end_turn(HERE, ANN)
    await h.settle()
    await h.advance(9 * HOUR)  # 07:30 Saturday: bob's turn runs
    late = [text for text in dms(h, ANN) if text.startswith("Reminder")]
    assert late == [], late


async def test_a_your_turn_dm_held_in_quiet_hours_is_dropped_once_that_turn_was_played(
    h: Harness,
) -> None:
    """bob's "your turn" DM is held by his quiet hours; he plays that turn in them anyway:
    at 07:00 the DM of a turn he has played does not come, while the one of his next turn
    held behind it does."""
    await started(h)  # Friday 08:00 UTC
    await wants(h, BOB, quiet="22-7", reminders="none")
    await h.advance(15 * HOUR)  # 23:00
    await h.running.play(HERE, ANN, "c3c4")
    await h.running.end_turn(HERE, ANN)
    await h.settle()
    await h.advance(HOUR)  # midnight: bob plays his held turn
    await h.running.play(HERE, BOB, "a5a4")
    await h.running.end_turn(HERE, BOB)
    await h.settle()
    await h.running.play(HERE, ANN, "a3a4")
    await h.running.end_turn(HERE, ANN)
    await h.settle()
    await h.advance(7 * HOUR + 30 * 60)  # 07:30
    told = [text for text in dms(h, BOB) if "ended their turn" in text]
    assert len(told) == 1 and "`a3a4`" in told[0], told


async def test_a_daily_digest_in_place_of_the_turn_dms(h: Harness) -> None:
    await wants(h, ANN, digest="9")  # Friday 08:00: the first digest is at 09:00
    await started(h)
    assert not any(text.startswith("Your turn") for text in dms(h, ANN))
    await h.advance(HOUR)
    digest = dms(h, ANN)[-1]
    assert digest.startswith(
        "Your turn in 1 match, the most urgent first:\n- Match 1 · ToriShogi against bob"
    )
    await h.advance(12 * HOUR)
    assert sum(text.startswith("Your turn in") for text in dms(h, ANN)) == 1  # one a day
    await h.advance(12 * HOUR)
    assert sum(text.startswith("Your turn in") for text in dms(h, ANN)) == 2


async def test_the_daily_digest_names_each_matchs_game(h: Harness) -> None:
    """Regression: every other DM about a match is headed "Match 1 · ToriShogi · ann vs
    bob", while the digest (a DM of no one match, so with no heading) said "Match 1 against
    bob" alone: which game each match plays went unsaid."""
    await wants(h, ANN, digest="9")
    await started(h)
    await h.advance(HOUR)
    digest = dms(h, ANN)[-1]
    assert digest.startswith("Your turn in 1 match"), digest
    assert "\n- Match 1 · ToriShogi against bob: due <t:" in digest, digest


async def test_the_daily_digests_read_the_live_matches_once_not_once_a_player(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At a digest hour each player's digest read every live match the bot hosts to find
    theirs: players x matches rows made on the event loop in one tick (a thousand players at
    09:00 and ten thousand matches: ten million), while every channel's commands wait."""
    import storage.hosting.hosted as hosted_rows
    from bot.service import digest
    from bot.service.notify import PREFIX

    for n in range(20):  # 20 matches, 40 players, each with a digest at 09:00
        first, second = User(100 + 2 * n, f"p{n}"), User(101 + 2 * n, f"q{n}")
        await h.running.challenge(Place(1000 + n, 5000 + n), first, second, Terms())
        for player in (first, second):
            await h.store.set_player_setting(player.id, PREFIX + "digest", "9")
    made = calls_counted(monkeypatch, hosted_rows, "hosted_of")
    await digest.send_due(h.running._ctx, h.clock.now() + DAY)
    assert len(made) <= 20 + 40, f"{len(made)} rows made for 40 digests of 20 matches"


async def test_the_daily_digest_of_many_matches_fits_one_message_in_every_language(
    h: Harness,
) -> None:
    """Regression: the digest listed every match waiting, without bound: 40 made a text of
    3,358 characters, more than one Discord message (2,000), sent as several DMs. It lists
    the most urgent (10 at most, fewer where long names and links would not fit) and says
    how many more there are and where to see them, in every language."""
    rival = User(BOB.id, "_" * 32)  # the longest name, each character escaped
    await wants(h, ANN, digest="9")
    for n in range(40):  # match 40 is the most urgent
        place = Place(guild_id=10**18, channel_id=10**18 + n)  # links of 19-digit ids
        terms = Terms(game="torishogi", turn_seconds=14 * DAY - n * HOUR)
        await h.running.challenge(place, ANN, rival, terms)
        await h.running.accept(place, rival)
    await h.settle()
    await h.advance(HOUR)
    digest = dms(h, ANN)[-1]
    assert digest.startswith("Your turn in 40 matches, the most urgent first:\n- Match 40 ·")
    listed = digest.count("\n- Match ")
    assert 1 <= listed <= 10, digest
    assert digest.endswith(f"\n\u2026and {40 - listed} more matches: see `/tora games`")
    for language in LOCALES:
        await h.store.set_player_setting(ANN.id, LANGUAGE, language)
        await h.advance(DAY)
        digest = [d.message for d in h.delivery.user(ANN.id) if d.kind == PRIVATE][-1]
        assert digest.language == language and "\n- " in digest.text
        with speaking(language):  # as shown where ann's DMs are closed
            shown = f"{digest.text}\n\n{_(DM_FALLBACK)}"
        assert len(digest.text) <= LENGTH and len(shown) <= 2000, (language, len(shown))


async def test_a_daily_digest_cut_off_by_a_crash_after_its_claim_still_comes_that_day(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ann takes a daily digest at 09:00 in place of her "your turn" DMs. At 09:00 the bot
    marks the day's digest as sent (``swap_player_setting``), then dies (or loses its
    database) before the digest is queued: the mark was committed alone, so after the
    restart the digest of that day was never sent, and ann heard nothing of her turn for a
    whole day. The claim and the queued digest are one transaction."""
    await h.running.records.set_notify(ANN, "digest", "9")  # Friday 08:00
    await h.running.challenge(HERE, ANN, BOB, Terms(game="torishogi", turn_seconds=10 * HOUR))
    await h.running.accept(HERE, BOB)
    await h.settle()
    assert not any(text.startswith("Your turn") for text in dms(h, ANN))

    from storage.hosting import outbox

    def dies(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the bot died as the digest was queued (simulated)")

    monkeypatch.setattr(outbox, "insert_posts", dies)
    h.clock.advance(HOUR)  # 09:00
    with pytest.raises(RuntimeError):
        await h.running.run_due()
    monkeypatch.undo()
    await h.crash()
    await h.advance(5 * 60)  # 09:05, the bot back up
    assert any(text.startswith("Your turn in 1 match") for text in dms(h, ANN)), dms(h, ANN)


async def test_a_digest_hour_changed_after_that_days_digest_brings_no_second_one(
    h: Harness,
) -> None:
    """Regression: ann's digest came at 09:00; at 10:00 she moved it to 12:00, and at 12:00 a
    second digest came that day (the change marked yesterday's 12:00 as the last sent). The
    next one comes at 12:00 the next day."""
    await wants(h, ANN, digest="9")  # Friday 08:00
    await started(h, turn_seconds=5 * DAY)
    await h.advance(2 * HOUR)  # 10:00: the 09:00 digest came
    assert sum(text.startswith("Your turn in") for text in dms(h, ANN)) == 1
    await wants(h, ANN, digest="12")
    await h.advance(3 * HOUR)  # 13:00
    assert sum(text.startswith("Your turn in") for text in dms(h, ANN)) == 1
    await h.advance(DAY)  # Saturday 13:00
    assert sum(text.startswith("Your turn in") for text in dms(h, ANN)) == 2


def test_a_digest_hour_the_clocks_repeat_at_the_fall_back_brings_one_digest() -> None:
    """New York repeats 01:00-02:00 on 2026-11-01: a digest at 01 comes at its first 01:00
    (05:00 UTC), and the repeated hour (06:00 UTC on) is not a later slot that day."""
    fall_back = dt.datetime(2026, 11, 1, tzinfo=dt.UTC).timestamp()
    slots = {
        last_slot(1, "America/New_York", fall_back + minutes * 60.0)
        for minutes in range(5 * 60, 29 * 60, 10)  # 05:00 UTC to 05:00 UTC the next day
    }
    assert slots == {fall_back + 5 * HOUR}


async def test_a_look_before_a_takeback_does_not_hold_back_the_replayed_turns_reminder(
    h: Harness,
) -> None:
    """A takeback brings a turn number back: bob's look at turn 2 before ann's turn 1 was
    taken back is a look at another game, so turn 2 as replayed still reminds him."""
    await wants(h, BOB, reminders="50,80")
    await started(h, rated=False)
    await h.running.play(HERE, ANN, "c3c4")
    await h.running.end_turn(HERE, ANN)
    await h.running.board(HERE, BOB)  # he looks at turn 2 as it first was
    await h.running.takeback(HERE, ANN)
    await h.running.takeback(HERE, BOB)
    await h.running.play(HERE, ANN, "a3a4")  # turn 1 again, another move
    await h.running.end_turn(HERE, ANN)
    await h.settle()
    await h.advance(8 * HOUR)  # past 50 % and 80 % of his turn 2 as replayed
    assert any(text.startswith("Reminder: your turn against ann") for text in dms(h, BOB))


async def test_reminders_turned_off_during_a_turn_send_none_for_that_turn(h: Harness) -> None:
    """ann picks "no reminders" two hours into her turn: the 80 % reminder scheduled when
    it began is not sent (the choice is read again when it comes)."""
    await started(h)
    await h.advance(2 * HOUR)
    await wants(h, ANN, reminders="none")
    await h.advance(7 * HOUR)  # past 80 % of her turn
    assert not any(text.startswith("Reminder") for text in dms(h, ANN))


async def test_reminders_changed_during_a_turn_come_at_the_new_choice(h: Harness) -> None:
    """A reminder scheduled at 80 % when the turn began, then the choice changed to 1 h
    before the deadline: the 80 % one is not sent, the 1 h one is."""
    await started(h)
    await wants(h, ANN, reminders="h1")
    await h.advance(8.5 * HOUR)  # past 80 % of her turn
    assert not any(text.startswith("Reminder") for text in dms(h, ANN))
    await h.advance(HOUR / 2)  # 1 h before her deadline
    assert dms(h, ANN)[-1].startswith("Reminder: your turn against bob (Opposition) ends in 1 h")


async def test_a_look_in_a_missed_torishogi_turn_does_not_silence_the_next_deadlines_reminder(
    h: Harness,
) -> None:
    """ToriShogi cannot pass a turn: a missed deadline starts ann's clock again on the same
    turn number. Her look before that deadline says nothing of the next one: its reminder
    comes."""
    await started(h)
    await h.running.board(HERE, ANN)  # she looked at her first turn
    await h.advance(10 * HOUR)  # missed: her clock starts again, 10 h
    assert "missed turns in a row: 1" in h.delivery.texts(HERE.channel_id)[-1]
    await h.crash()  # the look is forgotten in the store too
    await h.advance(8 * HOUR)  # 80 % of the new deadline
    assert any(text.startswith("Reminder") for text in dms(h, ANN))


async def test_the_setup_reminder_is_not_sent_to_a_player_who_wants_no_reminders(
    h: Harness,
) -> None:
    await wants(h, ANN, reminders="none")
    await h.running.challenge(HERE, ANN, BOB, Terms(turn_seconds=10 * HOUR))
    await h.running.accept(HERE, BOB)
    await h.advance(8 * HOUR)  # 80 % of the setup's time, neither has chosen
    assert not any("choose your setup" in text for text in dms(h, ANN))
    assert any(text.startswith("Reminder: choose your setup") for text in dms(h, BOB))


async def test_a_missed_torishogi_turn_whose_clock_starts_again_sends_its_player_a_your_turn_dm(
    h: Harness,
) -> None:
    """Regression: ToriShogi cannot pass, so at a deadline with no move ann's clock starts
    again on the same turn. Its post is a turn's (its mention of ann dropped by default), yet
    no "your turn" DM went beside it: with the default notifications ann was told nothing of
    her new deadline. She gets the DM, saying why, with her board and the turn's buttons."""
    await started(h)
    await h.advance(10 * HOUR)  # ann plays nothing: her turn is missed, her clock restarts
    post = h.delivery.channel(HERE.channel_id)[-1]
    assert "Their clock starts again" in post.text and ANN.id not in post.mentions
    told = [d.message for d in h.delivery.user(ANN.id) if d.kind == PRIVATE][-1]
    assert told.text.startswith("ann's turn passed its deadline"), told.text
    assert "Your turn against bob (Opposition): a move, by" in told.text
    assert told.buttons is not None and "play" in told.buttons.verbs and told.files


async def test_the_opponent_resuming_a_paused_match_sends_the_player_to_act_a_your_turn_dm(
    h: Harness,
) -> None:
    """Regression: a pause was agreed in ann's turn and bob resumed the match. Its post is a
    turn's (its mention of ann dropped by default), yet no DM went beside it: with the
    default notifications ann never heard that her clock ran again. She gets the "your turn"
    DM with her new deadline; resuming it herself, she is told nothing more."""
    await started(h)
    for user in (ANN, BOB):
        await h.running.pause(HERE, user)  # agreed: the clock stops
    await h.settle()
    before = len(dms(h, ANN))
    await h.running.resume(HERE, BOB)
    await h.settle()
    assert "resumed the match" in h.delivery.texts(HERE.channel_id)[-1]
    [told] = dms(h, ANN)[before:]
    assert told.startswith("bob (Opposition) resumed the match: ann's turn goes on"), told
    assert "Your turn against bob (Opposition): a move, by" in told
    for user in (ANN, BOB):
        await h.running.pause(HERE, user)
    await h.settle()
    before = len(dms(h, ANN))
    await h.running.resume(HERE, ANN)
    await h.settle()
    assert dms(h, ANN)[before:] == []


async def test_a_player_whose_dms_are_closed_is_pinged_by_the_turn_posts_mention(
    h: Harness,
) -> None:
    """Regression: bob's DMs are closed to the bot. By default a turn pings by its DM, not
    by the post's mention, so bob was never pinged: the post's mention of him was dropped,
    and the DM's fallback (a message in the channel to him alone) pings nobody. Once a DM
    was refused, the turn posts mention him in its place; once one reaches him again, they
    no longer do."""
    h.delivery.closed_dms.add(BOB.id)
    await started(h)
    moves = ((ANN, "c3c4"), (BOB, "c5c4"), (ANN, "a3a4"), (BOB, "a5a4"))
    moves += ((ANN, "g3g4"), (BOB, "g5g4"), (ANN, "c1c2"))
    for number, (user, move) in enumerate(moves, 1):
        if number == 4:
            h.delivery.closed_dms.clear()  # bob opens his DMs: the next one reaches him
        await h.running.play(HERE, user, move)
        await h.running.end_turn(HERE, user)
        await h.settle()
        if number == 3:
            assert not [d for d in h.delivery.user(BOB.id) if d.kind == PRIVATE]
            post = h.delivery.channel(HERE.channel_id)[-1]
            assert "bob (Opposition) to act" in post.text and BOB.id in post.mentions
    post = h.delivery.channel(HERE.channel_id)[-1]
    assert "bob (Opposition) to act" in post.text and post.mentions == (), post.text


async def test_the_setup_post_tells_a_player_whose_dms_are_closed_where_to_choose(
    h: Harness,
) -> None:
    """bob's DMs were known closed to the bot, yet the accept post told both "I have sent
    each of you a private message": bob waited for a DM that never came. The post now says
    whom the bot wrote to, and tells bob to choose with the setup command here."""
    await h.store.set_player_setting(BOB.id, DMS_CLOSED, "on")
    await started(h, game="tora")
    post = next(text for text, _ in turn_posts(h) if "choose their setup" in text)
    assert "each of you" not in post, post
    assert "I have sent ann a private message" in post, post
    assert "bob, your direct messages are closed to me" in post, post
    assert "`/tora setup`" in post, post
