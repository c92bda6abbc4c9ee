"""The ladder desk through the match service, on a real SQLite file: the queue pairs players
into a match in a thread of the ladder channel that moves ratings once played, leaving the
queue, leaderboards with provisional marks, profiles with their chart, head-to-head, and
the admins' season close and result removal."""

from __future__ import annotations

import re
import time

import pytest
from backends import raw_sql
from ladder_fixtures import desk_of, play_out, runner_of
from service_helpers import drawn_here

from bot.ladder.desk import LadderRefused
from bot.ladder.queue import HOUR
from bot.service import GuildSettings, NotAllowed, Place, Terms, User, save_guild
from bot.service.testing import PRIVATE, Harness
from storage.competitions.ladders import LadderKey

GUILD, LADDER, LOBBY = 1, 500, 100


def utc_dates(text: str) -> str:
    """``text`` with each Discord date (``<t:N:d>``) as the UTC date it stands for."""
    return re.sub(r"<t:(\d+):d>", lambda m: time.strftime("%Y-%m-%d", time.gmtime(int(m[1]))), text)


ANN, BOB, CID = User(1, "ann"), User(2, "bob"), User(3, "cid")
SHORT1 = LadderKey(GUILD, "short", 1)


async def pair(
    h: Harness, first: User, second: User, board: str = "short", wait: float = 60.0
) -> int:
    """Queue both (from two channels, ``wait`` seconds apart: the gap allowed widens with
    it); the thread their match was opened in."""
    desk = desk_of(h)
    await desk.join_queue(Place(GUILD, LOBBY), first, board)
    h.clock.advance(wait)
    reply = await desk.join_queue(Place(GUILD, LOBBY + 1), second, board)
    assert reply.text.startswith(f"You are paired with {first.name} for a rated {board}-board")
    return max(h.threads.opened)


async def test_a_pairing_opens_a_rated_match_in_a_thread_of_the_ladder_channel(
    h: Harness,
) -> None:
    await save_guild(h.store, GUILD, GuildSettings(ladder_channel=LADDER))
    reply = await desk_of(h).join_queue(Place(GUILD, LOBBY), ANN, "short")
    assert "nobody else is waiting" in reply.text and reply.private
    assert "within 24 hours" in reply.text and "`/tora-ladder leave`" in reply.text
    reply = await desk_of(h).join_queue(Place(GUILD, LOBBY + 1), BOB, "short")
    assert reply.text.startswith("You are paired with ann for a rated short-board ladder match")
    [(thread, (parent, name))] = h.threads.opened.items()
    assert parent == LADDER and name in ("ann vs bob (ladder)", "bob vs ann (ladder)")
    hosted = await h.store.hosting.live_in_channel(thread)
    assert hosted is not None and Terms.from_json(hosted.terms) == Terms(options={"board": "short"})
    await h.settle()
    assert h.delivery.texts(thread)[0].startswith(
        "A rated short-board ladder match, paired from the queue:"
    )
    prompts = {d.user_id for d in h.delivery.log if d.kind == PRIVATE}
    assert prompts == {ANN.id, BOB.id}  # each chooses a setup privately
    await play_out(h, thread, loser=BOB)
    standings = {s.player_id: s for s in await h.store.ladders.standings(SHORT1)}
    assert standings[ANN.id].rating > 1500 > standings[BOB.id].rating


async def test_the_paired_reply_shows_names_with_markdown_as_typed(h: Harness) -> None:
    """Regression: the opponent's name was escaped but the thread's name, which repeats both
    players' names, was shown raw, so "__ann__" turned to underlined "ann" in the reply."""
    await save_guild(h.store, GUILD, GuildSettings(ladder_channel=LADDER))
    desk = desk_of(h)
    await desk.join_queue(Place(GUILD, LOBBY), User(1, "__ann__"), "short")
    reply = await desk.join_queue(Place(GUILD, LOBBY + 1), User(2, "**bob**"), "short")
    assert "\\_\\_ann\\_\\_" in reply.text and "\\*\\*bob\\*\\*" in reply.text
    assert "**bob**" not in reply.text and "__ann__" not in reply.text


