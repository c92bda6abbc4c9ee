"""Whether away days apply in a tournament (issue 27): the organiser chooses at creation (yes
by default), the event's announcement and the server's list say it, and its games' clocks
honour it, in chapter 10's tournaments and in Swiss and round robin events alike."""

from __future__ import annotations

import event_helpers as events
import tournament_helpers as chapter10

from bot.service import Terms, User
from bot.service.testing import Harness
from storage import Hosted

ANN, BOB = User(1, "ann"), User(2, "bob")
DAY = 86400.0


async def live_games(h: Harness) -> list[Hosted]:
    assert h.store is not None
    return await h.store.hosting.live()


async def moved_by_time_away(h: Harness, hosted: Hosted) -> bool:
    """Whether the player to act going away for a day moves their deadline."""
    assert h.store is not None and hosted.due_at is not None
    user = User(hosted.challenger_id or 0, "to act")
    await h.running.away(hosted.guild_id, user, h.clock.now(), 1)
    after = await h.running.records.hosted(hosted.id)
    assert after is not None and after.due_at is not None
    await h.running.back(hosted.guild_id, user)
    return after.due_at > hosted.due_at


async def test_an_event_without_away_days_says_so_and_its_clocks_run_on(h: Harness) -> None:
    desk = await events.desk_of(h)
    reply = await desk.create(
        events.HERE,
        events.ADMIN,
        events.EventSpec("Open", "torishogi", "swiss", {}, rounds=1, away_days=False),
        admin=True,
    )
    assert "away days do not stop its clocks" in reply.text
    await events.create(desk, "Kept", "torishogi", "swiss", rounds=1)
    kept, open_ = [await desk.described(e) for e in await h.store.events.of_guild(events.GUILD)]
    assert kept.endswith("0 players, open for entries; away days stop its clocks.")
    assert "away days do not stop its clocks" in open_
    for n in (1, 2):
        await desk.join(events.HERE, events.user(n), "Open")
    await desk.begin(events.HERE, events.ADMIN, "Open", admin=True)
    await h.settle()
    [game] = await live_games(h)
    assert not Terms.from_json(game.terms).away_days
    assert not await moved_by_time_away(h, game)


async def test_a_chapter_10_tournament_chooses_too(h: Harness) -> None:
    desk = await chapter10.desk_for(h)
    reply = await desk.create(
        chapter10.HERE, chapter10.ADMIN, "Cup", "short", 49, admin=True, away_days=False
    )
    assert "away days do not stop its clocks" in reply.text
    for player in (ANN, BOB):
        await desk.register(chapter10.HERE, player, "Cup")
    await desk.begin(chapter10.HERE, chapter10.ADMIN, "Cup", admin=True)
    await h.settle()
    [game] = await live_games(h)
    assert not Terms.from_json(game.terms).away_days
    assert "away days do not stop its clocks" in (await desk.standings(chapter10.HERE, "Cup")).text


async def test_a_tournament_games_setup_deadline_honours_a_players_time_away(h: Harness) -> None:
    """A Swiss event whose away days stop its clocks: p2 is away for three days when the
    round begins, so the setup's clock stands still until p2 is back (a lapse would be
    scored as p2's forfeit, E5)."""
    desk = await events.desk_of(h)
    await events.create(desk, "Cup", "tora", "swiss", rounds=1)
    for n in (1, 2):
        await desk.join(events.HERE, events.user(n), "Cup")
    await h.running.away(events.GUILD, events.user(2), h.clock.now(), 3)
    back = h.clock.now() + 3 * DAY
    await desk.begin(events.HERE, events.ADMIN, "Cup", admin=True)
    await h.settle()
    [game] = await live_games(h)
    assert game.phase == "setup" and game.due_at is not None and game.remind_at is not None
    assert game.due_at == back + DAY  # the turn's day after the return
    assert game.remind_at > back
