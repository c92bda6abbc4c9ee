"""End to end against the local Discord emulator: a ToriShogi Swiss of six with one
withdrawal and one late entry (Join and Leave buttons on the announcement, each disabled
once it stops applying), and a Torii round robin of four; the pairings by DM and one channel
post a round, standings images (saved to the temporary directory to be looked at)."""

from __future__ import annotations

import asyncio
import os
import re
from pathlib import Path

from emulator import Interaction
from emulator.models import ChannelType
from harness.stage import Stage
from storage.competitions.events import EventSnapshot, PairingRow

PLAYERS = ("p1", "p2", "p3", "p4", "p5", "p6", "p7", "admin")
PNG_DIR = Path(os.environ.get("TORA_STANDINGS_PNG", "/tmp"))
MESSAGE = 2000  # characters of one message's content, for a bot


async def snapshot(stage: Stage, name: str) -> EventSnapshot:
    assert stage.bot is not None
    store = stage.bot.store
    event = await store.events.named(stage.guild, name)
    assert event is not None
    return await store.events.snapshot(event.id)


async def announcement_buttons(stage: Stage, enabled: dict[str, bool]) -> None:
    """Wait until the event's announcement shows its Join and Leave buttons ``enabled``
    (a button that stopped applying is disabled: no dead button)."""

    def shown() -> bool | None:
        [post] = [
            m for m in stage.emu.public_messages(stage.channel) if "is open for entries" in m.text()
        ]
        now = {b["label"]: not b.get("disabled") for b in post.buttons()}
        return now == enabled or None

    await stage.emu.wait_until(shown, 30, f"the announcement's buttons {enabled}")


async def play_round(stage: Stage, name: str, round_: int, setup: dict | None = None) -> None:
    """Every undecided board of ``round_``: the higher id resigns (after the setup)."""
    ids = {v: k for k, v in stage.user.items()}
    await stage.quiet()
    snap = await snapshot(stage, name)
    for row in snap.pairings:
        if row.round != round_ or row.outcome is not None or row.second_id is None:
            continue
        thread = row.thread_id
        assert thread is not None and row.hosted_id is not None
        await stage.posted(f"round {round_}, board {row.board}", channel=thread)
        first, second = ids[row.first_id], ids[row.second_id]
        if setup is not None:
            for who in (first, second):
                answered = await stage.slash(who, "setup", channel=thread, **setup)
                assert answered.error is None, answered.text
        loser = max(first, second, key=lambda n: stage.user[n])
        asked = await stage.slash(loser, "resign", channel=thread)
        assert asked.text.startswith("Resign match"), asked.text
        confirmed = await stage.click(loser, "Resign", channel=thread)
        assert confirmed.error is None, confirmed.text
    await stage.quiet()


async def channel_boards(stage: Stage) -> list[PairingRow]:
    """Shrine's boards played in the event's channel itself (no thread)."""
    return [r for r in (await snapshot(stage, "Shrine")).pairings if r.thread_id == stage.channel]


async def standings_png(stage: Stage, name: str, file: str) -> bytes:
    shown = await stage.slash("p1", "tournament standings", name=name)
    assert shown.error is None and shown.files, shown.text
    [png] = shown.files
    assert png.name == "standings.png" and png.data.startswith(b"\x89PNG")
    (PNG_DIR / file).write_bytes(png.data)
    return png.data