async def test_without_a_ladder_channel_the_thread_opens_where_the_longer_waiter_joined(
    h: Harness,
) -> None:
    thread = await pair(h, CID, ANN)
    assert h.threads.opened[thread][0] == LOBBY


async def test_leaving_the_queue(h: Harness) -> None:
    desk = desk_of(h)
    with pytest.raises(LadderRefused, match="not waiting for a ladder match"):
        await desk.leave_queue(GUILD, ANN)
    await desk.join_queue(Place(GUILD, LOBBY), ANN, "short")
    await desk.join_queue(Place(GUILD, LOBBY), ANN, "long")
    with pytest.raises(LadderRefused, match="already waiting"):
        await desk.join_queue(Place(GUILD, LOBBY), ANN, "long")
    reply = await desk.leave_queue(GUILD, ANN, "long")
    assert reply.text.startswith("You have left the long-board ladder queue.")
    reply = await desk.leave_queue(GUILD, ANN)
    assert reply.text.startswith("You have left the short-board ladder queue.")
    reply = await desk.join_queue(Place(GUILD, LOBBY), BOB, "short")
    assert "nobody else is waiting" in reply.text  # ann is gone: bob is not paired with her
    assert h.threads.opened == {}
    with pytest.raises(
        LadderRefused,
        match="`torii`, `ai-short`, `ai-long`, `ai-torishogi`, `ai-torii`, not `huge`",
    ):
        await desk.join_queue(Place(GUILD, LOBBY), ANN, "huge")


async def test_a_player_in_a_rated_match_on_that_board_cannot_queue_for_another(
    h: Harness,
) -> None:
    desk = desk_of(h)
    await h.service.open_match(Place(GUILD, 300), ANN, CID, Terms(options={"board": "long"}))
    await h.service.open_match(Place(GUILD, 301), ANN, CID, Terms(rated=False))
    await desk.join_queue(Place(GUILD, LOBBY), ANN, "short")  # casual: no matter
    with pytest.raises(LadderRefused, match="playing a rated long-board ladder match here already"):
        await desk.join_queue(Place(GUILD, LOBBY), ANN, "long")
    await desk.join_queue(Place(GUILD + 1, LOBBY), ANN, "long")  # another server


async def test_the_playing_refusal_for_a_game_of_one_ladder_names_no_other_board(
    h: Harness,
) -> None:
    """Regression: the refusal offered "the other board" whatever the game, though
    ToriShogi and Torii have one ladder each and no board to choose."""
    here = Place(GUILD, 77)
    await h.service.challenge(here, ANN, BOB, Terms(game="torishogi"))
    await h.service.accept(here, BOB)
    await h.settle()
    with pytest.raises(LadderRefused) as refused:
        await desk_of(h).join_queue(Place(GUILD, LOBBY), ANN, "torishogi")
    text = refused.value.message
    assert "playing a rated ToriShogi ladder match here already" in text
    assert "other board" not in text and "another ladder" in text


async def test_a_queued_player_who_starts_a_rated_match_on_that_board_waits_until_it_ends(
    h: Harness,
) -> None:
    """One ladder match per board at a time holds for the pairing too, not only for joining
    the queue: a queued player who meanwhile plays a rated match on that board stays
    queued, unpaired, until it has ended."""
    desk, runner = desk_of(h), runner_of(h)
    await desk.join_queue(Place(GUILD, LOBBY), ANN, "short")
    elsewhere = Place(GUILD, 300)
    await h.service.challenge(elsewhere, ANN, CID, Terms())  # rated, on the short board
    await h.service.accept(elsewhere, CID)
    reply = await desk.join_queue(Place(GUILD, LOBBY + 1), BOB, "short")
    assert not reply.text.startswith("You are paired"), reply.text
    assert (await runner.tick()).opened == []
    assert [e.player_id for e in await h.store.ladders.queue(GUILD, "short")] == [ANN.id, BOB.id]
    await play_out(h, elsewhere.channel_id, CID)
    h.clock.advance(2 * HOUR)  # her win moved her rating away from bob's: the gap widens
    [opened] = (await runner.tick()).opened
    assert {opened.challenger, opened.opposition} == {ANN, BOB}


