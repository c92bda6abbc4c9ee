"""End to end, the correspondence comforts (issue 27): a bank clock chosen with the
challenge's options, each player's time on the turn posts and in ``/tora games``, the turn
post's "Give +1 day" pressed by the waiting player, the end post's Rematch, which makes a
challenge with the colours swapped and then greys out; a takeback asked with the button of
an ended turn and accepted with the proposal's; a reply planned with the Play panel's menus
after its End turn (and ``/tora play`` while the opponent's turn runs opening the plan
panel), played the moment the opponent's turn matches, with one DM to its planner."""

from __future__ import annotations

from pathlib import Path

import pytest

import bot.discord.sweeper as sweeper
from bot.app import menus
from bot.service.clock import ManualClock
from emulator import Msg
from emulator.models import walk_components
from harness.stage import Stage
from rules.torishogi import ToriShogiGame


def newest(stage: Stage, needle: str) -> Msg:
    return next(m for m in reversed(stage.emu.messages(stage.channel)) if needle in m.text())


def live(message: Msg) -> bool:
    buttons = [b for b in message.buttons() if "url" not in b]
    return bool(buttons) and not any(b.get("disabled") for b in buttons)


async def test_a_bank_clock_a_gift_of_time_and_a_rematch(tmp_path: Path) -> None:
    async with Stage(tmp_path) as stage:
        await stage.slash(
            "ann", "challenge", opponent="bob", game="torishogi", deadline="2d", clock="bank",
            bank="5d",
        )  # fmt: skip
        await stage.posted("2 days per turn and a bank of 5 days each")
        await stage.click("bob", "Accept")
        begun = await stage.posted("The game begins")
        assert "Time left: ann 7 days (bank 5 days), running \u00b7 bob 7 days" in begun
        games = await stage.slash("bob", "games")
        assert "you 7 days (bank 5 days), they 7 days (bank 5 days), running" in games.text
        await stage.slash("ann", "act", action="c3c4")
        await stage.slash("ann", "end")
        turn = await stage.posted("ann (Challenger) ended their turn")
        assert "bob 7 days (bank 5 days), running" in turn
        await stage.quiet()
        gift = newest(stage, "ann (Challenger) ended their turn")
        assert [b["label"] for b in gift.buttons() if "url" not in b] == ["Give +1 day"]
        given = await stage.click("ann", "Give +1 day")
        assert given.error is None and given.text == "You gave bob 1 day.", given.text
        await stage.posted("ann (Challenger) gave bob 1 day: their turn now ends")
        refused = await stage.click("bob", "Give +1 day")  # on his own turn's post
        assert "Your turn is running" not in refused.text  # a bank: ann's next turn grows
        await stage.posted("bob (Opposition) gave ann 1 day: their next turn lasts 8 days")
        await stage.slash("bob", "resign")
        await stage.click("bob", "Resign")
        end = await stage.posted("bob (Opposition) resigns")
        assert "ask for a rematch with the button (colours swapped)" in end
        await stage.quiet()
        ended = newest(stage, "bob (Opposition) resigns")
        assert live(ended)  # the Rematch holds after the end
        asked = await stage.click("bob", "Rematch")
        assert asked.error is None and asked.text.startswith("Your challenge is posted"), asked.text
        challenge = await stage.posted("bob challenges ann to a match of ToriShogi")
        assert "2 days per turn and a bank of 5 days each" in challenge
        assert "the challenged player moves first" not in challenge  # bob played second
        await stage.quiet()
        assert not live(newest(stage, "bob (Opposition) resigns"))
        await stage.click("ann", "Accept")
        begun = await stage.posted("The game begins: bob (Challenger)")
        assert "bob (Challenger) to act" in begun


