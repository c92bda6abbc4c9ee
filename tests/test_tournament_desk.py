"""The tournament desk on a real SQLite file with the real match service: creating,
registering, starting (an odd tier gets a substitute), a four-game match played game by
game in its thread, ranks per board beside (never in) the ladder, and the refusals."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest
from service_helpers import drawn_here
from tournament_helpers import ADMIN, HERE, desk_for, hunt, players_here, resign_at_once

from bot.app.callers import Caller
from bot.app.listing import Listing
from bot.app.tournaments import Tournaments
from bot.service import NotAllowed, Place, Refused, User
from bot.service.testing import Harness
from bot.tournament import desk as desk_module
from bot.tournament import texts
from storage.competitions.ladders import LadderKey
from storage.competitions.tournaments import FINISHED, RUNNING

ANN, BOB, CARL, DORA = User(1, "ann"), User(2, "bob"), User(3, "carl"), User(4, "dora")


async def cup(h: Harness, *players: User, target: int = 49, subs: tuple[User, ...] = ()):
    desk = await desk_for(h)
    await desk.create(HERE, ADMIN, "Cup", "short", target, admin=True)
    for player in players:
        await desk.register(HERE, player, "cup")
    for sub in subs:
        await desk.register(HERE, sub, "Cup", substitute=True)
    await desk.begin(HERE, ADMIN, "Cup", admin=True)
    await h.settle()
    return desk


def thread_of(h: Harness, a: User, b: User) -> Place:
    for thread, (_parent, name) in h.threads.opened.items():
        if f"{a.name} v {b.name}" in name:
            return Place(HERE.guild_id, thread)
    raise AssertionError(f"no thread for {a.name} v {b.name}: {h.threads.opened}")


async def test_a_bracket_and_an_events_table_are_drawn_in_a_drawing_worker(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A tournament's bracket (its standings, and the post after a tier changed) and an
    event's standings table were drawn in threads of the bot's process, holding the
    interpreter lock every channel's commands wait on, where every other picture goes to
    the drawing workers (``MatchService.paint``)."""
    from event_helpers import ADMIN as ORGANISER
    from event_helpers import HERE as CLUB
    from event_helpers import create, desk_of, user

    import render.bracket
    import render.event_table

    with drawn_here(monkeypatch, h.running, render.bracket, render.event_table) as drawn:
        desk = await cup(h, ANN, BOB)
        bracket = await desk.standings(HERE, "Cup")
        await desk.flow.post_bracket(1)
        events = await desk_of(h)
        await create(events, "Club", "torishogi", "swiss", rounds=2)
        for n in (1, 2):
            await events.join(CLUB, user(n), "Club")
        await events.begin(CLUB, ORGANISER, "Club", admin=True)
        table = await events.standings(CLUB, "Club")
    assert all(r.files[0].data.startswith(b"\x89PNG") for r in (bracket, table))
    assert drawn == [], f"drawn in the bot's own process: {drawn}"


async def test_only_admins_organise_and_targets_keep_the_chapters_bounds(h: Harness) -> None:
    desk = await desk_for(h)
    with pytest.raises(NotAllowed, match="Only a server admin"):
        await desk.create(HERE, ANN, "Cup", "short", 60, admin=False)
    with pytest.raises(Refused, match="from 49 to 64 Game Points"):
        await desk.create(HERE, ADMIN, "Cup", "short", 65, admin=True)
    with pytest.raises(Refused, match="from 181 to 240"):
        await desk.create(HERE, ADMIN, "Cup", "long", 180, admin=True)
    reply = await desk.create(HERE, ADMIN, "Cup", "long", 181, admin=True)
    assert "long board" in reply.text and not reply.private
    with pytest.raises(Refused, match="already has a tournament called"):
        await desk.create(HERE, ADMIN, "CUP", "short", 60, admin=True)
    with pytest.raises(Refused, match="no tournament called `Open`"):
        await desk.register(HERE, ANN, "Open")