async def test_a_rated_match_against_the_ai_does_not_hold_back_the_peoples_ladder(
    h: Harness,
) -> None:
    """Regression: a rated match against the AI counts on the AI ladder, yet it barred its
    player from the people's queue for that board ("You are playing a rated short-board
    ladder match here already"), and kept a queued player from being paired: both compared
    the match's board alone, not the ladder it counts on."""
    desk = desk_of(h)
    await desk.join_queue(Place(GUILD, LOBBY), ANN, "short")
    await h.service.challenge_ai(Place(GUILD, 77), ANN, "easy", Terms(rated=True))
    await h.settle()
    reply = await desk.join_queue(Place(GUILD, LOBBY + 1), BOB, "short")
    assert reply.text.startswith("You are paired with ann"), reply.text
    await h.service.challenge_ai(Place(GUILD, 78), CID, "easy", Terms(rated=True))
    await h.settle()
    reply = await desk.join_queue(Place(GUILD, LOBBY), CID, "short")
    assert "You are in the queue for a rated short-board ladder match" in reply.text


async def test_a_pairing_whose_thread_cannot_be_opened_is_played_in_the_channel(
    h: Harness,
) -> None:
    """Discord refusing the thread for good (no permission, its 1,000 active threads): the
    match is played in the ladder channel itself, and the reply says where."""
    await save_guild(h.store, GUILD, GuildSettings(ladder_channel=LADDER))
    h.threads.no_threads.add(LADDER)
    desk = desk_of(h)
    await desk.join_queue(Place(GUILD, LOBBY), ANN, "short")
    paired = await desk.join_queue(Place(GUILD, LOBBY), BOB, "short")
    assert f"ladder match, in <#{LADDER}> (Discord would not open a thread" in paired.text
    live = await h.store.hosting.live_in_channel(LADDER)
    assert live is not None and {live.challenger_id, live.opposition_id} == {ANN.id, BOB.id}
    assert await h.store.ladders.queue(GUILD, "short") == []


async def test_a_pairing_with_neither_a_thread_nor_a_free_channel_tells_both_players(
    h: Harness,
) -> None:
    await save_guild(h.store, GUILD, GuildSettings(ladder_channel=LADDER))
    h.threads.no_threads.add(LADDER)
    await h.service.open_match(Place(GUILD, LADDER), CID, User(4, "dan"))  # the channel's
    desk = desk_of(h)
    await desk.join_queue(Place(GUILD, LOBBY), ANN, "short")
    with pytest.raises(LadderRefused, match="I could not open it"):
        await desk.join_queue(Place(GUILD, LOBBY), BOB, "short")
    await h.settle()
    [notice] = h.delivery.user(ANN.id)
    assert notice.message.text.startswith("You were paired with bob for a rated short-board")
    assert h.delivery.user(BOB.id) == []  # bob's reply said it
    assert await h.store.ladders.queue(GUILD, "short") == []


async def test_leaderboards_mark_provisional_ratings_and_page_as_images(h: Harness) -> None:
    desk = desk_of(h)
    with pytest.raises(LadderRefused, match="not had any season yet"):
        await desk.leaderboard(GUILD, "short")
    await play_out(h, await pair(h, ANN, BOB), loser=BOB)
    reply = await desk.leaderboard(GUILD, "short")
    lines = reply.text.splitlines()
    assert lines[0] == "Short-board ladder, season 1 - page 1 of 1"
    assert lines[1].startswith("1. ann 1662? (1-0-0") and lines[2].startswith("2. bob 1338?")
    assert lines[-1].startswith("? provisional")
    [image] = reply.files
    assert image.name == "ladder.png" and image.data.startswith(b"\x89PNG")
    assert not reply.private


