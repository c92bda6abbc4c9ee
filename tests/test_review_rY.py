"""Review rY: ladders and tournaments of ToriShogi and Torii, as an organiser and a player
see them (each test fails on a bug, and says what the user sees and should see)."""

from __future__ import annotations

from event_helpers import ADMIN, GUILD, HERE, create, desk_of, snapshot, user

from bot.ladder.results import Results
from bot.service import GuildSettings, Place, Refused, Terms, save_guild
from bot.service.models import AI_IDS
from bot.service.testing import Harness
from bot.tournament.event_spec import EventSpec


async def test_a_double_round_robins_second_game_against_the_ai_swaps_who_moves_first(
    h: Harness,
) -> None:
    """A Torii double round robin of three with ``ai_fill``: each player meets the AI once
    in each cycle, and every other pair has the colours reversed in the second cycle. The
    round post says "p1 v the AI (easy)" in rounds 1 and 4: p1 moves first against the AI
    both times (every AI board is written with the person first). The second cycle's game
    against the AI should have the AI move first, as every other reversed pairing does."""
    desk = await desk_of(h)
    await create(desk, "Club", "torii", "double-round-robin", ai_fill="easy")
    for n in (1, 2, 3):
        await desk.join(HERE, user(n), "Club")
    await desk.begin(HERE, ADMIN, "Club", admin=True)
    await h.settle()
    snap = await snapshot(h, "Club")
    ai = AI_IDS["easy"]
    for n in (1, 2, 3):
        against_ai = [p for p in snap.pairings if n in (p.first_id, p.second_id) and ai in (
            p.first_id, p.second_id)]
        assert len(against_ai) == 2
        firsts = sorted(p.first_id == n for p in against_ai)
        assert firsts == [False, True], (
            f"p{n} moves first in both games against the AI: "
            f"{[(p.round, p.first_id, p.second_id) for p in against_ai]}"
        )


async def test_an_events_ai_fill_keeps_to_the_servers_cap_of_matches_against_the_ai(
    h: Harness,
) -> None:
    """The server's admins set ``ai_matches:0`` ("matches against the AI off here"; a
    challenge of the AI is refused so, and the ladder's AI fill keeps to it). A ToriShogi
    Swiss created with ``ai_fill:easy`` is accepted all the same, and its odd player plays
    the AI: a live match against the AI in a server that allows none. The creation should
    be refused naming the server's cap (or the odd player given the bye)."""
    await save_guild(h.store, GUILD, GuildSettings(ai_matches=0))
    desk = await desk_of(h)
    try:
        await create(desk, "Odd", "torishogi", "swiss", rounds=2, ai_fill="easy")
    except Refused:
        return  # refused at creation: the server allows no match against the AI
    for n in (1, 2, 3):
        await desk.join(HERE, user(n), "Odd")
    await desk.begin(HERE, ADMIN, "Odd", admin=True)
    await h.settle()
    live = await h.store.live_ai_matches(GUILD)
    assert live == 0, f"{live} live match(es) against the AI in a server whose cap is 0"


async def test_an_events_seeds_after_the_ladders_season_closed_are_the_final_ratings(
    h: Harness,
) -> None:
    """E9: a ToriShogi event seeds each player by their rating on the ToriShogi ladder.
    p1 beat p2 in three rated ToriShogi matches (p1 about 1750), then an admin closed the
    ladder's season. An event created now seeds p1 at 1500, like a newcomer (the seed is
    read from the new, empty season only), so round 1 pairs by entry order as if nobody had
    ever played. p1's seed should be the rating the closed season ended with (as profiles
    show a closed season's final line until the player plays the open one)."""
    for n in (1, 2, 3):
        here = Place(GUILD, 500 + n)
        await h.service.challenge(here, user(1), user(2), Terms(game="torishogi", rated=True))
        await h.service.accept(here, user(2))
        await h.service.resign(here, user(2))
        await h.settle()
    [season] = await h.store.ladders.seasons(GUILD, "torishogi")
    [top] = [s for s in await h.store.ladders.standings(season.key) if s.player_id == 1]
    assert top.rating > 1600  # three rated wins counted
    await Results(h.store, h.clock.now).close_season(GUILD, "torishogi", ADMIN.id)
    desk = await desk_of(h)
    await create(desk, "Open", "torishogi", "swiss", rounds=3)
    await desk.join(HERE, user(1), "Open")
    [entry] = (await snapshot(h, "Open")).entries
    assert entry.rating == round(top.rating), (
        f"p1 seeded at {entry.rating}, not the {round(top.rating)} their season closed on"
    )