async def test_a_second_tournament_named_like_the_first_in_other_case_is_refused_on_both_backends(
    h: Harness,
) -> None:
    """Names are told apart as Python's ``casefold`` does, the same on both backends: SQLite
    folded only ASCII letters, so there "COUPE D'ÉTÉ" and "Coupe d'été" were two tournaments
    (and registering for one could find the other)."""
    desk = await desk_for(h)
    await desk.create(HERE, ADMIN, "COUPE D'ÉTÉ", "short", 49, admin=True)
    await desk.create(HERE, ADMIN, "Straße", "long", 181, admin=True)
    for same in ("Coupe d'été", "coupe  d'Été", "STRASSE"):
        with pytest.raises(Refused, match="already has a tournament called"):
            await desk.create(HERE, ADMIN, same, "short", 49, admin=True)
    reply = await desk.register(HERE, ANN, "coupe d'été")
    assert "COUPE D'ÉTÉ" in reply.text
    assert await desk.register(HERE, ANN, "strasse")


async def test_a_name_with_a_control_character_is_refused_on_both_backends(h: Harness) -> None:
    """A NUL (or another control character) typed into a name was stored by SQLite and failed
    inside PostgreSQL (an error, not an answer); looking one up failed there too."""
    desk = await desk_for(h)
    for name in ("Cup\x00", "Cup\x07 2"):
        with pytest.raises(Refused, match="A tournament's name cannot hold control characters"):
            await desk.create(HERE, ADMIN, name, "short", 49, admin=True)
    with pytest.raises(Refused, match="no tournament called"):
        await desk.register(HERE, ANN, "Cup\x00")
    assert await desk.names(HERE.guild_id) == []


async def test_registration_withdrawal_and_a_start_that_needs_a_substitute(h: Harness) -> None:
    desk = await desk_for(h)
    await desk.create(HERE, ADMIN, "Cup", "short", 60, admin=True)
    reply = await desk.register(HERE, ANN, "cup")
    assert "short-board rank 1" in reply.text and "Everyone starts at rank 1" in reply.text
    with pytest.raises(Refused, match="already registered"):
        await desk.register(HERE, ANN, "Cup")
    for player in (BOB, CARL):
        await desk.register(HERE, player, "Cup")
    with pytest.raises(Refused, match="odd number of players \\(3\\) and no substitute"):
        await desk.begin(HERE, ADMIN, "Cup", admin=True)
    await desk.withdraw(HERE, CARL, "Cup")
    with pytest.raises(Refused, match="not registered"):
        await desk.withdraw(HERE, CARL, "Cup")
    await desk.register(HERE, CARL, "Cup")
    await desk.register(HERE, DORA, "Cup", substitute=True)
    await desk.begin(HERE, ADMIN, "Cup", admin=True)
    await h.settle()
    with pytest.raises(Refused, match="registration is closed"):
        await desk.register(HERE, User(5, "eve"), "Cup")
    with pytest.raises(Refused, match="can no longer withdraw"):
        await desk.withdraw(HERE, ANN, "Cup")
    posted = h.delivery.texts(HERE.channel_id)
    assert any("tier 1: ann v bob; carl v dora (substitute)" in text for text in posted)
    assert sorted(name for _parent, name in h.threads.opened.values()) == [
        "Cup - tier 1: ann v bob",
        "Cup - tier 1: carl v dora (substitute)",
    ]
    first_game = await players_here(h, thread_of(h, CARL, DORA).channel_id)
    assert [u.id for u in first_game] == [CARL.id, DORA.id]  # carl is Challenger of game 1