async def test_a_profile_has_its_rating_chart_record_streak_and_match_links(
    h: Harness,
) -> None:
    desk = desk_of(h)
    with pytest.raises(LadderRefused, match="never played here"):
        await desk.profile(GUILD, ANN.id)
    first = await pair(h, ANN, BOB)
    await play_out(h, first, loser=BOB)
    second = await pair(h, ANN, CID, wait=2 * HOUR)  # 162 points apart
    await play_out(h, second, loser=CID)
    reply = await desk.profile(GUILD, ANN.id)
    newest, oldest = [r.match_id for r in await h.store.ladders.results(SHORT1)]
    head, board, *recent = utc_dates(reply.text).splitlines()
    assert head == "ann on the ladders:"
    assert board.startswith("Short-board ladder, season 1: rating 1")
    assert board.endswith("rank 1 of 3; 2 won, 0 lost, 0 drawn; won the last 2.")
    assert recent == [
        f"- 2027-01-15 won against cid: `/tora record number:{newest}`",
        f"- 2027-01-15 won against bob: `/tora record number:{oldest}`",
        "? provisional: too few recent games for a settled rating.",
    ]
    [chart] = reply.files
    assert chart.name == "rating-short.png" and chart.data.startswith(b"\x89PNG")
    with pytest.raises(LadderRefused, match="no rated games on the long-board ladder here yet"):
        await desk.profile(GUILD, ANN.id, "long")
    record = await desk.head_to_head(GUILD, BOB.id, ANN.id, "short")
    assert record.text.splitlines() == [
        "bob against ann on the short-board ladder, season 1: bob won 0, ann won 1, 0 drawn.",
        f"- `/tora record number:{oldest}`",
    ]
    with pytest.raises(LadderRefused, match="two different players"):
        await desk.head_to_head(GUILD, ANN.id, ANN.id, "short")