async def test_pairings_of_an_event_not_started_do_not_speak_of_a_round_0(h: Harness) -> None:
    """``/tora-tournament pairings name:Club`` on a ToriShogi round robin still taking
    entries answers "**Club** (ToriShogi round robin) has no round 0 paired.": a round 0
    nobody asked for (the default round is the current one, 0 before the start). It should
    say the event has not started yet, its rounds paired at its start."""
    desk = await desk_of(h)
    await create(desk, "Club", "torishogi", "round-robin")
    for n in (1, 2, 3):
        await desk.join(HERE, user(n), "Club")
    text = (await desk.pairings(HERE, "Club")).text
    assert "round 0" not in text, text


async def test_a_tournament_games_end_post_offers_no_rematch_outside_the_tournament(
    h: Harness,
) -> None:
    """A rated ToriShogi Swiss: p2 resigns board 1 of round 1. The game's end post in the
    board's thread says "Either of you may ask for a rematch with the button (colours
    swapped)." with a Rematch button: pressed and accepted, it opens a rated ToriShogi
    match of the same terms in the tournament's thread, outside the tournament (the next
    round is the event's to pair; a rated rematch counts on the ladder as a second game of
    the two). A tournament's game should not offer a rematch."""
    desk = await desk_of(h)
    await create(desk, "Open", "torishogi", "swiss", rounds=2, rated=True)
    for n in (1, 2, 3, 4):
        await desk.join(HERE, user(n), "Open")
    await desk.begin(HERE, ADMIN, "Open", admin=True)
    await h.settle()
    row = (await snapshot(h, "Open")).pairings[0]
    hosted = await h.store.hosting.get(row.hosted_id)
    await h.service.resign(Place(GUILD, hosted.channel_id), user(row.second_id))
    await h.settle()
    [end] = [t for t in h.delivery.texts(hosted.channel_id) if "The full record" in t]
    assert "rematch" not in end, end


async def test_an_events_announcement_and_list_say_its_games_options(h: Harness) -> None:
    """A Torii Swiss created with ``powers:False`` is announced as "**Cup** (Torii Swiss)
    is open for entries: 5 rounds, up to 64 players, unrated, away days stop its clocks.
    Join with ...", and listed as "**Cup** (Torii Swiss): 0 players, open for entries; ...":
    nothing says its games are played without the Spirits' powers (nor, for TORA, which
    board or with Assassins), though a player decides on that whether to join, and its
    games' terms say "without powers". The announcement (and the list) should name the
    game's options."""
    desk = await desk_of(h)
    reply = await desk.create(
        HERE, ADMIN, EventSpec("Cup", "torii", "swiss", {"powers": False}), admin=True
    )
    snap = await snapshot(h, "Cup")
    listed = await desk.described(snap.event)
    assert "without powers" in reply.text, reply.text
    assert "without powers" in listed, listed


async def test_an_events_announcement_names_a_command_that_exists(h: Harness) -> None:
    """A ToriShogi round robin's announcement says "Join with `/tora-tournament join`":
    there is no such command (``/tora-tournament`` has ``register``, as chapter 10's
    announcement says, ``/tora-tournament register``); a player who types what the post
    says gets Discord's unknown command. It should name ``/tora-tournament register``."""
    desk = await desk_of(h)
    reply = await desk.create(
        HERE, ADMIN, EventSpec("Club", "torishogi", "round-robin", {}), admin=True
    )
    assert "`/tora-tournament join`" not in reply.text, reply.text
    assert "`/tora-tournament register`" in reply.text, reply.text