async def test_a_four_game_match_is_played_game_by_game_and_moves_ranks(h: Harness) -> None:
    desk = await cup(h, ANN, BOB)
    place = thread_of(h, ANN, BOB)
    await hunt(h, place)  # game 1: ann (Challenger) takes all 16
    await resign_at_once(h, place)  # game 2: bob (Challenger) resigns at once, 0 to 0
    await hunt(h, place)  # game 3: ann takes all 16 again
    await hunt(h, place)  # game 4: bob (Challenger) takes all 16
    await h.settle()
    thread = h.delivery.texts(place.channel_id)
    scored = [text for text in thread if text.startswith("Game ")]
    assert scored[0] == (
        "Game 1 is over, won by ann: points scored ann 16, bob 0. Game Points now ann 16, "
        "bob 0 (target 49)."
    )
    # after three wins ann's average (100, 50, 100) is 83%: Cannons count 1 for her; bob's
    # 17% gives him +1 on every piece he captures (T10)
    assert scored[3].endswith("Game Points now ann 28, bob 23 (target 49).")
    standings = await desk.standings(HERE, "Cup")
    assert "1. ann: 28 Game Points, 1 won, 0 lost - champion" in standings.text
    assert standings.files[0].data.startswith(b"\x89PNG")
    snapshot = await h.store.tournaments.snapshot(1)
    assert snapshot.tournament.status == FINISHED and snapshot.tournament.champion_id == ANN.id
    champion = [t for t in h.delivery.texts(HERE.channel_id) if "champion of" in t]
    assert champion == ["**ann** is the champion of **Cup**! Congratulations."]
    ann = await h.store.tournaments.rank(1, "short", ANN.id)
    assert (ann.rank, ann.transition_rank) == (1, 3)  # played like a 3 (+2 against a 1)
    bob = await h.store.tournaments.rank(1, "short", BOB.id)
    assert (bob.rank, bob.transition_rank) == (1, None)  # -2 of rank 1 is still rank 1
    assert await h.store.tournaments.rank(1, "long", ANN.id) is None
    reply = await desk.rank(HERE, ANN)
    assert "short board: rank 1 (in transition to 3, 0 of 4" in reply.text
    assert "long board: unranked" in reply.text
    assert await h.store.ladders.results(LadderKey(1, "short", 1)) == []  # never the ladder
    assert await h.store.hosting.live_in_channel(place.channel_id) is None  # no game 5


async def test_a_match_result_in_the_channel_names_its_tournament_and_tier(h: Harness) -> None:
    """The decision of a match is posted in the tournament's channel, where any number of
    tournaments may run, so it starts as the tier's and the games' posts do: "**Cup**, tier
    1: ann wins the match...". Regression: it said "ann wins the match against bob on Game
    Points..." alone, of no tournament nor tier."""
    await cup(h, ANN, BOB)
    place = thread_of(h, ANN, BOB)
    await hunt(h, place)
    await resign_at_once(h, place)
    await hunt(h, place)
    await hunt(h, place)
    await h.settle()
    [decided] = [t for t in h.delivery.texts(HERE.channel_id) if "wins the match" in t]
    assert decided.startswith("**Cup**, tier 1: ann wins the match against bob"), decided
    assert decided in h.delivery.texts(place.channel_id)


async def test_an_aborted_game_is_played_again_and_a_lapsed_setup_loses_it(h: Harness) -> None:
    await cup(h, ANN, BOB)
    place = thread_of(h, ANN, BOB)
    await h.service.abort(place, ANN)
    await h.settle()
    assert (
        "Game 1 was aborted before its first round was complete"
        in h.delivery.texts(place.channel_id)[-2]
    )
    again = await players_here(h, place.channel_id)
    assert [u.id for u in again] == [ANN.id, BOB.id]  # game 1 again, ann Challenger
    await h.service.setup(place, ANN, {"strategy": "aggressive"})
    await h.advance(2 * 86400)  # bob never chose a setup: the setup lapses
    texts = h.delivery.texts(place.channel_id)
    assert any(t.startswith("Game 1 is over, won by ann: points scored ann 0") for t in texts)
    game_2 = await players_here(h, place.channel_id)
    assert [u.id for u in game_2] == [BOB.id, ANN.id]


async def test_t17_a_lapsed_setup_is_not_said_to_record_nothing(h: Harness) -> None:
    """bob never finished his setup in a tournament game: the tournament scores it a
    forfeit win for ann (T17), but the post just before it said "... so the match is off.
    Nothing is recorded." The lapse post says the game is over, and leaves the result to
    the tournament's post."""
    await cup(h, ANN, BOB)
    place = thread_of(h, ANN, BOB)
    await h.service.setup(place, ANN, {"strategy": "aggressive"})
    await h.advance(2 * 86400)  # bob never chose: the setup lapses
    texts = h.delivery.texts(place.channel_id)
    assert any(t.startswith("Game 1 is over, won by ann") for t in texts), texts
    [lapsed] = [t for t in texts if "setup was not finished in time" in t]
    assert "Nothing is recorded" not in lapsed and "match is off" not in lapsed, lapsed