async def test_a_leaderboard_and_a_rating_chart_are_drawn_in_a_drawing_worker(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A leaderboard's image and a profile's rating chart were drawn in threads of the bot's
    process, holding the interpreter lock every channel's commands wait on, where every
    other picture goes to the drawing workers (``MatchService.paint``)."""
    import render.ladder
    import render.rating_chart

    with drawn_here(monkeypatch, h.running, render.ladder, render.rating_chart) as drawn:
        desk = desk_of(h)
        await play_out(h, await pair(h, ANN, BOB), loser=BOB)
        board = await desk.leaderboard(GUILD, "short")
        profile = await desk.profile(GUILD, ANN.id)
    assert all(r.files[0].data.startswith(b"\x89PNG") for r in (board, profile))
    assert drawn == [], f"drawn in the bot's own process: {drawn}"


async def test_a_profile_and_the_seasons_give_dates_in_the_reader_s_time_zone(
    h: Harness,
) -> None:
    """A profile's games and a season's dates were UTC dates ("2027-01-15"): a game played
    in the evening in America read as the next day. They are Discord dates (``<t:N:d>``),
    each reader's own, in their own notation."""
    desk = desk_of(h)
    await play_out(h, await pair(h, ANN, BOB), loser=BOB)
    [result] = await h.store.ladders.results(SHORT1)
    recent = (await desk.profile(GUILD, ANN.id)).text.splitlines()[2]
    assert recent.startswith(f"- <t:{int(result.played_at)}:d> won against bob"), recent
    await desk.close_season(GUILD, "short", CID, admin=True)
    seasons = (await desk.seasons(GUILD, "short")).text
    assert not re.search(r"\d{4}-\d\d-\d\d", seasons) and ":d> to <t:" in seasons, seasons


async def test_only_admins_close_a_season_and_its_standings_stay_viewable(h: Harness) -> None:
    desk = desk_of(h)
    with pytest.raises(LadderRefused, match="no season to close"):
        await desk.close_season(GUILD, "short", ANN, admin=True)
    await play_out(h, await pair(h, ANN, BOB), loser=BOB)
    with pytest.raises(NotAllowed, match="Only server admins can close a ladder season"):
        await desk.close_season(GUILD, "short", ANN, admin=False)
    reply = await desk.close_season(GUILD, "short", CID, admin=True)
    assert reply.text.startswith("cid closed season 1 of the short-board ladder")
    assert (
        "`/tora-ladder show board:short season:1`" in reply.text and "Season 2 starts" in reply.text
    )
    archived = await desk.leaderboard(GUILD, "short", season=1)
    assert "1. ann 1662?" in archived.text and "Final standings" in archived.text
    assert "No rated games yet." in (await desk.leaderboard(GUILD, "short")).text
    seasons = utc_dates((await desk.seasons(GUILD, "short")).text)
    assert "- Season 1: 2027-01-15 to 2027-01-15, 2 players, won by ann (1662)." in seasons
    assert "- Season 2: open since 2027-01-15." in seasons


async def test_a_profile_after_a_season_closed_shows_the_players_last_season(
    h: Harness,
) -> None:
    """Regression: once an admin closed a season, every profile read the new, empty season
    alone and said "ann has no rated games on this server's ladders yet", though she had
    played the closed one."""
    desk = desk_of(h)
    await play_out(h, await pair(h, ANN, BOB), loser=BOB)
    await desk.close_season(GUILD, "short", CID, admin=True)
    reply = await desk.profile(GUILD, ANN.id)
    head, board, closed, *recent = utc_dates(reply.text).splitlines()
    assert head == "ann on the ladders:"
    assert board.startswith("Short-board ladder, season 1: rating 1")
    assert closed == "Final standings: this season closed on 2027-01-15."
    assert recent[0].startswith("- 2027-01-15 won against bob")
    await play_out(h, await pair(h, BOB, ANN), loser=ANN)  # season 2 has her games now
    board = (await desk.profile(GUILD, ANN.id)).text.splitlines()[1]
    assert board.startswith("Short-board ladder, season 2: rating 1")


async def test_an_admin_removes_a_result_with_a_reason_and_ratings_are_recomputed(
    h: Harness,
) -> None:
    desk = desk_of(h)
    await play_out(h, await pair(h, ANN, BOB), loser=BOB)
    await play_out(h, await pair(h, CID, ANN, wait=2 * HOUR), loser=ANN)
    shared = (await h.store.ladders.results(SHORT1))[-1].match_id  # ann beat bob
    with pytest.raises(NotAllowed, match="Only server admins"):
        await desk.remove_result(GUILD, shared, BOB, "shared account", admin=False)
    with pytest.raises(LadderRefused, match="Give a reason"):
        await desk.remove_result(GUILD, shared, CID, "  ", admin=True)
    reply = await desk.remove_result(GUILD, shared, CID, "shared account", admin=True)
    assert "recomputed from the 1 result that still counts" in reply.text and reply.private
    logged = await raw_sql(
        h.store.config, "SELECT removed_by, reason, removed_at FROM ladder_removals"
    )
    assert logged == [(CID.id, "shared account", h.clock.now())]
    board = await desk.leaderboard(GUILD, "short")
    assert "bob" not in board.text and "1. cid 1662?" in board.text
    profile = await desk.profile(GUILD, ANN.id)
    assert f"(removed from the ladder): `/tora record number:{shared}`" in profile.text
    with pytest.raises(LadderRefused, match="already removed"):
        await desk.remove_result(GUILD, shared, CID, "twice", admin=True)


async def test_a_removal_reason_holding_a_control_character_is_refused(h: Harness) -> None:
    """A reason pasted with a NUL in it: refused as a tournament's name is, on both
    backends, where PostgreSQL's text (which cannot hold a NUL) failed the removal with
    "the database did not answer"."""
    desk = desk_of(h)
    await play_out(h, await pair(h, ANN, BOB), loser=BOB)
    shared = (await h.store.ladders.results(SHORT1))[-1].match_id
    with pytest.raises(LadderRefused, match="control characters"):
        await desk.remove_result(GUILD, shared, CID, "shared\x00account", admin=True)
    assert await raw_sql(h.store.config, "SELECT reason FROM ladder_removals") == []
    reply = await desk.remove_result(GUILD, shared, CID, "shared account", admin=True)
    assert "off the ladder" in reply.text


async def test_a_ladder_match_in_a_thread_is_pointed_at_in_the_ladder_channel(
    h: Harness,
) -> None:
    """A ladder match opened in a thread of the ladder channel left that channel silent: a
    spectator there never learnt a game had begun (a challenge with a thread says "... is
    in #thread" where it was made). The channel now gets one post pointing at the thread."""
    await save_guild(h.store, GUILD, GuildSettings(ladder_channel=LADDER))
    thread = await pair(h, ANN, BOB)
    await h.settle()
    [pointer] = h.delivery.texts(LADDER)
    assert f"<#{thread}>" in pointer and "ann" in pointer and "bob" in pointer, pointer
    assert pointer.startswith("A rated ladder match has begun in its own thread:"), pointer