async def test_a_takeback_asked_and_accepted_with_buttons(tmp_path: Path) -> None:
    async with Stage(tmp_path) as stage:
        await stage.slash("ann", "challenge", opponent="bob", game="torishogi", rated=False)
        await stage.click("bob", "Accept")
        await stage.posted("The game begins")
        await stage.slash("ann", "act", action="c3c4")
        ended = await stage.slash("ann", "end")
        assert "Changed your mind?" in ended.text, ended.text
        asked = await stage.click("ann", "Ask to take it back")
        assert asked.error is None, asked.text
        await stage.posted("ann (Challenger) proposes a takeback of their last turn")
        await stage.quiet()
        accepted = await stage.click("bob", "Accept the takeback")
        assert accepted.text == "You accepted the takeback: turn 1 is played again.", accepted.text
        post = await stage.posted("turn 1 is taken back and played again")
        assert "ann (Challenger) to act" in post
        await stage.quiet()
        offer = newest(stage, "proposes a takeback")
        assert not live(offer)
        await stage.slash("ann", "act", action="a3a4")
        await stage.slash("ann", "end")
        await stage.posted("ann's Swallow")


async def test_the_panels_end_turn_in_a_casual_match_offers_ask_to_take_it_back(
    tmp_path: Path,
) -> None:
    """End turn on the Play panel of a casual match leaves the button its text names, as
    ``/tora end`` does, and it asks for the takeback. Regression: the panel read "Ask bob to
    let you take it back with the button" but kept only Plan a reply."""
    async with Stage(tmp_path) as stage:
        await stage.slash("ann", "challenge", opponent="bob", rated=False)
        await stage.click("bob", "Accept")
        await stage.slash("ann", "setup", strategy="aggressive")
        await stage.slash("bob", "setup", strategy="defensive")
        await stage.posted("The game begins")
        panel = (await stage.open_panel("ann")).messages[0]
        await stage.pick("ann", "G v5h9-v4h9", ("", "Gv5h9", None))
        ended = await stage.click("ann", "End turn")
        await stage.quiet()
        assert ended.error is None
        assert "take it back with the button" in panel.text()
        labels = [b.get("label") for b in panel.buttons()]
        assert labels == ["Ask to take it back", "Plan a reply"], labels
        asked = await stage.click("ann", "Ask to take it back")
        assert asked.error is None, asked.text
        await stage.posted("ann (Challenger) proposes a takeback of their last turn")


async def test_a_panel_from_before_a_takeback_is_stale_on_the_replayed_turn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """bob's panel for turn 2 is older than an interaction token lives (TOKEN_AGE 0: the bot
    can no longer edit it away). ann's turn 1 is taken back and played otherwise: turn 2
    again. A pick in bob's old panel stages nothing: it is stale, and as it is his turn the
    panel shows it as it is now, saying the menu was for an earlier turn. Regression: its
    stamp (match, turn) matched again, and it staged his pick on the new position without a
    word."""
    monkeypatch.setattr(sweeper, "TOKEN_AGE", 0.0)
    async with Stage(tmp_path) as stage:
        await stage.slash("ann", "challenge", opponent="bob", rated=False)
        await stage.click("bob", "Accept")
        await stage.slash("ann", "setup", strategy="aggressive")
        await stage.slash("bob", "setup", strategy="defensive")
        await stage.posted("The game begins")
        bob = stage.user["bob"]
        await stage.slash("ann", "act", action="G v5h9-v4h9")
        await stage.slash("ann", "end")
        old = (await stage.open_panel("bob")).messages[0]
        first = _selects(old)[0]
        soldier = next(o["value"] for o in first["options"] if "v4h2" in o["value"])
        await (await stage.emu.select(bob, old.id, first["custom_id"], [soldier])).done(30)
        actions = _selects(old)[-1]
        value = actions["options"][0]["value"]
        await stage.slash("ann", "match", "takeback")
        await stage.slash("bob", "match", "takeback")
        await stage.slash("ann", "act", action="G v5h9-v6h9")
        await stage.slash("ann", "end")
        await stage.quiet()
        assert value in {o["value"] for o in _selects(old)[-1]["options"]}  # shown as it was
        pick = await (await stage.emu.select(bob, old.id, actions["custom_id"], [value])).done(30)
        await stage.quiet()
        told = " ".join([pick.text or "", *(m.text() for m in pick.followups), old.text()])
        assert "was for an earlier turn, so nothing was done" in told, told
        board = await stage.slash("bob", "board")
        assert "Staged this turn" not in board.text, board.text


def _selects(msg: Msg) -> list[dict]:
    return [c for c in walk_components(msg.components) if c.get("type") == 3]