async def test_a_torishogi_swiss_of_six_with_a_withdrawal_and_a_late_entry(
    tmp_path: Path,
) -> None:
    async with Stage(tmp_path, PLAYERS) as stage:
        created = await stage.slash(
            "admin", "tournament create", name="Spring", format="swiss", game="torishogi",
            rounds=3, deadline="1d", round_deadline="5d",
        )  # fmt: skip
        assert created.error is None and not created.ephemeral, created.text
        assert "**Spring** (ToriShogi Swiss) is open for entries: 3 rounds" in created.text
        for name in ("p1", "p2", "p3", "p4", "p5"):
            joined = await stage.click(name, "Join")
            assert joined.ephemeral and "You are in **Spring**" in joined.text, joined.text
        typed = await stage.slash("p6", "tournament register", name="Spring")
        assert "You are in **Spring**" in typed.text
        refused = await stage.slash("p1", "tournament start", name="Spring")
        assert "Only the organiser or a server admin" in refused.text
        started = await stage.slash("admin", "tournament start", name="Spring")
        assert started.error is None and "started with 6 players" in started.text
        await stage.posted("__Round 1 of 3__")
        # during round 1: p6 leaves by the button (their game is lost by forfeit), p7 enters
        # late by the button, paired from round 2
        left = await stage.click("p6", "Leave")
        assert "your 1 game not yet decided is lost by forfeit" in left.text, left.text
        late = await stage.click("p7", "Join")
        assert "late entry" in late.text and "round 2" in late.text, late.text
        await play_round(stage, "Spring", 1)
        snap = await snapshot(stage, "Spring")
        assert snap.event.round == 2
        seated = {x for p in snap.pairings if p.round == 2 for x in (p.first_id, p.second_id)}
        assert stage.user["p6"] not in seated and stage.user["p7"] in seated
        await announcement_buttons(stage, {"Join": True, "Leave": True})  # a late entry
        await play_round(stage, "Spring", 2)
        await stage.posted("__Round 3 of 3__")  # the last round: no more late entries
        await announcement_buttons(stage, {"Join": False, "Leave": True})
        await play_round(stage, "Spring", 3)
        await stage.posted("**Spring** (ToriShogi Swiss) is over")
        await announcement_buttons(stage, {"Join": False, "Leave": False})
        posts = [m.text() for m in stage.emu.public_messages(stage.channel)]
        assert [sum(f"__Round {n} of 3__" in t for t in posts) for n in (1, 2, 3)] == [1, 1, 1]
        for name in ("p1", "p7"):  # each paired player is told privately, with the thread
            dms = [m.text() for m in stage.emu.dms(stage.user[name])]
            assert any("**Spring** (ToriShogi Swiss), round" in t and "<#" in t for t in dms)
        pairings = await stage.slash("p2", "tournament pairings", name="Spring", round=2)
        assert "round 2" in pairings.text
        assert "1-0" in pairings.text or "0-1" in pairings.text
        await standings_png(stage, "Spring", "swiss-standings.png")
        text = (await stage.slash("p2", "tournament standings", name="Spring")).text
        assert "BuchC1" in text and "p6 (withdrawn)" not in text  # the image says it


async def shrine_started(stage: Stage) -> Interaction:
    """A Torii round robin, Shrine, made by the admin and joined by p1 to p4 with the
    announcement's Join; its start's answer."""
    created = await stage.slash(
        "admin", "tournament create", name="Shrine", format="round-robin", game="torii",
        deadline="1d",
    )  # fmt: skip
    assert "(Torii round robin, with the Spirits' powers) is open for entries" in created.text, (
        created.text
    )
    for name in ("p1", "p2", "p3", "p4"):
        await stage.click(name, "Join")
    return await stage.slash("admin", "tournament start", name="Shrine")


async def test_a_torii_round_robin_of_four(tmp_path: Path) -> None:
    async with Stage(tmp_path, PLAYERS) as stage:
        await shrine_started(stage)
        await stage.posted("Every game of the schedule starts now")
        await announcement_buttons(stage, {"Join": False, "Leave": True})  # a fixed schedule
        snap = await snapshot(stage, "Shrine")
        assert snap.event.rounds == 3 and len(snap.pairings) == 6
        for round_ in (1, 2, 3):
            await play_round(stage, "Shrine", round_, setup={"spirit": "Kitsune"})
        await stage.posted("**Shrine** (Torii round robin) is over: p1 won it")
        await announcement_buttons(stage, {"Join": False, "Leave": False})
        await standings_png(stage, "Shrine", "round-robin-crosstable.png")


