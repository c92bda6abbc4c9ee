"""Review rA: where the bot would fail against the real Discord, or shows users less than
it means to, while passing against the emulator. Each test drives the bot through the
emulator and checks what it sent against Discord's documented limits itself."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from harness.stage import Stage

MESSAGE = 2000  # characters of one message's content, for a bot


def _name(i: int) -> str:
    """A display name of Discord's longest (32 characters)."""
    return f"Großmeisterin Walpurgisnacht {i:03d}"[:32]


async def test_a_long_tournaments_standings_never_end_in_a_half_cut_row(tmp_path: Path) -> None:
    """A Swiss with many entrants of long names: ``/tora-tournament standings`` shows each
    entrant's row whole, or says how many more it left out (as the text's own "...and N
    more" does past 50); today the text is cut at 1,900 characters in the middle of a row,
    and the entrants past the cut are silently missing."""
    players = tuple(_name(i) for i in range(44))
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


def test_a_round_robins_schedule_post_fits_one_discord_message() -> None:
    """The round's one post in the event's channel keeps "as many boards as fit in one
    Discord message" and counts the rest; a bot's message holds 2,000 characters (4,000 is
    a Nitro user's), so a round robin of twelve long names is posted today as two messages,
    the second starting in the middle of the schedule (``LONGEST_POST = 3900``)."""
    from bot.tournament import event_texts
    from bot.tournament.records import Board, PairedRound
    from storage.competitions.events import EventRow

    event = EventRow(
        guild_id=1, channel_id=2, name="Walpurgis Round Robin", game="tora", options="{}",
        format="round-robin", rounds=11, turn_seconds=86400.0, round_seconds=0.0, rated=True,
        bye_points=2, tiebreaks="", max_players=12, ai_fill=None, organiser_id=3,
        entry_closes=None, starts_at=None, away_days=True, id=1, status="running", round=1,
        round_deadline=None, created_at=0.0, started_at=0.0, finished_at=None,
    )  # fmt: skip
    names = {p: _name(p) for p in range(12)}
    rounds = [
        PairedRound(tuple(Board(r * 2 % 12, (r * 2 + 1 + b) % 12) for b in range(6)), None)
        for r in range(11)
    ]
    text = event_texts.round_opened(event, 0, rounds, None, 0.0, names)
    assert len(text) <= MESSAGE, len(text)