async def test_away_days_taken_by_command_and_ended_with_the_button(tmp_path: Path) -> None:
    async with Stage(tmp_path, ("ann", "bob", "admin")) as stage:
        settings = await stage.slash("ann", "settings", timezone="Europe/Paris")
        assert "time zone `Europe/Paris`" in settings.text, settings.text
        wrong = await stage.slash("ann", "settings", timezone="Mars/Olympus")
        assert "is not a time zone I know" in wrong.text, wrong.text
        admin = await stage.slash("admin", "admin", "settings", away_days=10)
        assert "Away days a year for each player: 10" in admin.text, admin.text
        await stage.slash("ann", "challenge", opponent="bob", game="torishogi", weekends="off")
        await stage.posted("weekends off")
        await stage.click("bob", "Accept")
        await stage.posted("The game begins")
        away = await stage.slash("ann", "away", days=3)
        assert "(3 days; 7 of 10 left this year)" in away.text, away.text
        post = await stage.posted("ann (Challenger) is away from")
        assert "they are back <t:" in post
        games = await stage.slash("bob", "games")
        assert "ann away until <t:" in games.text, games.text
        back = await stage.click("ann", "I am back")
        assert back.text == "Welcome back: 2 days given back (9 of 10 left this year).", back.text
        await stage.posted("ann (Challenger) is back early")
        dm = stage.emu.dm_channel(stage.user["ann"])
        in_dm = await stage.slash("ann", "away", days=1, channel=dm)
        assert "the Away for a day button on a reminder" in in_dm.text, in_dm.text


def settings_form(stage: Stage, name: str) -> Msg:
    """The newest settings form ``name`` sees in the channel."""
    user = stage.user[name]
    for message in reversed(stage.emu.messages(stage.channel)):
        ids = [str(c.get("custom_id", "")) for c in walk_components(message.components)]
        if message.ephemeral_to == user and any(i.startswith("tora:ns:me:") for i in ids):
            return message
    raise LookupError(f"no settings form for {name}")


async def pick(stage: Stage, name: str, key: str, value: str) -> None:
    """Pick ``value`` in the ``key`` menu of ``name``'s settings form."""
    form = settings_form(stage, name)
    done = await stage.emu.select(stage.user[name], form.id, f"tora:ns:me:{key}", [value])
    answered = await done.done(30)
    assert not answered.errors, answered.errors


def dm_texts(stage: Stage, name: str) -> list[str]:
    return [m.text() for m in stage.emu.dms(stage.user[name])]


async def test_notifications_set_with_the_settings_form(tmp_path: Path) -> None:
    clock = ManualClock()  # Friday 15 January 2027, 08:00 UTC
    async with Stage(tmp_path, clock=clock) as stage:
        shown = await stage.slash("bob", "settings")
        assert shown.text.startswith("Your notifications: DM on my turn; no mention"), shown.text
        pressed = await stage.click("bob", "Mention me on my turn: off")
        assert not pressed.errors, pressed.errors
        await pick(stage, "bob", "digest", "9")
        assert "a daily digest at 09:00" in settings_form(stage, "bob").text()
        await stage.slash("ann", "settings")
        await pick(stage, "ann", "quiet", "22-7")
        assert "quiet 22:00-07:00 (no pings; DMs wait)" in settings_form(stage, "ann").text()
        await stage.slash("ann", "challenge", opponent="bob", game="torishogi", deadline="1d")
        await stage.click("bob", "Accept")
        begun = await stage.posted("The game begins")
        await stage.quiet()
        assert f"user:{stage.user['ann']}" not in newest(stage, "The game begins").pinged
        assert any("Your turn against bob" in text for text in dm_texts(stage, "ann"))
        await stage.slash("ann", "act", action="c3c4")
        await stage.slash("ann", "end")
        await stage.posted("ann (Challenger) ended their turn")
        await stage.quiet()
        assert (
            f"user:{stage.user['bob']}" in newest(stage, "ann (Challenger) ended their turn").pinged
        )
        assert not any("ended their turn" in text for text in dm_texts(stage, "bob"))  # digest
        clock.advance(3600)  # 09:00: bob's digest
        await stage.emu.wait_until(
            lambda: any("Your turn in 1 match" in t for t in dm_texts(stage, "bob")),
            30,
            "bob's digest",
        )
        clock.advance(14 * 3600)  # 23:00: ann is in her quiet hours
        await stage.slash("bob", "act", action="a5a4")
        await stage.slash("bob", "end")
        await stage.posted("bob (Opposition) ended their turn")
        assert not any("bob (Opposition) ended their turn" in t for t in dm_texts(stage, "ann"))
        clock.advance(8.5 * 3600)  # 07:30: held until 07:00, now it goes
        await stage.emu.wait_until(
            lambda: any("bob (Opposition) ended their turn" in t for t in dm_texts(stage, "ann")),
            30,
            "ann's held DM",
        )
        digests = [t for t in dm_texts(stage, "bob") if "Your turn in" in t]
        assert len(digests) == 1
        assert begun


