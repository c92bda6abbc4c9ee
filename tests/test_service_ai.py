"""Matches against the host's AI players (issue 17): a challenge to the AI begins at once,
the AI chooses its setup and plays its turns like a player (posted, never messaged or
mentioned), answers proposals, gives hints in practice games only, and rated games against
it go on the AI ladder, never into people's ratings."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from types import SimpleNamespace

import event_helpers as events
import pytest
from ladder_fixtures import GUILD, desk_of, runner_of

import ai
from bot.ladder.boards import Boards
from bot.ladder.errors import NotFound
from bot.service import (
    GuildSettings,
    Place,
    Refused,
    Settings,
    Terms,
    User,
    save_guild,
    setup_phase,
)
from bot.service.hints import Hint, hint_text
from bot.service.robots import robot
from bot.service.testing import Harness, ManualClock
from rules import Side
from rules.tora import Game, Options
from storage import Config

HERE = Place(guild_id=1, channel_id=100)
ANN = User(1, "ann")
HOUR = 3600.0
AI_ENDED = "AI (easy) (Opposition) ended their turn:"


def texts(h: Harness) -> list[str]:
    return h.delivery.texts(HERE.channel_id)


async def practice(h: Harness, level: str = "easy", **terms: object) -> None:
    terms = {"turn_seconds": 10 * HOUR, "rated": False, **terms}
    await h.service.challenge_ai(HERE, ANN, level, Terms(**terms))
    await h.settle()


async def test_a_torishogi_match_against_the_ai_plays_at_once(h: Harness) -> None:
    reply = await h.service.challenge_ai(
        HERE, ANN, "normal", Terms(game="torishogi", rated=False, turn_seconds=HOUR)
    )
    assert reply.text.startswith("Your match of ToriShogi against AI (normal) has begun: ")
    await h.settle()
    assert texts(h)[0].startswith("ann starts a practice match of ToriShogi against AI (normal).")
    await h.service.play(HERE, ANN, "c3c4")
    await h.service.end_turn(HERE, ANN)
    await h.settle()
    answer = texts(h)[-1]
    assert answer.startswith("AI (normal) (Opposition) ended their turn:")
    assert "ann (Challenger) to act" in answer
    assert all(d.user_id is None or d.user_id > 0 for d in h.delivery.log)
    assert all(u > 0 for m in h.delivery.channel(HERE.channel_id) for u in m.mentions)


async def test_the_master_ai_plays_a_torishogi_match(h: Harness) -> None:
    reply = await h.service.challenge_ai(
        HERE, ANN, "master", Terms(game="torishogi", rated=False, turn_seconds=HOUR)
    )
    assert reply.text.startswith("Your match of ToriShogi against AI (master) has begun: ")
    await h.settle()
    await h.service.play(HERE, ANN, "c3c4")
    await h.service.end_turn(HERE, ANN)
    await h.settle()
    assert texts(h)[-1].startswith("AI (master) (Opposition) ended their turn:")


async def test_the_ai_chooses_its_tora_setup_and_moves_first_when_it_is_the_challenger(
    h: Harness,
) -> None:
    await practice(h, options={"board": "long", "assassins": True}, roles="random")
    hosted = (await h.service.matches_of(ANN.id))[0]
    ai_side = hosted.side_of(robot("easy").id)
    assert ai_side is not None
    assert "AI (easy) has finished setting up" in "\n".join(texts(h))
    await h.service.setup(HERE, ANN, {"strategy": "defensive", "ruler": "K", "assassin": "none"})
    await h.settle()
    starts = [t for t in texts(h) if "The game begins" in t]
    assert len(starts) == 1
    if ai_side == Side.CHALLENGER:  # it played its first turn at once
        assert texts(h)[-1].startswith("AI (easy) (Challenger) ended their turn:")
    # the AI never receives a message, and nobody learns where its Assassin starts
    assert all(d.user_id != robot("easy").id for d in h.delivery.log)


async def test_hints_in_practice_games_only(h: Harness) -> None:
    await practice(h, game="torii")
    await h.service.setup(HERE, ANN, {"spirit": "Deer"})
    await h.settle()
    hint = await h.service.hint(HERE, ANN)
    assert hint.private
    assert hint.text.startswith("The AI (hard) would play: ")
    suggested = hint.text.split("would play: ")[1].split(".\n")[0]
    await h.service.play(HERE, ANN, suggested)  # the hint is a legal turn
    await h.service.end_turn(HERE, ANN)
    await h.settle()  # the AI answered at once: ann's turn again, and another hint
    assert (await h.service.hint(HERE, ANN)).text.startswith("The AI (hard) would play: ")


async def test_no_hints_in_rated_games(h: Harness) -> None:
    await h.service.challenge_ai(HERE, ANN, "easy", Terms(game="torishogi"))
    await h.settle()
    with pytest.raises(Refused, match="Hints are given in practice games only"):
        await h.service.hint(HERE, ANN)


async def test_no_hints_nor_pauses_in_an_unrated_event_game_against_the_ai(h: Harness) -> None:
    """Regression: in an (unrated, the default) Swiss event with ``ai_fill``, the player the
    odd round leaves over plays the AI, a game that counts in the standings (E11); it was
    taken for a practice game, and ``/tora hint`` (and the Hint button) gave that player the
    ``hard`` AI's turn, help no other entrant had; and the AI agreed to a pause it never
    resumes, holding the round up. Only the practice games a player opens with
    ``/tora challenge ai:`` give hints and pauses."""
    desk = await events.desk_of(h)
    await events.create(desk, "Odd", "torishogi", "swiss", rounds=2, ai_fill="easy")
    for n in (1, 2, 3):
        await desk.join(events.HERE, events.user(n), "Odd")
    await desk.begin(events.HERE, events.ADMIN, "Odd", admin=True)
    await h.settle()
    snap = await events.snapshot(h, "Odd")
    [against_ai] = [p for p in snap.pairings if p.second_id == robot("easy").id]
    hosted = await h.store.hosting.get(against_ai.hosted_id)
    place = Place(events.GUILD, hosted.channel_id)
    with pytest.raises(Refused, match="Hints are given in practice games only"):
        await h.service.hint(place, events.user(against_ai.first_id))
    await h.service.pause(place, events.user(against_ai.first_id))
    await h.settle()
    said = h.delivery.texts(hosted.channel_id)[-1]
    assert said.endswith(
        f"declines p{against_ai.first_id}'s pause proposal. The AI agrees to a pause in "
        "practice games only: it never resumes a match itself, and no other match may wait "
        "paused for ever."
    ), said


async def test_a_rated_game_against_the_ai_goes_on_the_ai_ladder(h: Harness) -> None:
    await h.service.challenge_ai(HERE, ANN, "hard", Terms(game="torishogi"))
    await h.settle()
    await h.service.resign(HERE, ANN)
    await h.settle()
    boards = Boards(h.store)
    page = await boards.page(HERE.guild_id, "ai-torishogi")
    assert page.text().startswith("AI ToriShogi ladder, season 1")
    assert "AI (hard)" in page.text()
    with pytest.raises(NotFound, match="has not had any season yet"):
        await boards.page(HERE.guild_id, "torishogi")


async def test_the_ai_declines_a_draw_when_it_is_not_worse_and_agrees_to_a_pause(
    h: Harness,
) -> None:
    await practice(h, game="torishogi")
    await h.service.draw(HERE, ANN)
    await h.settle()
    assert texts(h)[-1] == "AI (easy) (Opposition) declines ann's draw offer."
    await h.service.pause(HERE, ANN)
    await h.settle()
    assert texts(h)[-1].startswith("ann and AI (easy) agreed to pause")


async def test_the_torii_ai_takes_no_draw_offered_after_the_first_turn(h: Harness) -> None:
    """Regression: in a rated Torii match against ``AI (master)`` (its ladder), ann placed
    three Followers with her first turn and offered a draw while the AI thought: the AI took
    it, "standing worse" by three Followers, only the turn ann had just had (in Torii the side
    to act is behind by what the other has just placed). Any opening turn drew against the
    strongest AI. The position is level: it declines."""
    await h.service.challenge_ai(
        HERE,
        ANN,
        "master",
        Terms(game="torii", rated=True, turn_seconds=10 * HOUR, roles="challenger"),
    )
    await h.settle()
    await h.service.setup(HERE, ANN, {"spirit": "Kitsune"})
    await h.settle()
    gate = await _thinking_after(h, "3 c3 c4 c6")
    await h.service.draw(HERE, ANN)
    gate.set()
    await h.settle()
    posted = "\n".join(texts(h))
    assert "AI (master) (Opposition) declines ann's draw offer." in posted, posted[-1500:]
    assert "agreed to a draw" not in posted, posted[-1500:]


async def test_the_ai_declines_a_pause_of_a_rated_match_and_says_why(h: Harness) -> None:
    """Regression: the AI agreed to every pause and never resumes (docs/SERVICE.md: pause
    needs both players so that neither can hold a match hostage): a player losing a rated
    match against it paused it, and it stayed live and unrated for good, counting against
    the server's cap all the while. It pauses practice games only now."""
    await h.service.challenge_ai(
        HERE, ANN, "easy", Terms(game="torishogi", rated=True, turn_seconds=HOUR)
    )
    await h.settle()
    await h.service.pause(HERE, ANN)
    await h.settle()
    assert texts(h)[-1] == (
        "AI (easy) (Opposition) declines ann's pause proposal. The AI agrees to a pause in "
        "practice games only: it never resumes a match itself, and no other match may wait "
        "paused for ever."
    )
    [hosted] = await h.service.matches_of(ANN.id)
    assert hosted.paused_left is None