async def test_a_cancelled_events_join_and_leave_are_disabled(tmp_path: Path) -> None:
    async with Stage(tmp_path, PLAYERS) as stage:
        await stage.slash("admin", "tournament create", name="Gone", format="swiss")
        await stage.click("p1", "Join")
        await announcement_buttons(stage, {"Join": True, "Leave": True})
        cancelled = await stage.slash("admin", "tournament cancel", name="Gone")
        assert cancelled.error is None, cancelled.text
        await announcement_buttons(stage, {"Join": False, "Leave": False})


async def test_a_tournament_created_in_a_thread_is_refused_naming_a_text_channel(
    tmp_path: Path,
) -> None:
    """Discord opens no thread inside a thread (400 50024), and a tournament's games are
    hosted in threads of the channel it was made in. A round robin made in a thread started
    with "Something went wrong" and never opened a game; it is refused at once, naming a
    text channel as the place, and nothing is made."""
    async with Stage(tmp_path, ("p1", "p2", "p3", "p4", "admin")) as stage:
        world = stage.emu.world
        lobby = world.create_thread(
            world.channel(stage.channel), "lobby", ChannelType.PUBLIC_THREAD, world.ids.next()
        )
        created = await stage.slash(
            "admin", "tournament create", name="Shrine", format="round-robin", game="torii",
            deadline="1d", channel=lobby.id,
        )  # fmt: skip
        assert created.error is None and "text channel" in created.text, created.text
        assert stage.bot is not None
        assert await stage.bot.store.events.named(stage.guild, "Shrine") is None


async def test_a_round_robin_past_discords_thread_cap_plays_the_rest_in_its_channel(
    tmp_path: Path,
) -> None:
    """Discord keeps at most 1,000 active threads in a server (400 160006 past it), and a
    round robin opens every game of its schedule at once. Here the members' 997 threads
    leave the bot three: the fourth board's 400 escaped the start ("Something went wrong",
    the event running) and no later board opened. Now the boards without a thread are
    played in the event's channel, one after another as each game there ends."""
    async with Stage(tmp_path, ("p1", "p2", "p3", "p4", "admin"), channels=2) as stage:
        for i in range(997):
            stage.emu.add_thread(stage.channels[1], f"chat {i}", stage.user["p1"])
        started = await shrine_started(stage)
        assert started.error is None and "went wrong" not in started.text, started.text
        await stage.quiet()
        snap = await snapshot(stage, "Shrine")
        threaded = [row for row in snap.pairings if row.thread_id != stage.channel]
        here = [row for row in snap.pairings if row.thread_id == stage.channel]
        assert len(threaded) == 3 and all(row.hosted_id for row in threaded)
        assert [row.hosted_id is not None for row in here] == [True, False, False]
        ids = {v: k for k, v in stage.user.items()}
        for waiting in (2, 1, 0):  # each game here ends; the next board's opens here
            [row] = [r for r in await channel_boards(stage) if r.hosted_id and r.outcome is None]
            first, second = ids[row.first_id], ids[row.second_id or 0]
            for who in (first, second):
                answered = await stage.slash(who, "setup", spirit="Kitsune")
                assert answered.error is None, answered.text
            loser = max(first, second, key=lambda n: stage.user[n])
            await stage.slash(loser, "resign")
            await stage.click(loser, "Resign")
            await stage.quiet()
            left = [r for r in await channel_boards(stage) if r.hosted_id is None]
            assert len(left) == max(waiting - 1, 0), left


def long_name(i: int) -> str:
    """A display name of Discord's longest (32 characters)."""
    return f"Großmeisterin Walpurgisnacht {i:03d}"[:32]