async def test_t17_a_setup_reminder_warns_of_the_forfeit_not_a_match_called_off(h: Harness) -> None:
    """In a tournament game a setup left unfinished loses by forfeit once the opponent has
    chosen (T17): bob's reminder said "or the match is called off", as in a challenge."""
    await cup(h, ANN, BOB)
    place = thread_of(h, ANN, BOB)
    await h.service.setup(place, ANN, {"strategy": "aggressive"})
    await h.advance(86400 * 0.85)  # the reminder comes at 80 % of the setup's time
    [reminder] = [
        d.message.text
        for d in h.delivery.user(BOB.id)
        if d.message.text.startswith("Reminder: choose your setup")
    ]
    assert "called off" not in reminder and "by forfeit" in reminder, reminder


async def test_t17_a_lapsed_setup_is_listed_as_the_forfeit_it_scored(h: Harness) -> None:
    """ann won her tournament game by forfeit when bob never finished his setup (T17), but
    her ``/tora games`` listed it as "the setup lapsed, without a result"."""
    await cup(h, ANN, BOB)
    place = thread_of(h, ANN, BOB)
    await h.service.setup(place, ANN, {"strategy": "aggressive"})
    await h.advance(2 * 86400)
    said = await Listing(h.service).games(ANN.id)
    assert "the setup lapsed: ann wins by forfeit" in said, said


async def test_t17_a_setup_lapsed_by_both_is_listed_as_the_tie_it_scored(h: Harness) -> None:
    """Neither ann nor bob finished the setup of their tournament game: T17 scores it a tie,
    nothing captured, and the match goes on to game 2; their ``/tora games`` listed it as
    "the setup lapsed, without a result"."""
    await cup(h, ANN, BOB)
    await h.advance(2 * 86400)
    await h.settle()
    said = await Listing(h.service).games(ANN.id)
    assert "the setup lapsed: a tie" in said, said
    assert "without a result" not in said, said


async def test_a_void_game_says_why_in_the_server_s_language(h: Harness) -> None:
    """A game aborted before its first round is complete is void and played again: the post
    says so in the server's language. Regression: it showed the service's raw ending word,
    "(aborted)", in English whatever the language."""
    await h.running.records.choose_server_language(HERE.guild_id, "fr")
    await cup(h, ANN, BOB)
    [thread] = h.threads.opened  # named in French, not "ann v bob"
    place = Place(HERE.guild_id, thread)
    await h.service.abort(place, ANN)
    await h.settle()
    [void] = [t for t in h.delivery.texts(place.channel_id) if t.startswith("La partie 1 ")]
    assert "interrompue" in void and "aborted" not in void, void


async def test_one_tournament_per_board_at_a_time_but_any_as_substitute(h: Harness) -> None:
    desk = await cup(h, ANN, BOB)
    await desk.create(HERE, ADMIN, "Second", "short", 50, admin=True)
    with pytest.raises(Refused, match="already play in \\*\\*Cup\\*\\*"):
        await desk.register(HERE, ANN, "Second")
    await desk.register(HERE, ANN, "Second", substitute=True)
    await desk.create(HERE, ADMIN, "Long one", "long", 200, admin=True)
    await desk.register(HERE, ANN, "Long one")
    assert (await h.store.tournaments.snapshot(1)).tournament.status == RUNNING