async def test_one_player_has_at_most_three_matches_against_the_ai(h: Harness) -> None:
    for channel in (100, 101, 102):
        await h.service.challenge_ai(Place(1, channel), ANN, "easy", Terms(game="torishogi"))
    with pytest.raises(Refused, match="You already play 3 matches against the AI"):
        await h.service.challenge_ai(Place(1, 103), ANN, "easy", Terms(game="torishogi"))
    with pytest.raises(Refused, match="The AI plays `easy`, `normal`, `hard` or `master`"):
        await h.service.challenge_ai(Place(1, 104), User(2, "bob"), "godlike")


async def test_challenges_to_the_ai_sent_together_keep_within_the_caps(db: Config) -> None:
    """Regression: the caps' check (``robots.check_challenge``) and the opening were apart,
    so challenges sent together all passed it: a player past their three matches against
    the AI (in one server or several), a server past its cap."""
    h = Harness(db, settings=Settings(burst=1000, every=0.001, ai_processes=0, guild_ai_matches=2))
    await h.open()
    try:
        terms = {"game": "torishogi", "rated": False, "turn_seconds": HOUR}
        await h.service.challenge_ai(Place(3, 300), ANN, "easy", Terms(**terms))
        await h.service.challenge_ai(Place(4, 400), ANN, "easy", Terms(**terms))
        together = [Place(5, 500), Place(6, 600)]  # ann's third and fourth, apart
        together += [Place(1, 100 + n) for n in range(3)]  # three in a server that takes 2
        users = [ANN, ANN, User(2, "bob"), User(3, "cat"), User(4, "dan")]
        await asyncio.gather(
            *(
                h.service.challenge_ai(place, user, "easy", Terms(**terms))
                for place, user in zip(together, users, strict=True)
            ),
            return_exceptions=True,
        )
        await h.settle()
        assert len(await h.service.matches_of(ANN.id)) == 3
        assert await h.store.live_ai_matches(1) == 2
    finally:
        await h.close()