async def test_the_server_defaults_form_shows_only_what_admins_set(tmp_path: Path) -> None:
    """Regression: the server's form listed "no daily digest" among its defaults, though a
    digest is each player's own: the form has no menu for it, and no server default is
    read."""
    async with Stage(tmp_path, ("ann", "bob", "admin")) as stage:
        shown = await stage.slash("admin", "settings", server=True)
        assert shown.text.startswith("This server's default notifications: DM on my turn;")
        assert "digest" not in shown.text, shown.text


async def test_mention_me_is_about_the_turn_and_a_gift_of_time_pings(tmp_path: Path) -> None:
    """Bob's settings say what "Mention me" governs ("no mention on my turn", the default:
    his turn's DM pings him); ann's "Give +1 day", news he gets no DM of, pings him on
    Discord (its allowed mentions name him)."""
    async with Stage(tmp_path) as stage:
        shown = await stage.slash("bob", "settings")
        assert "no mention on my turn" in shown.text, shown.text
        await stage.slash("ann", "challenge", opponent="bob", game="torishogi", deadline="2d")
        await stage.click("bob", "Accept")
        await stage.posted("The game begins")
        await stage.slash("ann", "act", action="c3c4")
        await stage.slash("ann", "end")
        await stage.posted("ann (Challenger) ended their turn")
        await stage.quiet()
        turn = newest(stage, "ended their turn")
        assert f"user:{stage.user['bob']}" not in turn.pinged, turn.pinged
        given = await stage.click("ann", "Give +1 day")
        assert given.error is None, given.text
        await stage.posted("ann (Challenger) gave bob 1 day")
        await stage.quiet()
        post = newest(stage, "gave bob")
        assert f"user:{stage.user['bob']}" in post.pinged, post.pinged


async def test_a_planned_reply_is_played_the_moment_the_opponent_ends_their_turn(
    tmp_path: Path,
) -> None:
    async with Stage(tmp_path) as stage:
        await stage.slash("ann", "challenge", opponent="bob", game="torishogi")
        await stage.click("bob", "Accept")
        await stage.posted("The game begins")
        await stage.slash("ann", "act", action="c3c4")
        await stage.slash("ann", "end")
        await stage.posted("ann (Challenger) ended their turn")
        planned = await stage.slash("ann", "plans", add="c5c4 > a3a4")
        assert planned.text.endswith("1. if bob plays c5c4, you play a3a4"), planned.text
        await stage.slash("bob", "act", action="c5c4")
        await stage.slash("bob", "end")
        await stage.posted("bob (Opposition) ended their turn")
        reply = await stage.posted("`a3a4`")
        assert reply.startswith("-# Match 1") and "ann (Challenger) ended their turn" in reply
        await stage.quiet()
        told = [m.text() for m in stage.emu.dms(stage.user["ann"])]
        assert any("your planned reply a3a4 was played" in text for text in told)


async def test_the_servers_clock_for_new_challenges(tmp_path: Path) -> None:
    async with Stage(tmp_path, ("ann", "bob", "admin")) as stage:
        chosen = await stage.slash("admin", "admin", "settings", clock="bank", bank="5d")
        expected = "Clock of new challenges and ladder matches: 1 day per turn and a bank of 5"
        assert expected in chosen.text, chosen.text
        await stage.slash("ann", "challenge", opponent="bob", game="torishogi")
        await stage.posted("1 day per turn and a bank of 5 days each")