async def test_an_admin_cancels_a_running_tournament_and_its_open_games(h: Harness) -> None:
    desk = await cup(h, ANN, BOB, CARL, DORA)
    first = thread_of(h, ANN, BOB)
    await hunt(h, first)  # ann v bob: game 1 decided; game 2 opens
    with pytest.raises(NotAllowed, match="Only a server admin can cancel"):
        await desk.cancel(HERE, ANN, "Cup", admin=False)
    reply = await desk.cancel(HERE, ADMIN, "cup", admin=True)
    await h.settle()
    assert reply.text == "**Cup** and its 2 open games called off." and not reply.private
    assert "has been cancelled by olga" in h.delivery.texts(HERE.channel_id)[-1]
    for place in (first, thread_of(h, CARL, DORA)):
        assert await h.store.hosting.live_in_channel(place.channel_id) is None
        thread = h.delivery.texts(place.channel_id)
        assert not any("played again" in text for text in thread)  # no replay, no new game
    snapshot = await h.store.tournaments.snapshot(1)
    assert snapshot.tournament.status == "cancelled" and snapshot.tournament.champion_id is None
    assert "cancelled; 4 players" in (await desk.tournaments(HERE)).text
    with pytest.raises(Refused, match="over already; there is nothing to cancel"):
        await desk.cancel(HERE, ADMIN, "Cup", admin=True)
    await desk.create(HERE, ADMIN, "Again", "short", 49, admin=True)
    await desk.register(HERE, ANN, "Again")  # no longer playing in a tournament on this board


async def test_a_tournament_still_registering_can_be_cancelled(h: Harness) -> None:
    desk = await desk_for(h)
    await desk.create(HERE, ADMIN, "Cup", "short", 60, admin=True)
    await desk.register(HERE, ANN, "Cup")
    reply = await desk.cancel(HERE, ADMIN, "Cup", admin=True)
    assert reply.text == "**Cup** called off."
    with pytest.raises(Refused, match="registration is closed"):
        await desk.register(HERE, BOB, "Cup")


