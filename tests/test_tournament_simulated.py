"""Whole tournaments on a real SQLite file through the real match service: eight players to
the champion (with a restart while a game's end went unheard), and a match that ends at the
target after its third game."""

from __future__ import annotations

from tournament_helpers import ADMIN, HERE, desk_for, hunt, players_here, resign_at_once, short

from bot.service import Place, User
from bot.service.testing import Harness
from bot.tournament import Captures, GameResult, Seat
from bot.tournament.flow import Played, record
from storage.competitions.tournaments import FINISHED

PLAYERS = [User(n, f"p{n}") for n in range(1, 9)]


async def live_games(h: Harness) -> list[Place]:
    places = []
    for thread in sorted(h.threads.opened):
        if await h.store.hosting.live_in_channel(thread) is not None:
            places.append(Place(HERE.guild_id, thread))
    return places


async def play(h: Harness, place: Place) -> None:
    """The player with the higher id wins: taking all 16 points as Challenger, or seeing the
    weaker Challenger resign at once."""
    challenger, opposition = await players_here(h, place.channel_id)
    if challenger.id > opposition.id:
        await hunt(h, place)
    else:
        await resign_at_once(h, place)


async def test_eight_players_play_to_the_champion(h: Harness) -> None:
    desk = await desk_for(h)
    await desk.create(HERE, ADMIN, "Grand", "short", 60, admin=True)
    for player in PLAYERS:
        await desk.register(HERE, player, "Grand")
    await desk.begin(HERE, ADMIN, "Grand", admin=True)
    await h.settle()
    games = 0
    crashed = False
    while places := await live_games(h):
        for place in places:
            if games == 9 and not crashed:
                # the bot goes down; this game ends while nobody listens for tournaments
                await h.crash()
                await resign_at_once(h, place)
                desk = await desk_for(h)  # the restart: scored, and the next game opened
                crashed = True
            else:
                await play(h, place)
            games += 1
        await h.settle()
    assert crashed and games == 28  # seven matches of four games
    snapshot = await h.store.tournaments.snapshot(1)
    assert snapshot.tournament.status == FINISHED and snapshot.tournament.champion_id == 8
    tiers = [(row.tier, row.first_id, row.second_id, row.winner_id) for row in snapshot.matches]
    assert tiers == [
        (1, 1, 2, 2),
        (1, 3, 4, 4),
        (1, 5, 6, 6),
        (1, 7, 8, 8),
        (2, 2, 4, 4),
        (2, 6, 8, 8),
        (3, 4, 8, 8),
    ]
    standings = await desk.standings(HERE, "Grand")
    lines = standings.text.splitlines()
    assert lines[1].startswith("1. p8: ") and lines[1].endswith("3 won, 0 lost - champion")
    assert lines[2].startswith("2. p4: ") and lines[2].endswith("2 won, 1 lost")
    # equal Game Points and records share a place (T12: tie-breaker games are for champions)
    assert lines[3:] == [
        "3. p2: 28 Game Points, 1 won, 1 lost",
        "3. p6: 28 Game Points, 1 won, 1 lost",
        "5. p1: 0 Game Points, 0 won, 1 lost",
        "5. p3: 0 Game Points, 0 won, 1 lost",
        "5. p5: 0 Game Points, 0 won, 1 lost",
        "5. p7: 0 Game Points, 0 won, 1 lost",
    ]
    posted = h.delivery.texts(HERE.channel_id)
    assert "**p8** is the champion of **Grand**! Congratulations." in posted
    brackets = [m for m in h.delivery.channel(HERE.channel_id) if m.files]
    assert len(brackets) == 4  # at the start, after tiers 1 and 2, and at the end
    history = await h.store.tournaments.rank_history(1, "short", 8)
    assert len(history) == 3  # one row per match played


async def test_a_match_ends_at_the_target_after_its_third_game(h: Harness) -> None:
    """Rank 1 against rank 6 on the short board: the lower-ranked player gets +1 Game Point
    (T2). Without three wins there are no bands, so 16 + 16 + 16 + 1 reaches the target of
    49 in game 3 (T3) and no fourth game is opened."""
    ann, bob = User(1, "ann"), User(2, "bob")
    await h.store.save_player(bob.id, bob.name)
    await h.store.tournaments.transact(
        lambda tx: tx.conn.execute(
            "INSERT INTO tournament_ranks (guild_id, board, player_id, rank, updated_at)"
            " VALUES (1, 'short', ?, 6, 0)",
            (bob.id,),
        ),
        h.clock.now(),
    )
    desk = await desk_for(h)
    await desk.create(HERE, ADMIN, "Cup", "short", 49, admin=True)
    await desk.register(HERE, ann, "Cup")
    await desk.register(HERE, bob, "Cup")
    await desk.begin(HERE, ADMIN, "Cup", admin=True)
    await h.settle()
    # bob (rank 6) has the first seat; ann's results are the second seat's
    games = [
        GameResult((Captures(), short(16)), Seat.SECOND),
        GameResult((short(16), short(16)), None),  # both lost command in the same round
        GameResult((Captures(), short(16)), Seat.SECOND),
    ]
    for number, result in enumerate(games, start=1):
        place = (await live_games(h))[0]
        snapshot = await h.store.tournaments.snapshot(1)
        game = next(g for g in snapshot.games if g.state == "open")
        assert game.number == number
        await h.store.tournaments.transact(
            lambda tx, g=game, r=result: record(tx, 1, g.id, Played("finished", r)),
            h.clock.now(),
        )
        await h.service.cancel(place, ADMIN, admin=True)  # its hosted game is done with
        await desk.catch_up()
    await h.settle()
    assert await live_games(h) == []
    snapshot = await h.store.tournaments.snapshot(1)
    (row,) = snapshot.matches
    assert (row.first_points, row.second_points, row.winner_id) == (14, 49, ann.id)
    assert snapshot.tournament.champion_id == ann.id
    decided = "ann wins the match against bob on Game Points: 49 to 14 Game Points after 3 games."
    assert any(
        text.startswith("**Cup**, tier ") and decided in text
        for text in h.delivery.texts(HERE.channel_id)
    )