async def test_a_servers_clock_times_change_without_naming_its_clock_again(
    tmp_path: Path,
) -> None:
    """``bank``, ``increment`` and ``cap`` alone change the server's clock's own times (as
    they do a challenge's), its clock named again keeps those not typed, and a time of
    another clock is refused naming it."""
    async with Stage(tmp_path, ("ann", "admin")) as stage:
        wrong = await stage.slash("admin", "admin", "settings", bank="10d")
        assert "add `clock:bank`" in wrong.text, wrong.text
        first = await stage.slash("admin", "admin", "settings", clock="bank")
        assert "bank of 7 days" in first.text, first.text
        again = await stage.slash("admin", "admin", "settings", bank="10d")
        assert "bank of 10 days" in again.text, again.text
        named = await stage.slash("admin", "admin", "settings", clock="bank", deadline="2d")
        assert "2 days per turn and a bank of 10 days" in named.text, named.text


async def test_a_clock_time_of_nothing_is_refused_not_made_the_default(tmp_path: Path) -> None:
    """`bank:0s` was taken for a bank left out: the challenge was posted with a bank of 7
    days, and the server's settings said "Saved." keeping the old bank."""
    async with Stage(tmp_path, ("carl", "admin")) as stage:
        done = await stage.slash("carl", "challenge", clock="bank", bank="0s")
        await stage.quiet()
        posted = "\n".join(m.text() for m in stage.emu.messages(stage.channel))
        assert "a bank of 7 days" not in posted, posted
        assert "`bank:0s` gives the clock no time" in done.text, done.text
        for typed in ({"clock": "bank", "bank": "0s"}, {"clock": "increment", "increment": "0m"}):
            kept = await stage.slash("admin", "admin", "settings", **typed)
            assert "gives the clock no time" in kept.text, kept.text


def route(game: ToriShogiGame, notation: str) -> tuple[str, str, str | None]:
    group = next(c.group for c in game.choices() if c.notation == notation)
    return menus.route(game.menu(), game.choices(group), notation)


async def test_a_reply_planned_with_the_play_panel_after_ending_a_turn(tmp_path: Path) -> None:
    async with Stage(tmp_path) as stage:
        await stage.slash("ann", "challenge", opponent="bob", game="torishogi")
        await stage.click("bob", "Accept")
        await stage.posted("The game begins")
        mirror = ToriShogiGame()
        await stage.open_panel("ann")
        await stage.pick("ann", "c3c4", route(mirror, "c3c4"))
        ended = await stage.click("ann", "End turn")
        assert ended.text == "**Match 1 · ToriShogi against bob**\nYour turn is over.", ended.text
        mirror.apply("c3c4")
        mirror.end_turn()
        opened = await stage.click("ann", "Plan a reply")  # the ended panel's button
        assert "Pick the move you expect bob to play" in opened.text, opened.text
        await stage.pick("ann", "c5c4", route(mirror, "c5c4"))
        mirror.apply("c5c4")
        mirror.end_turn()
        await stage.pick("ann", "a3a4", route(mirror, "a3a4"))
        saved = await stage.click("ann", "Save the plan")
        assert "Plan 1 saved." in saved.text, saved.text
        assert "1. if bob plays c5c4, you play a3a4" in saved.text, saved.text
        await stage.quiet()
        before = len(dm_texts(stage, "ann"))
        waiting = await stage.slash("bob", "play")  # bob's own turn: the Play panel
        assert waiting.text.startswith("**Your turn**"), waiting.text
        await stage.slash("bob", "act", action="c5c4")
        await stage.slash("bob", "end")
        post = await stage.posted("`a3a4`")  # played the moment bob's turn ended
        assert post.startswith("-# Match 1 · ToriShogi · ann vs bob\nann (Challenger) ended")
        await stage.quiet()
        [told] = dm_texts(stage, "ann")[before:]  # one DM, no "your turn" before it
        assert told.endswith("\nbob played c5c4: your planned reply a3a4 was played. 0 plans left.")
        await stage.slash("bob", "act", action="b5b4")  # bob's turn again: ann's was planned
        await stage.slash("bob", "end")
        waiting = await stage.slash("bob", "play")  # ann's turn: bob may plan his reply
        assert waiting.text.startswith("It is ann's turn. Yours begins when"), waiting.text
        assert "**Plan a reply · Match 1 · ToriShogi against ann**" in waiting.text, waiting.text