async def test_a_server_has_at_most_its_cap_of_live_matches_against_the_ai(db: Config) -> None:
    """The service's cap (``Settings.guild_ai_matches``) unless the server's admins set
    theirs; matches in other servers do not count."""
    h = Harness(db, settings=Settings(burst=1000, every=0.001, ai_processes=0, guild_ai_matches=2))
    await h.open()
    try:
        bob, cat = User(2, "bob"), User(3, "cat")
        await h.service.challenge_ai(Place(1, 100), ANN, "easy", Terms(game="torishogi"))
        await h.service.challenge_ai(Place(1, 101), bob, "easy", Terms(game="torishogi"))
        await h.service.challenge_ai(Place(2, 200), cat, "easy", Terms(game="torishogi"))
        with pytest.raises(Refused, match="This server already has 2 matches against the AI"):
            await h.service.challenge_ai(Place(1, 102), cat, "easy", Terms(game="torishogi"))
        await save_guild(h.store, 1, GuildSettings(ai_matches=3))
        await h.service.challenge_ai(Place(1, 102), cat, "easy", Terms(game="torishogi"))
        await save_guild(h.store, 2, GuildSettings(ai_matches=0))
        with pytest.raises(Refused, match="admins have turned matches against the AI off"):
            await h.service.challenge_ai(Place(2, 201), ANN, "easy", Terms(game="torishogi"))
    finally:
        await h.close()