async def test_a_long_tournaments_standings_never_end_in_a_half_cut_row(tmp_path: Path) -> None:
    """A Swiss with many entrants of long names: ``/tora-tournament standings`` shows each
    entrant's row whole, or says how many more it left out (as the text's own "...and N
    more" does past 50); today the text is cut at 1,900 characters in the middle of a row,
    and the entrants past the cut are silently missing."""
    players = tuple(long_name(i) for i in range(44))
    async with Stage(tmp_path, (*players, "admin")) as stage:
        created = await stage.slash(
            "admin", "tournament create", name="Walpurgis Open", format="swiss", rounds=3
        )
        assert created.error is None, created.text
        for name in players:
            joined = await stage.click(name, "Join")
            assert joined.error is None, joined.text
        shown = await stage.slash("admin", "tournament standings", name="Walpurgis Open")
        assert shown.error is None and shown.files, shown.text
        for message in shown.messages:
            assert len(message.content) <= MESSAGE
        text = shown.text
        listed = [name for name in players if name in text]
        more = re.search(r"\.\.\.and (\d+) more", text)
        left_out = int(more[1]) if more else 0
        assert len(listed) + left_out == len(players), (len(listed), left_out, text[-200:])
        last = text.rstrip().splitlines()[-1]
        assert more or last.startswith(tuple(f"{n}  " for n in range(1, 100))), last
        assert more or any(last.split("  ")[1] == name for name in players), last


async def test_a_new_tournament_is_offered_by_autocomplete_in_a_server_with_many_events(
    tmp_path: Path,
) -> None:
    """A server that ran 25 Swiss events, then creates a chapter 10 tournament: typing its
    name's start in ``/tora-tournament register name:`` offers it (Discord shows the 25
    choices the bot answers). Today the 25 events (newest first) fill every choice before
    any chapter 10 tournament is looked at: the newest tournament, the one people want to
    join, is never offered until its name is typed nearly whole, and a refused name's list
    of "this server has" leaves it out as well."""
    async with Stage(tmp_path, ("ann", "admin")) as stage:
        for n in range(25):
            made = await stage.slash(
                "admin", "tournament create", name=f"Swiss {n:02d}", format="swiss", rounds=3
            )
            assert made.error is None and "open for entries" in made.text, made.text
        made = await stage.slash(
            "admin", "tournament create", name="Spring Tiers", board="short", target=60
        )
        assert made.error is None, made.text
        offered = await stage.emu.autocomplete(
            stage.user["ann"], stage.channel, "tora-tournament", "register",
            focused="name", name="",
        )  # fmt: skip
        assert len(offered) <= 25
        assert all(1 <= len(c["name"]) <= 100 and len(c["value"]) <= 100 for c in offered)
        assert "Spring Tiers" in [c["value"] for c in offered], [c["value"] for c in offered]
        typed = await stage.emu.autocomplete(
            stage.user["ann"], stage.channel, "tora-tournament", "register",
            focused="name", name="S",
        )  # fmt: skip
        assert "Spring Tiers" in [c["value"] for c in typed], [c["value"] for c in typed]
        refused = await stage.slash("ann", "tournament register", name="Spring Tier")
        assert "**Spring Tiers**" in refused.text and "...and 1 more" in refused.text


async def test_the_tournament_list_of_a_busy_server_is_one_message_not_a_flood(
    tmp_path: Path,
) -> None:
    """``/tora-tournament list`` answers in public. A server that has run 30 events (long
    names, as the 60 characters allowed) gets one message, its newest first and a count of
    the rest, as the ladder pages its players. Today every event ever made is listed, so
    the answer grows without bound and goes out as one public message per 2,000
    characters (three here, dozens on an old server)."""
    async with Stage(tmp_path, ("ann", "admin")) as stage:
        for n in range(30):
            name = f"Großes Walpurgisnacht-Schnellschach-Turnier der Saison {n:02d}"[:60]
            made = await stage.slash(
                "admin", "tournament create", name=name, format="swiss", rounds=3
            )
            assert made.error is None and "open for entries" in made.text, made.text
        shown = await stage.slash("ann", "tournament list")
        assert shown.error is None, shown.text
        await asyncio.sleep(1.0)  # the follow-ups of a long answer come after its response
        assert all(len(m.content) <= MESSAGE for m in shown.messages)
        public = [m for m in shown.messages if m.ephemeral_to is None]
        assert len(public) == 1, [len(m.content) for m in shown.messages]
        listed = re.findall(r"Saison (\d\d)\*\*", public[0].content)
        more = re.search(r"\.\.\.and (\d+) more", public[0].content)
        assert more and len(listed) + int(more[1]) == 30, public[0].content[-200:]
        assert listed == [f"{n:02d}" for n in range(29, 29 - len(listed), -1)]  # newest first