async def test_the_plan_panel_cancels_a_saved_plan_and_can_be_closed(tmp_path: Path) -> None:
    """The plan panel listed ann's saved plans but offered no way to cancel one (only
    `/tora plans cancel:`), and nothing to leave it by: its menu of plans cancels one, and
    Close leaves the panel, with no component left on it."""
    async with Stage(tmp_path) as stage:
        await stage.slash("ann", "challenge", opponent="bob", game="torishogi")
        await stage.click("bob", "Accept")
        await stage.posted("The game begins")
        await stage.slash("ann", "act", action="c3c4")
        await stage.slash("ann", "end")
        await stage.slash("ann", "plans", add="c5c4 > a3a4")
        await stage.slash("ann", "plans", add="b5b4 > a3a4")
        await stage.slash("ann", "play")  # bob's turn: the plan panel
        first = "1. if bob plays c5c4, you play a3a4"
        cancelled = await stage.choose("ann", "Cancel a plan", first)
        assert "Plan 1 cancelled." in cancelled.text, cancelled.text
        assert "Your plans: 1. if bob plays b5b4, you play a3a4" in cancelled.text, cancelled.text
        closed = await stage.click("ann", "Close")
        assert closed.text.startswith("The plan panel is closed."), closed.text
        with pytest.raises(LookupError):  # nothing left on it to press or pick
            stage._panel_of(stage.channel, stage.user["ann"])
        listed = await stage.slash("ann", "plans")
        assert listed.text.endswith("1. if bob plays b5b4, you play a3a4"), listed.text


async def test_a_plan_panels_menu_cancels_the_plan_picked_after_another_was_cancelled(
    tmp_path: Path,
) -> None:
    """ann's plan panel listed 3 plans; she cancelled plan 1 with `/tora plans`, then picked
    "2. if bob plays b5b4" in the panel's menu, shown before: it cancelled the plan now
    numbered 2 (e5e4), keeping the one she picked. The menu cancels the plan it showed, and
    one cancelled since is said to be gone."""
    async with Stage(tmp_path) as stage:
        await stage.slash("ann", "challenge", opponent="bob", game="torishogi")
        await stage.click("bob", "Accept")
        await stage.posted("The game begins")
        await stage.slash("ann", "act", action="c3c4")
        await stage.slash("ann", "end")
        for move in ("c5c4", "b5b4", "e5e4"):
            await stage.slash("ann", "plans", add=f"{move} > a3a4")
        await stage.slash("ann", "play")  # bob's turn: the plan panel
        await stage.slash("ann", "plans", cancel="1")
        picked = await stage.choose("ann", "Cancel a plan", "2. if bob plays b5b4, you play a3a4")
        assert "Your plans: 1. if bob plays e5e4, you play a3a4" in picked.text, picked.text
        listed = await stage.slash("ann", "plans")
        assert listed.text.endswith("\n1. if bob plays e5e4, you play a3a4"), listed.text
        await stage.slash("ann", "plans", cancel="1")
        gone = await stage.choose("ann", "Cancel a plan", "1. if bob plays e5e4, you play a3a4")
        assert "That plan is no longer saved, so nothing was cancelled." in gone.text, gone.text


async def test_an_old_end_posts_rematch_turns_off_once_another_match_starts_in_the_channel(
    tmp_path: Path,
) -> None:
    """Regression: bob resigned match 1; carl then challenged ann in the same channel, but
    match 1's end post kept its Rematch live (the buttons of a match were only looked at
    after a message about that match). A Rematch holds while its match is the channel's
    latest: a new match there turns it off."""
    async with Stage(tmp_path, ("ann", "bob", "carl")) as stage:
        await stage.slash("ann", "challenge", opponent="bob", game="torishogi")
        await stage.click("bob", "Accept")
        await stage.posted("The game begins")
        await stage.slash("bob", "resign")
        await stage.click("bob", "Resign")
        await stage.posted("bob (Opposition) resigns")
        await stage.quiet()
        assert live(newest(stage, "bob (Opposition) resigns"))
        await stage.slash("carl", "challenge", opponent="ann", game="torishogi")
        await stage.posted("carl challenges ann")
        await stage.quiet()
        assert not live(newest(stage, "bob (Opposition) resigns"))