async def test_the_ai_fills_the_ladder_queue_only_within_the_servers_cap(h: Harness) -> None:
    desk, runner = desk_of(h), runner_of(h)
    await save_guild(h.store, GUILD, GuildSettings(ai_fill_after=2 * HOUR, ai_matches=0))
    await desk.join_queue(Place(GUILD, 100), ANN, "torishogi")
    h.clock.advance(3 * HOUR)
    assert (await runner.tick()).opened == []
    assert [e.player_id for e in await h.store.ladders.queue(GUILD, "torishogi")] == [ANN.id]
    await save_guild(h.store, GUILD, GuildSettings(ai_fill_after=2 * HOUR))
    [opened] = (await runner.tick()).opened
    assert {opened.challenger.name, opened.opposition.name} == {"ann", "AI (normal)"}


async def paired_with_the_ai_not_open(h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """ann paired with the AI by the ladder's fill, her match not open (Discord away for a
    moment: the pairing is kept for the next tick)."""
    await desk_of(h).join_queue(Place(GUILD, 100), ANN, "torishogi")
    h.clock.advance(3 * HOUR)
    open_thread = h.threads.open_thread

    async def away(channel_id: int, name: str) -> int:
        raise ConnectionError("Discord is away for a moment (simulated)")

    monkeypatch.setattr(h.threads, "open_thread", away)
    assert (await runner_of(h).tick()).opened == []
    monkeypatch.setattr(h.threads, "open_thread", open_thread)


async def test_the_ai_fill_counts_a_pairing_whose_match_is_not_open_yet_in_the_servers_cap(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: a pairing with the AI whose match could not be opened yet (Discord away
    for a moment: it is kept for the next tick) took no room, so the next tick paired
    another player with the AI in it, and opened both: two matches where the server
    allows one."""
    desk, runner = desk_of(h), runner_of(h)
    await save_guild(h.store, GUILD, GuildSettings(ai_fill_after=2 * HOUR, ai_matches=1))
    await paired_with_the_ai_not_open(h, monkeypatch)
    await desk.join_queue(Place(GUILD, 101), User(2, "bob"), "torishogi")
    h.clock.advance(3 * HOUR)
    [opened] = (await runner.tick()).opened
    assert ANN.name in (opened.challenger.name, opened.opposition.name)
    assert await h.store.live_ai_matches(GUILD) == 1


async def test_a_pairing_with_the_ai_not_open_yet_counts_in_the_player_s_own_cap(
    db: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: ann's ladder pairing with the AI whose match could not be opened yet
    (kept for the next tick) was not counted among her matches against the AI, so a
    challenge to the AI passed her cap of one, and the next tick opened the pairing's
    match too: two. Counted, the refusal told her to finish or resign a match she did not
    have yet."""
    h = Harness(db, settings=Settings(burst=1000, every=0.001, ai_processes=0, ai_matches=1))
    await h.open()
    try:
        await save_guild(h.store, GUILD, GuildSettings(ai_fill_after=2 * HOUR))
        await paired_with_the_ai_not_open(h, monkeypatch)
        with pytest.raises(Refused) as refused:
            await h.service.challenge_ai(Place(GUILD, 200), ANN, "easy", Terms(game="torishogi"))
        # she has no match to finish or resign yet: she is told what counts, and to wait
        assert str(refused.value) == (
            "You already have 1 match against the AI, the most one player may have at once, "
            "counting your ladder pairing with the AI whose match has yet to open: once it "
            "is open, finish or resign one first."
        )
        await runner_of(h).tick()
        assert len(await h.service.matches_of(ANN.id)) == 1
    finally:
        await h.close()


async def test_a_player_at_their_cap_with_a_live_match_and_a_pairing_is_told_to_end_one_now(
    db: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ann, with a match against the AI under way and a ladder pairing with it not open
    yet, at her cap of two, was told to finish or resign one "once it is open", though she
    may end the one under way now."""
    h = Harness(db, settings=Settings(burst=1000, every=0.001, ai_processes=0, ai_matches=2))
    await h.open()
    try:
        await h.service.challenge_ai(Place(GUILD, 300), ANN, "easy", Terms(game="torishogi"))
        await save_guild(h.store, GUILD, GuildSettings(ai_fill_after=2 * HOUR))
        await paired_with_the_ai_not_open(h, monkeypatch)
        with pytest.raises(Refused) as refused:
            await h.service.challenge_ai(Place(GUILD, 200), ANN, "easy", Terms(game="torishogi"))
        assert str(refused.value).endswith("Finish or resign one of them first."), refused.value
    finally:
        await h.close()


async def test_the_ai_fills_the_ladder_queue_only_for_players_within_their_own_cap(
    h: Harness,
) -> None:
    """Regression: a player with three matches against the AI (the most one may have at
    once) waiting in a ladder queue was paired with the AI all the same, a fourth
    (``queue.ai_pairs`` kept only within the server's cap); they wait for a person now."""
    desk, runner = desk_of(h), runner_of(h)
    await save_guild(h.store, GUILD, GuildSettings(ai_fill_after=2 * HOUR))
    most = h.service._ctx.settings.ai_matches
    for n in range(most):
        await h.service.challenge_ai(
            Place(GUILD, 300 + n), ANN, "easy", Terms(game="torishogi", rated=False)
        )
    await desk.join_queue(Place(GUILD, 100), ANN, "torishogi")
    h.clock.advance(3 * HOUR)
    assert (await runner.tick()).opened == []
    assert len(await h.service.matches_of(ANN.id)) == most
    assert [e.player_id for e in await h.store.ladders.queue(GUILD, "torishogi")] == [ANN.id]


async def test_two_ai_players_play_a_whole_match_through_the_host(h: Harness) -> None:
    terms = Terms(game="torii", rated=False, turn_seconds=HOUR)
    await h.service.open_match(HERE, robot("easy"), robot("normal"), terms)
    await h.settle()
    assert await h.service.matches_of(robot("easy").id) == []
    assert "wins" in texts(h)[-1] or "draw" in texts(h)[-1]


async def test_a_turn_the_rules_refuse_is_logged_and_a_random_legal_turn_played_instead(
    h: Harness, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """An engine's bug must not stop a match: its refused turn is logged, the match reloaded
    as stored, and the AI's next try plays a random legal turn."""
    real = ai.decide

    def buggy(game, level, seconds, seed):
        return ["a1a9"] if level != "random" else real(game, level, seconds, seed)

    monkeypatch.setattr(ai, "decide", buggy)
    await practice(h, game="torishogi")
    await h.service.play(HERE, ANN, "c3c4")
    await h.service.end_turn(HERE, ANN)
    await h.settle()
    assert texts(h)[-1].startswith("AI (easy) (Opposition) ended their turn:")
    assert any("the AI in channel" in r.getMessage() for r in caplog.records)


@contextlib.asynccontextmanager
async def two_processes(db: Config, clock: ManualClock) -> AsyncIterator[tuple[Harness, Harness]]:
    """Two bot processes sharing one database (and a clock), AI turns searched in place."""
    shared = Settings(burst=1000, every=0.001, ai_processes=0, ai_seconds=0.05, poll_seconds=1.0)
    first, second = (Harness(db, settings=shared, clock=clock) for _ in range(2))
    await first.open()
    await second.open()
    try:
        yield first, second
    finally:
        await first.close()
        await second.close()


async def test_another_process_takes_up_the_ai_s_turn_when_the_one_playing_it_died(
    db: Config,
) -> None:
    clock = ManualClock()
    async with two_processes(db, clock) as (first, second):
        await practice(first, game="torishogi")
        hosted = (await first.service.matches_of(ANN.id))[0]
        # the first process took the AI's turn (its lease), then died before playing it
        assert await first.store.sharing.claim(f"ai:{hosted.id}", clock.now(), 60.0)
        await second.service.play(HERE, ANN, "c3c4")
        await second.service.end_turn(HERE, ANN)
        await second.settle()
        assert not texts(second)[-1].startswith("AI (easy) (Opposition) ended their turn:")
        clock.advance(60.0)  # its lease ran out
        await second.service.look_after_robots()
        await second.settle()
        assert texts(second)[-1].startswith("AI (easy) (Opposition) ended their turn:")


async def test_the_ai_answers_at_once_a_turn_ended_through_another_process(db: Config) -> None:
    """Regression: the AI lease ``ai:<id>`` was never given back after the AI played, so a
    player's next turn ended through another process (the web board behind a proxy) found
    it held by the first: neither played, and the AI sat silent until the lease ran out and
    a look over the AI matches took it up (DEPLOY.md: the process that handled the change
    plays the AI's turn)."""
    clock = ManualClock()
    async with two_processes(db, clock) as (first, second):
        await practice(first, game="torishogi")
        await first.service.play(HERE, ANN, "c3c4")
        await first.service.end_turn(HERE, ANN)
        await first.settle()
        assert texts(first)[-1].startswith(AI_ENDED)
        # ann's next turn through the second process: it plays the AI's answer
        await second.service.play(HERE, ANN, "d3d4")
        await second.service.end_turn(HERE, ANN)
        await second.settle()
        await first.settle()
        answered = [t for t in (*texts(first), *texts(second)) if t.startswith(AI_ENDED)]
        assert len(answered) == 2


def test_a_hint_says_how_to_get_from_what_was_staged_to_the_turn_it_suggests() -> None:
    ctx = SimpleNamespace(cmd=Settings().cmd)
    game = Game(Options(board="short"))  # (the hints' texts are what is worded here)

    def said(staged: tuple[str, ...], kept: tuple[str, ...], texts: list[str]) -> str:
        hint = Hint(game, staged, staged, len(kept))
        return hint_text(ctx, hint, texts, [*kept, *texts])  # type: ignore[arg-type]

    turn = ["S v4h8-v4h9", "A v5h7-v4h6"]
    assert said((), (), turn).endswith(
        "Play this stages it (or `/tora act` `S v4h8-v4h9; A v5h7-v4h6`), then `/tora end`; or "
        "find your own move."
    )
    assert "It starts with what you have staged (`S v4h8-v4h9`): Play this adds the rest (or " in (
        said(("S v4h8-v4h9",), (), turn)
    )
    assert "That is what you have staged: end your turn with `/tora end`." in said(
        tuple(turn), (), turn
    )
    differs = said(("S v4h8-v4h9", "G v5h9-v4h7"), (), turn)
    assert "take back what you staged with `/tora undo` 2 times" in differs
    searched = said(("C v2h2 search", "S v4h8-v4h9"), ("C v2h2 search",), ["A v5h7-v4h6"])
    assert searched.startswith("The AI (hard) would play: C v2h2 search; A v5h7-v4h6.\n")
    assert "take back what you staged after your search with `/tora undo`, then" in searched
    assert said((), (), []) == "The AI (hard) would end the turn as it stands: `/tora end`."
    assert said(("S v4h8-v4h9",), (), []).startswith(
        "The AI (hard) would end this turn without another action; you have staged "
    )
    torishogi = Hint(game, ("Falcon 4f-5f",), ("d2c2",), 0)  # as read, and as the engine writes
    assert "That is what you have staged" in hint_text(ctx, torishogi, ["d2c2"], ["Falcon 4f-5f"])  # type: ignore[arg-type]


async def test_an_ai_that_searches_for_the_assassin_plays_on_once_it_knows_what_it_found(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R43: what a search finds decides the rest of the turn (a found Assassin may be taken
    as a free action; a searching piece that found nothing may do nothing else, but the
    other pieces may). Regression: the AI played its search as a whole turn and gave up
    its other actions. Now the host plays the search alone and asks the engine again."""
    asked: list[int] = []
    monkeypatch.setattr(ai, "decide", searching_first(asked))
    await practice(h, options={"board": "long", "assassins": True})
    await h.service.setup(HERE, ANN, {"strategy": "defensive", "ruler": "K", "assassin": "v8h17"})
    await h.service.end_turn(HERE, ANN)  # ann passes
    await h.settle()
    ended = [t for t in texts(h) if t.startswith("AI (easy) (Opposition) ended their turn:")]
    assert asked[:2] == [0, 1]  # the search alone, then the rest of the turn after it
    [turn] = ended
    actions = [line for line in turn.splitlines() if line.startswith("- ")]
    assert "search" in actions[0] and len(actions) > 1


def searching_first(asked: list[int] | None = None) -> Callable[..., list[str]]:
    """An engine that opens its turn with a search (R43) and then thinks as the real one;
    each time it is asked, how many actions were staged goes to ``asked``."""
    real = ai.decide

    def decide(game, level, seconds, seed):
        if asked is not None:
            asked.append(len(game.staged()))
        if game.staged():
            return real(game, level, seconds, seed)
        searches = [a for a in game.legal_actions() if getattr(a, "kind", None) == "search"]
        return [game.notation(searches[0])]

    return decide


async def _gated_search(h: Harness) -> tuple[asyncio.Event, asyncio.Event]:
    """The AI's searches wait for ``gate``; ``started`` is set once one has begun."""
    robots = h.service._robots
    search = robots.search
    started, gate = asyncio.Event(), asyncio.Event()

    async def gated(*args: object) -> list[str]:
        started.set()
        await gate.wait()
        return await search(*args)

    robots.search = gated  # type: ignore[method-assign]
    return started, gate


async def _thinking_after(h: Harness, turn: str) -> asyncio.Event:
    """ann plays ``turn`` and ends it; returns once the AI's search for its answer has begun,
    held until the gate returned is set."""
    started, gate = await _gated_search(h)
    await h.service.play(HERE, ANN, turn)
    await h.service.end_turn(HERE, ANN)
    await asyncio.wait_for(started.wait(), 30)
    return gate


async def test_a_takeback_asked_while_the_ai_thinks_is_answered_before_its_turn(
    h: Harness,
) -> None:
    """Regression: ann ended her turn and at once asked to take it back while the AI (which
    agrees to every takeback in a practice game) was still searching its answer; the AI
    played its searched turn over the standing request, which lapsed unanswered."""
    await practice(h, game="torishogi", turn_seconds=HOUR)
    gate = await _thinking_after(h, "c3c4")
    await h.service.takeback(HERE, ANN)
    gate.set()
    await h.settle()
    posted = "\n".join(texts(h))
    assert AI_ENDED not in posted, posted[-1500:]
    assert "AI (easy) (Opposition) accepted ann's takeback" in posted, posted[-1500:]


async def test_the_ai_does_not_take_back_a_turn_whose_search_looked_for_its_hidden_assassin(
    h: Harness,
) -> None:
    """R10/R43: nothing can be taken back past a search, which tells its player where the
    enemy's hidden Assassin is or is not. In a practice game the AI agrees to every takeback,
    so a player can search, read what it found, take the whole turn back and play it again
    knowing it: the takeback of a turn with a search is refused, saying why (R10)."""
    await practice(h, options={"board": "long", "assassins": True})
    await h.service.setup(HERE, ANN, {"strategy": "defensive", "ruler": "K", "assassin": "v8h17"})
    await h.settle()
    gate = await _thinking_after(h, "K v9h17 search")
    with pytest.raises(Refused, match=r"Your last turn cannot be taken back: .*\(R10\)"):
        await h.service.takeback(HERE, ANN)
    gate.set()
    await h.settle()
    posted = "\n".join(texts(h))
    assert "accepted ann's takeback" not in posted, posted[-1500:]


async def test_r10_a_takeback_asked_once_the_ai_staged_its_search_lapses_without_telling_it(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R10: on TORA's long board the AI stages its search alone and thinks again for the
    rest of its turn; ann asks to take back her last turn meanwhile. Regression: the AI
    agreed to every takeback, accepting it was refused (it would take back the AI's search)
    three times in a row, and the AI gave up: it neither played its turn nor answered, and
    the match sat until its clock ran out. Then it declined it in public saying that what it
    had staged held a search, before its turn showed it. Now it plays on, as a player who
    ends their turn over the request, which lapses with the turn's post."""
    monkeypatch.setattr(ai, "decide", searching_first())
    await practice(h, options={"board": "long", "assassins": True})
    await h.service.setup(HERE, ANN, {"strategy": "defensive", "ruler": "K", "assassin": "v8h17"})
    await h.settle()
    robots = h.service._robots
    search = robots.search
    calls: list[int] = []
    second, gate = asyncio.Event(), asyncio.Event()

    async def gated(*args: object) -> list[str]:
        calls.append(1)
        if len(calls) == 2:  # the rest of the turn, after the search staged alone
            second.set()
            await gate.wait()
        return await search(*args)

    robots.search = gated  # type: ignore[method-assign]
    await h.service.end_turn(HERE, ANN)  # ann passes
    await asyncio.wait_for(second.wait(), 30)  # the search is staged; the AI thinks on
    await h.service.takeback(HERE, ANN)
    gate.set()
    await h.settle()
    asked = next(n for n, t in enumerate(texts(h)) if "proposes a takeback" in t)
    after = texts(h)[asked + 1 :]
    assert after and after[0].startswith(AI_ENDED), "\n".join(after)[-1500:]
    assert "ann's takeback request lapsed: AI (easy)'s turn ended without" in after[0]
    hosted = (await h.service.matches_of(ANN.id))[0]
    assert "rewind" not in hosted.offers


async def test_the_ai_declining_a_draw_still_agrees_to_the_pause_asked_with_it(
    h: Harness,
) -> None:
    """Regression: ann proposed a draw and a pause before the AI looked; the AI declined the
    draw with ``agreements.decline`` of all her proposals, the pause it agrees to with it, and
    the match was not paused."""
    await practice(h, game="torishogi", turn_seconds=HOUR)
    robots = h.service._robots
    consider = robots.consider
    robots.consider = lambda table: None  # type: ignore[method-assign]  # looks once both stand
    await h.service.draw(HERE, ANN)
    await h.service.pause(HERE, ANN)
    robots.consider = consider  # type: ignore[method-assign]
    consider(h.service._tables[HERE.channel_id])
    await h.settle()
    posted = "\n".join(texts(h))
    assert "AI (easy) (Opposition) declines ann's draw offer." in posted
    hosted = (await h.service.matches_of(ANN.id))[0]
    assert hosted.paused_left is not None, posted[-1200:]


async def test_r41_the_post_of_a_practice_setup_asks_its_one_player_to_choose(
    h: Harness,
) -> None:
    """ann challenged the AI to a long game with Assassins: the channel's post, which
    mentions her, said "ann chooses their setup privately: I have sent you a private
    message", speaking of her and to her in one sentence. Now it speaks to her."""
    await practice(h, options={"board": "long", "assassins": True})
    post = next(t for t in texts(h) if "private message" in t)
    assert "ann, choose your setup privately: I have sent you a private message." in post


async def _public_draws(
    path: Path, hidden_twice: bool, monkeypatch: pytest.MonkeyPatch
) -> list[object]:
    """The public draws of a world on a fixed seed, after the AI chose its hidden setup in a
    TORA match with Assassins: who challenges in a match against the AI begun then, and the
    seeds of the searches up to the first one of the TORA match's AI (the later ones follow
    the moves it found, which may rightly depend on its own setup). With ``hidden_twice``
    the AI's hidden setup is drawn twice (the first thrown away): the same world but for
    the AI's hidden choice, and how many values it took."""
    chosen = setup_phase.drawn_setup

    def twice(terms: Terms, side: Side, rng: random.Random) -> dict[str, str]:
        chosen(terms, side, rng)
        return chosen(terms, side, rng)

    monkeypatch.setattr(setup_phase, "drawn_setup", twice if hidden_twice else chosen)
    h = Harness(path, seed=7)
    await h.open()
    try:
        offload = h.service._ctx.offload
        search, seeds = offload.ai_turn, list[int]()

        async def recorded(game, level, seconds, seed, owner):  # type: ignore[no-untyped-def]
            seeds.append(seed)
            return await search(game, level, seconds, seed, owner)

        offload.ai_turn = recorded  # type: ignore[method-assign]
        await practice(h, options={"board": "long", "assassins": True})
        there = Place(1, 101)
        terms = Terms(game="torishogi", rated=False, roles="random", turn_seconds=HOUR)
        await h.service.challenge_ai(there, ANN, "easy", terms)
        await h.settle()
        drawn = [m.side_of(ANN.id) for m in await h.service.matches_of(ANN.id)]
        before = len(seeds)
        setup = {"strategy": "defensive", "ruler": "K", "assassin": "none"}
        await h.service.setup(HERE, ANN, setup)
        await h.service.end_turn(HERE, ANN)  # ann passes; the AI searches its turn
        await h.settle()
        return [drawn, seeds[: before + 1]]
    finally:
        monkeypatch.undo()
        await h.close()


async def test_the_ai_s_hidden_setup_does_not_shift_the_public_draws_after_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Twin worlds on one seed, differing only in the AI's hidden setup (its strategy,
    whether it fields an Assassin, its square): the draws everyone sees afterwards (who
    challenges, the AI's search seeds, which decide its moves) are the same. Regression:
    the hidden setup drew a varying number of values from the service's shared generator,
    so what it chose shifted every public draw after it."""
    plain = await _public_draws(tmp_path / "plain.sqlite3", False, monkeypatch)
    twin = await _public_draws(tmp_path / "twin.sqlite3", True, monkeypatch)
    assert plain[1] and plain == twin