async def test_a_game_end_missed_once_is_caught_up_within_a_minute(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game's end whose recording fails once (a database blip) is not heard again; the
    desk's minute tick catches chapter 10 up as it does the events, so the match's next
    game opens without waiting for a restart."""
    from bot.tournament.desk import TournamentDesk

    desk = TournamentDesk(h.store, h.service, h.threads, clock=h.clock, settings=h.settings)
    await desk.start(background=True)
    try:
        await desk.create(HERE, ADMIN, "Cup", "short", 49, admin=True)
        await desk.register(HERE, ANN, "Cup")
        await desk.register(HERE, BOB, "Cup")
        await desk.begin(HERE, ADMIN, "Cup", admin=True)
        await h.settle()
        place = thread_of(h, ANN, BOB)
        real = type(h.store.tournaments).transact
        failed: list[int] = []

        async def blip(self, work, now):  # type: ignore[no-untyped-def]
            if not failed:
                failed.append(1)
                raise ConnectionError("server closed the connection unexpectedly")
            return await real(self, work, now)

        monkeypatch.setattr(type(h.store.tournaments), "transact", blip)
        await h.service.abort(place, ANN)  # no result: game 1 is played again
        await h.settle()
        monkeypatch.undo()
        assert failed and await h.store.hosting.live_in_channel(place.channel_id) is None
        h.clock.advance(61)
        await until_live(h, place.channel_id)
    finally:
        await desk.stop()


async def until_live(h: Harness, channel_id: int) -> None:
    for _ in range(500):
        if await h.store.hosting.live_in_channel(channel_id) is not None:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("no game opened in the thread")


async def test_a_bracket_picture_that_fails_does_not_keep_the_games_from_opening(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bracket picture is posted after the tier's games are opened: its failure (the
    renderer, the database) leaves the players with their games."""
    from bot.tournament.flow import Flow

    async def fails(self: Flow, tournament_id: int) -> None:
        raise RuntimeError("the bracket could not be drawn")

    monkeypatch.setattr(Flow, "post_bracket", fails)
    desk = await desk_for(h)
    await desk.create(HERE, ADMIN, "Cup", "short", 49, admin=True)
    await desk.register(HERE, ANN, "Cup")
    await desk.register(HERE, BOB, "Cup")
    with pytest.raises(RuntimeError):
        await desk.begin(HERE, ADMIN, "Cup", admin=True)
    await h.settle()
    place = thread_of(h, ANN, BOB)
    assert await h.store.hosting.live_in_channel(place.channel_id) is not None


async def test_a_game_ended_while_its_opener_was_down_keeps_its_result(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: a crash between opening a match's game and recording it left a live game
    no tournament knew; resigned meanwhile, its ending was ignored, and the catch-up,
    finding the thread free, opened a second game: the result was lost. The ended game is
    now adopted and scored."""
    from storage.competitions.tournaments import TournamentTx

    real, crashed = TournamentTx.add_game, []

    def dies_once(self: TournamentTx, match_id: int, number: int, hosted_id: int) -> int:
        if not crashed:
            crashed.append(hosted_id)
            raise RuntimeError("the process died here (simulated)")
        return real(self, match_id, number, hosted_id)

    monkeypatch.setattr(TournamentTx, "add_game", dies_once)
    desk = await desk_for(h)
    await desk.create(HERE, ADMIN, "Cup", "short", 49, admin=True)
    await desk.register(HERE, ANN, "Cup")
    await desk.register(HERE, BOB, "Cup")
    await desk.begin(HERE, ADMIN, "Cup", admin=True)
    await h.settle()
    place = thread_of(h, ANN, BOB)
    first = await h.store.hosting.live_in_channel(place.channel_id)
    assert crashed and first is not None
    await resign_at_once(h, place)  # before the catch-up comes
    await h.settle()
    await desk.flow.catch_up()  # adopts it
    await desk.flow.catch_up()  # scores it, and opens the match's next game
    await h.settle()
    found = await h.store.tournaments.game_of_hosted(first.id)
    assert found is not None, "the resigned game's result was lost"
    assert found[1].state != "open"  # scored
    hosted = await h.store.hosting.latest_in_channel(place.channel_id)
    assert hosted is not None and hosted.id != first.id  # the match's second game
    assert await h.store.tournaments.game_of_hosted(hosted.id) is not None


async def test_a_cancelled_tournaments_game_left_running_by_a_crash_is_called_off(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A crash between cancelling a tournament and calling its games off left them
    running, as the catch-up looked only at running tournaments: on start, the live games
    of a cancelled tournament are called off."""
    from bot.service import MatchService

    desk = await cup(h, ANN, BOB)
    place = thread_of(h, ANN, BOB)

    async def dies(*args, **kw):  # type: ignore[no-untyped-def]
        raise RuntimeError("the process died before calling the game off")

    monkeypatch.setattr(MatchService, "cancel", dies)
    with pytest.raises(RuntimeError):
        await desk.cancel(HERE, ADMIN, "Cup", admin=True)
    monkeypatch.undo()
    await h.crash()
    await desk_for(h)  # the catch-up on start
    await h.settle()
    assert await h.store.hosting.live_in_channel(place.channel_id) is None


async def test_a_match_discord_opens_no_thread_for_is_played_in_the_channel(h: Harness) -> None:
    """A thread Discord refuses for good (the server's 1,000 active threads, a channel
    that is a thread): the match's games are played in the tournament's channel itself,
    where the start raised the refusal and no game opened."""
    h.threads.no_threads.add(HERE.channel_id)
    await cup(h, ANN, BOB)
    hosted = await h.store.hosting.live_in_channel(HERE.channel_id)
    assert hosted is not None and {hosted.challenger_id, hosted.opposition_id} == {1, 2}
    assert h.threads.opened == {}


async def test_a_tournament_game_in_a_channel_without_threads_is_not_an_old_casual_match(
    h: Harness,
) -> None:
    """Where Discord opens no thread, a tournament's match is played in the tournament's
    channel. ann and bob played a casual match there last week. When the tournament opens
    their first game, ``TournamentFlow._host`` (meant to adopt a game opened just before a
    crash) takes the latest ended match of the same Challenger and Opposition in that
    channel that is no tournament's game: their old casual match. No game is opened, and
    the old casual result is scored as game 1 of the tournament."""
    from ladder_fixtures import play_out

    from bot.service import Terms

    here = HERE  # the tournament's channel, no threads there
    h.threads.no_threads.add(here.channel_id)
    for user in (ANN, BOB):
        await h.store.save_player(user.id, user.name)
    # ann, the tournament's Challenger of game 1, challenged bob there before
    await h.running.open_match(here, ANN, BOB, Terms(rated=False))
    await play_out(h, here.channel_id, ANN)  # a casual match, long over
    h.clock.advance(7 * 86400.0)
    desk = await cup(h, ANN, BOB)
    live = await h.store.hosting.live_in_channel(here.channel_id)
    assert live is not None, "the tournament's first game was never opened"
    h.clock.advance(120)
    await desk.catch_up()  # the next look: today it scores the casual match as game 1
    await h.settle()
    said = h.delivery.texts(here.channel_id)
    assert not any(text.startswith("Game 1 is over") for text in said), said[-3:]


async def test_a_tournament_game_in_a_channel_without_threads_is_not_a_live_casual_match(
    h: Harness,
) -> None:
    """7be92cf stops a tournament's game from adopting the two players' old ended casual
    match in a channel without threads, but not their live one: ann and bob are playing a
    casual match in the tournament's channel when the tournament begins; game 1 cannot be
    opened there (the channel is busy), and ``Flow._host``'s refusal branch, meant for a
    game opened just before a crash, takes their casual match as game 1. Its result will be
    scored in the tournament. Game 1 waits for the channel to free up."""
    from ladder_fixtures import play_out

    from bot.service import Terms

    h.threads.no_threads.add(HERE.channel_id)
    for user in (ANN, BOB):
        await h.store.save_player(user.id, user.name)
    casual = await h.running.open_match(HERE, ANN, BOB, Terms(rated=False))
    desk = await cup(h, ANN, BOB)
    game = await h.store.tournaments.game_of_hosted(casual.id)
    assert game is None, f"their casual match {casual.id} was taken as the tournament's game"
    await play_out(h, HERE.channel_id, ANN)  # the channel frees up: game 1 opens there
    await desk.catch_up()
    await h.settle()
    live = await h.store.hosting.live_in_channel(HERE.channel_id)
    assert live is not None and await h.store.tournaments.game_of_hosted(live.id) is not None


async def test_a_large_brackets_standings_are_one_message_of_whole_rows(h: Harness) -> None:
    """A knockout tournament's standings listed every player whatever its length: with 44
    players of Discord's longest names it ran past one message, and the front end split it
    over several public messages. They are cut to whole rows in one message, then how many
    more, as an event's are (0171712)."""
    import re

    from bot.service.texts import LONGEST_POST

    players = [User(10 + i, f"Großmeisterin Walpurgisnacht {i:03d}"[:32]) for i in range(44)]
    desk = await cup(h, *players)
    shown = await desk.standings(HERE, "Cup")
    assert len(shown.text) <= LONGEST_POST, len(shown.text)
    listed = [p for p in players if f"{p.name}:" in shown.text]
    more = re.search(r"\.\.\.and (\d+) more", shown.text)
    assert more is not None and len(listed) + int(more[1]) == len(players), shown.text[-200:]


async def test_a_full_tournament_refuses_a_registration_naming_its_limit(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A tournament takes at most ``MOST_ENTRIES`` players and substitutes (500, as an
    event), where it took any number and drew a bracket of them all."""
    monkeypatch.setattr(desk_module, "MOST_ENTRIES", 2)
    desk = await desk_for(h)
    await desk.create(HERE, ADMIN, "Cup", "short", 60, admin=True)
    await desk.register(HERE, ANN, "cup")
    await desk.register(HERE, BOB, "cup", substitute=True)
    with pytest.raises(Refused, match="at most 2 players and substitutes"):
        await desk.register(HERE, CARL, "cup")


async def test_a_match_discord_opens_no_thread_for_is_said_to_play_in_the_channel(
    h: Harness,
) -> None:
    """The tier's post says each match is played in its own thread. Where Discord opens
    none, its games are played in the tournament's channel: the channel is now told so,
    the players named, rather than left to look for a thread that is not there."""
    h.threads.no_threads.add(HERE.channel_id)
    await cup(h, ANN, BOB)
    [told] = [m for m in h.delivery.channel(HERE.channel_id) if "no thread here" in m.text]
    assert told.text.startswith("**Cup**: Discord opened no thread here for ann v bob, so their")
    assert set(told.mentions) == {1, 2}


async def test_the_tournament_name_autocomplete_reads_only_the_names_it_offers(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: each keystroke of a tournament name read every event and tournament of
    the server, however many it ran over the years, to keep the few starting with what was
    typed. Now one query of both tables keeps those and the first of them (open or running
    first, then newest first), as before; on both backends."""
    from event_helpers import desk_of as events_of

    from bot.tournament.event_spec import EventSpec

    desk, events = await desk_for(h), await events_of(h)
    for name in ("Cup A", "Coupe d'Été", "Cup B", "Cup Old"):
        await h.advance(60)
        await desk.create(HERE, ADMIN, name, "short", 49, admin=True)
    await h.advance(60)
    await events.create(HERE, ADMIN, EventSpec("Cup Swiss", "torishogi", "swiss", {}), admin=True)
    await desk.cancel(HERE, ADMIN, "Cup Old", admin=True)  # over: offered last
    for area in (h.store.events, h.store.tournaments):
        monkeypatch.setattr(area, "of_guild", None)  # not read for a keystroke
    assert await desk.names(HERE.guild_id, "cu") == ["Cup Swiss", "Cup B", "Cup A", "Cup Old"]
    assert await desk.names(HERE.guild_id, "CUP ", limit=2) == ["Cup Swiss", "Cup B"]
    assert await desk.names(HERE.guild_id, "coupe d'é") == ["Coupe d'Été"]
    assert await desk.names(HERE.guild_id, "") == [
        "Cup Swiss",
        "Cup B",
        "Coupe d'Été",
        "Cup A",
        "Cup Old",
    ]
    for typed in ("%", "_up", "Cup\x00", "x"):  # no wildcard, nor what PostgreSQL cannot hold
        assert await desk.names(HERE.guild_id, typed) == []


async def test_a_knockout_tiers_post_tells_spectators_how_to_follow_a_match(h: Harness) -> None:
    """A tier's post said each match is played in its own thread, but not which, nor how
    to find it, where a Swiss round's post names the command linking each game's thread."""
    await cup(h, ANN, BOB, CARL, DORA)
    [posted] = [t for t in h.delivery.texts(HERE.channel_id) if "tier 1: ann v" in t]
    assert "follow a match: `/tora-tournament pairings` links its thread" in posted, posted


async def test_a_knockouts_pairings_link_each_matchs_thread(h: Harness) -> None:
    """``/tora-tournament pairings`` named a knockout answered "This server has no Swiss or
    round robin event called ...": a spectator had no way to a match's thread. It lists
    the tier's matches, each linking its thread."""
    desk = await cup(h, ANN, BOB, CARL, DORA)
    caller = Caller(ANN, HERE.guild_id, HERE.channel_id)
    answer = await Tournaments(desk).pairings(caller, "Cup", None)
    text = answer.text
    first, second = thread_of(h, ANN, BOB).channel_id, thread_of(h, CARL, DORA).channel_id
    assert text.startswith("**Cup**, tier 1:"), text
    assert f"1. ann v bob: playing in <#{first}>" in text, text
    assert f"2. carl v dora: playing in <#{second}>" in text, text
    later = await desk.pairings(HERE, "Cup", 2)
    assert later.text == "**Cup** has no tier 2 paired.", later.text


async def test_a_knockout_match_whose_thread_is_not_open_yet_is_said_to_be_opening(
    h: Harness,
) -> None:
    """A match whose thread is not opened yet (its tier just paired, or Discord refused
    for now: the desk opens it again) was listed as "playing in" the tournament's channel,
    where it is not played; it is "opening", as an event's board is."""
    desk = await cup(h, ANN, BOB)
    snapshot = await h.store.tournaments.snapshot(1)
    unopened = replace(snapshot, matches=(replace(snapshot.matches[0], thread_id=None),))
    names = await desk.flow.names(snapshot)
    assert texts.tier_pairings(unopened, names, 1) == "**Cup**, tier 1:\n1. ann v bob: opening"
