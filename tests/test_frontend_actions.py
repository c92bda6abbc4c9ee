"""The application layer's actions on a real match service (the test harness), and the
Discord adapter's safe answering of interactions with a fake interaction (at once, or deferred
when the work takes long): DM commands find the caller's match, threads per match, buttons
stamped and refused when stale, refusals and failures shown to the caller alone."""

from __future__ import annotations

import asyncio
import io
import logging
import random
import time
from dataclasses import dataclass, field
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from PIL import Image

import render.replays
from bot.app import Answer, App, Caller, Unusable, permissions
from bot.app.actions import Actions, ChallengeOptions, ClockOptions, terms_of
from bot.app.buttons import Press
from bot.app.completions import Completions
from bot.app.costly import Limits
from bot.app.lookups import Lookups
from bot.app.pictures import BytesCache
from bot.discord.autocomplete import Completing
from bot.discord.buttons import buttons
from bot.discord.handlers import Handlers
from bot.discord.panel import update
from bot.discord.respond import QUICK, SKEW, Handled, Responder, time_left
from bot.i18n import speaking
from bot.ladder.desk import LadderDesk
from bot.service import (
    GuildSettings,
    Place,
    RateLimited,
    Refused,
    Settings,
    StaleRequest,
    Terms,
    User,
    load_guild,
    save_guild,
)
from bot.service.guild import ClockChoice
from bot.service.offload import Offload
from bot.service.testing import Harness, RecordingThreads
from bot.tournament.desk import TournamentDesk
from render import views_from_record
from render.tora.samples import MID_GAME
from rules.torishogi import ToriShogiGame
from rules.torishogi.record import write_record

GUILD, CHANNEL = 1, 100
ANN, BOB, CARL = User(1, "ann"), User(2, "bob"), User(3, "carl")


def here(user: User, **kw: Any) -> Caller:
    return Caller(user, GUILD, CHANNEL, text_channel=True, **kw)


def dm(user: User) -> Caller:
    return Caller(user, None, 5000 + user.id)


@dataclass
class Threads:
    opened: list[tuple[int, str]] = field(default_factory=list)
    dropped: list[int] = field(default_factory=list)
    notices: list[tuple[int, str]] = field(default_factory=list)

    async def open_thread(self, channel_id: int, name: str) -> int:
        self.opened.append((channel_id, name))
        return 700 + len(self.opened)

    async def drop_thread(self, thread_id: int) -> None:
        self.dropped.append(thread_id)

    async def notice(self, channel_id: int, text: str) -> None:
        self.notices.append((channel_id, text))


@pytest.fixture
async def act(h: Harness) -> Actions:
    return Actions(h.service, Threads())


def completing(act: Actions, h: Harness) -> Completing:
    """The ``/tora`` groups' autocomplete, over an application layer of ``act``'s service."""
    desk = LadderDesk(h.service, h.store, RecordingThreads())
    cups = TournamentDesk(h.store, h.service, RecordingThreads())
    group = Completing()
    group.handlers = Handlers(App(h.service, desk, cups, act.threads), Responder(buttons))
    return group


async def start_short(act: Actions, h: Harness, channel: int = CHANNEL) -> None:
    ann = Caller(ANN, GUILD, channel)
    bob = Caller(BOB, GUILD, channel)
    await act.challenge(ann, BOB, ChallengeOptions())
    await act.accept(bob, None)
    await act.setup(ann, None, {"strategy": "aggressive"})
    await act.setup(bob, None, {"strategy": "defensive"})
    await h.settle()


async def test_a_command_in_a_dm_finds_the_callers_match(act: Actions, h: Harness) -> None:
    with pytest.raises(Unusable, match="not in any match"):
        await act.place(dm(ANN))
    await start_short(act, h)
    place = await act.place(dm(ANN))
    assert (place.guild_id, place.channel_id) == (GUILD, CHANNEL)
    choices = await act.choices(dm(ANN), None, "A v5h7")
    assert choices and all(value.startswith("A v5h7") for _shown, value in choices)
    answer = await act.act(dm(ANN), None, choices[0][1])
    assert answer.private and answer.text.startswith(
        "-# Match 1 \u00b7 TORA \u00b7 ann vs bob \u00b7 "
    )
    assert "\nStaged:" in answer.text  # in a DM, under a line naming the match
    await start_short(act, h, channel=101)
    with pytest.raises(Unusable, match="several matches") as several:
        await act.place(dm(ANN))
    assert "TORA · ann vs bob (playing)" in str(several.value)
    labels = await act.my_matches(ANN.id)
    assert len(labels) == 2
    chosen = await act.place(dm(ANN), labels[1][1])
    assert chosen.channel_id == 101
    with pytest.raises(Unusable, match="no live match `999`"):
        await act.place(dm(ANN), "999")
    with pytest.raises(Unusable, match="not in any match"):  # the hint autocomplete shows
        await act.choices(dm(CARL), None, "")


async def test_the_match_choices_offer_the_callers_turns_first(act: Actions, h: Harness) -> None:
    """The ``match`` option offers 25 of the caller's live matches (Discord shows no more):
    they were the oldest 25, so with 26 going on, the newest, where it is bob's turn, was
    never offered. The ones waiting for the caller come first, then by deadline."""
    for channel in range(200, 225):  # ann challenges: she moves first
        await start_short(act, h, channel=channel)
    bob, ann = Caller(BOB, GUILD, 300), Caller(ANN, GUILD, 300)
    await act.challenge(bob, ANN, ChallengeOptions())
    await act.accept(ann, None)
    await act.setup(bob, None, {"strategy": "aggressive"})
    await act.setup(ann, None, {"strategy": "defensive"})
    await h.settle()
    newest = str(max(hosted.id for hosted in await h.service.matches_of(BOB.id)))
    offered = await act.my_matches(BOB.id)
    assert len(offered) == 25 and offered[0][1] == newest, offered[:2]


async def test_the_match_choices_read_each_match_once_not_at_every_keystroke(
    act: Actions, h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each keystroke in the ``match`` option read every live match of the caller's game
    and both its players' names (a player in a round robin of 30 matches: 90 reads a
    keystroke). The names are read at once, and whose turn it is once per version of a
    match: a turn's end is read again, so the choices are never stale."""
    for channel in range(200, 206):
        await start_short(act, h, channel=channel)
    reads: list[str] = []
    records = h.service.records
    for name in ("match_info", "player_name", "player_names"):
        read = getattr(records, name)

        async def counted(*args: Any, _read: Any = read, _name: str = name) -> Any:
            reads.append(_name)
            return await _read(*args)

        monkeypatch.setattr(records, name, counted)
    first = await act.my_matches(ANN.id)
    for typed in ("2", "20", "202", ""):
        reads.clear()
        assert await act.my_matches(ANN.id, typed) == [c for c in first if typed in c[0]]
        assert len(reads) <= 1, reads
    ann = Caller(ANN, GUILD, 200)
    await act.act(ann, None, "S v4h8 defend")
    await h.service.end_turn(Place(GUILD, 200), ANN)
    await h.settle()
    moved = await act.my_matches(ANN.id)
    assert moved[-1] == first[0] and moved[:-1] == first[1:], moved  # bob's turn there now


async def test_turn_prompts_carry_buttons_with_public_stamps(act: Actions, h: Harness) -> None:
    await start_short(act, h)
    [(_shown, first)] = (await act.choices(here(ANN), None, "A v5h7-v5h6"))[:1]
    answer = await act.act(here(ANN), None, first)
    ids = [press.custom_id for press in answer.buttons]
    assert ids == [
        f"tora:play:{CHANNEL}:m1t1b0",
        f"tora:end:{CHANNEL}:m1t1b0",
        f"tora:undo:{CHANNEL}:m1t1b0",
        f"tora:preview:{CHANNEL}:-",
    ]
    press = Press.parse(ids[2])
    assert press is not None
    undone = await act.press(here(ANN), press)
    assert undone.text.startswith("Taken back:")
    end = Press.parse(ids[1])
    assert end is not None
    assert (await act.press(here(ANN), end)).text == "Your turn is over."  # same turn: works
    with pytest.raises(StaleRequest, match="That turn has already ended"):
        await act.press(here(ANN), end)  # pressed twice
    preview = await act.press(dm(BOB), Press("preview", CHANNEL, None))
    assert preview.private and preview.files


async def test_the_preview_button_draws_within_the_pictures_allowance(
    act: Actions, h: Harness
) -> None:
    """Regression: ``/tora preview`` and ``/tora board`` draw within the per-user pictures
    allowance (``Limits.pictures``), but the Preview button drew the board outside it, so
    pressing it over and over drew without end."""
    await start_short(act, h)
    carl, press = here(CARL), Press("preview", CHANNEL, None)
    with pytest.raises(RateLimited):
        for _ in range(20):
            await act.press(carl, press)


def keystroke(user_id: int, name: str, age: float = 0.0) -> Any:
    """An autocomplete interaction of the user's in the match's channel, made ``age``
    seconds ago."""
    return SimpleNamespace(
        namespace=SimpleNamespace(match=None),
        client=None,
        user=SimpleNamespace(id=user_id, display_name=name),
        channel=None,
        channel_id=CHANNEL,
        guild_id=GUILD,
        permissions=SimpleNamespace(manage_guild=False),
        app_permissions=discord.Permissions.all(),
        locale=discord.Locale.american_english,
        guild_locale=discord.Locale.american_english,
        created_at=discord.utils.utcnow() - timedelta(seconds=age),
    )


class HeldWork:
    """An autocomplete's work that waits until ``release`` is set, counting its starts."""

    def __init__(self) -> None:
        self.release = asyncio.Event()
        self.started = 0

    async def __call__(self) -> list[tuple[str, str]]:
        self.started += 1
        await self.release.wait()
        return [("a", "a")]


async def test_autocomplete_refusals_are_hints_not_errors(act: Actions, h: Harness, caplog) -> None:
    """Regression: every keystroke of a spectator logged an ERROR with a traceback."""
    await start_short(act, h)
    group = completing(act, h)
    interaction = keystroke(CARL.id, "carl")
    with caplog.at_level(logging.INFO):
        choices = await group.complete_action(interaction, "A v5")
    assert [c.name for c in choices] == [
        "Only ann (Challenger) and bob (Opposition) play in this match; you are welcome to watch."
    ]
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    interaction.user = SimpleNamespace(id=BOB.id, display_name="bob")
    assert [c.name for c in await group.complete_action(interaction, "")] == ["It is ann's turn."]


async def test_a_hint_chosen_leaves_what_was_typed(act: Actions, h: Harness) -> None:
    """A refusal's hint stood for its own words: Discord picks the first choice on Enter,
    so the command was sent the hint ("cannot read `Action 2 typed ...`") instead of what
    was typed, and never said its own refusal. The hint now stands for what was typed."""
    await start_short(act, h)
    group = completing(act, h)
    typed = "A v5h7-v4h6; G v9h9-v8h8; a"
    [choice] = await group.complete_action(keystroke(ANN.id, "ann"), typed)
    assert choice.name.startswith("Action 2 typed (`G v9h9-v8h8`) would be refused: ")
    assert choice.value == typed
    [empty] = await group.complete_action(keystroke(CARL.id, "carl"), "")
    assert empty.value == empty.name  # nothing typed to stand for: a value is not empty


async def test_a_user_has_at_most_one_unfinished_autocomplete_at_a_time() -> None:
    """An autocomplete's work not ready in time goes on after its (empty) answer, so that a
    later keystroke finds it done. Every keystroke (not rate limited) started another all
    the same while the last was unfinished: a user typing on while the service is slow, or
    a script, piled up work without bound. A keystroke while the user's last work is
    unfinished starts none (no choices, at once); once it is done, the next one does."""
    from bot.discord.autocomplete import safely

    interaction = keystroke(41, "dora", age=10)  # no time left: late
    slow = HeldWork()
    for _ in range(20):  # keystrokes while the first one's work goes on
        assert await safely(interaction, slow) == []
    assert slow.started == 1, f"{slow.started} unfinished completions of one user"
    slow.release.set()
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    slow.release.clear()
    assert await safely(interaction, slow) == []
    assert slow.started == 2, "once the last was done, a keystroke starts its work"
    slow.release.set()
    await asyncio.sleep(0)


async def test_keystrokes_within_the_first_ones_budget_start_no_more_work(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """d65ca67 means a user to have at most one autocomplete's work going on while the
    service is slow. But a work is marked unfinished only once its answer's budget (2.5 s)
    has run out: every keystroke of those 2.5 s (a typist's ten, a script's thousands,
    not rate limited) starts its own, all going on after their answers together. Ordinary
    typing, the service quick, is still answered at every keystroke."""
    from bot.discord import autocomplete

    monkeypatch.setattr(autocomplete, "ANSWER_WITHIN", 0.3)
    slow = HeldWork()

    async def quick() -> list[tuple[str, str]]:
        await asyncio.sleep(0.01)
        return [("a", "a")]

    try:
        answers = []
        for _ in range(10):  # a user typing on while the service is slow
            typed_now = keystroke(4242, "eve")
            answers.append(asyncio.ensure_future(autocomplete.safely(typed_now, slow)))
            await asyncio.sleep(0.01)
        assert await asyncio.gather(*answers) == [[]] * 10
        assert slow.started <= 1, f"{slow.started} works of one user go on after their answers"
    finally:
        slow.release.set()
        await asyncio.sleep(0)
    typed = [autocomplete.safely(keystroke(4242, "eve"), quick) for _ in range(5)]
    assert all(len(answer) == 1 for answer in await asyncio.gather(*typed))


async def test_the_spirit_completion_keeps_discords_limits_and_its_time() -> None:
    """``/tora setup spirit:``'s choices went around ``safely``: a value was not cut to
    Discord's 100 characters (Discord refuses the whole answer), and a completion slower
    than Discord waits (3 s) was waited for, so the user saw none at all. It keeps both,
    as every other option's completion does."""
    longest = "S" * 120
    slow: list[bool] = []

    async def spirit(caller: Caller, match: str | None, typed: str) -> list[tuple[str, str]]:
        if slow:
            await asyncio.sleep(0.5)
        return [(longest, longest)]

    group = Completing()
    group.handlers = SimpleNamespace(  # type: ignore[assignment]
        app=SimpleNamespace(completions=SimpleNamespace(spirit=spirit))
    )
    interaction = keystroke(ANN.id, "ann")
    [choice] = await group.complete_spirit(interaction, "")  # type: ignore[arg-type]
    assert len(choice.name) <= 100 and len(choice.value) <= 100
    slow.append(True)
    interaction.created_at = discord.utils.utcnow() - timedelta(seconds=2.45)  # 0.05 s left
    began = asyncio.get_running_loop().time()
    assert await group.complete_spirit(interaction, "") == []  # type: ignore[arg-type]
    assert asyncio.get_running_loop().time() - began < 0.4
    await asyncio.sleep(0.6)  # the late work ends (its answer kept for nobody)


async def test_the_strategy_completion_offers_only_what_the_matchs_setup_takes(
    act: Actions, h: Harness
) -> None:
    """``/tora setup strategy:`` offered TORA's strategies in a Torii match too, which the
    command then refused ("Your strategy is TORA's"). It offers the match's own setup's,
    and in a game that takes none says so."""
    found = completing(act, h).handlers.app.completions
    ann, bob = Caller(ANN, GUILD, CHANNEL), Caller(BOB, GUILD, CHANNEL)
    await act.challenge(ann, BOB, ChallengeOptions(game="torii"))
    await act.accept(bob, None)
    with pytest.raises(Refused, match="setup asks for no strategy"):
        await found.strategy(ann, None, "")
    there = Caller(ANN, GUILD, 300)
    await act.challenge(there, BOB, ChallengeOptions())
    await act.accept(Caller(BOB, GUILD, 300), None)
    offered = await found.strategy(there, None, "d")
    assert [value for _shown, value in offered] == ["defensive"], offered
    await act.setup(there, None, {"strategy": offered[0][1]})  # accepted


def test_the_terrain_completion_offers_only_what_the_challenge_takes_with_the_map() -> None:
    """``/tora challenge terrain:`` offered ``custom`` with no ``terrain_map`` typed ("A
    custom terrain needs its map") and the presets with one ("A terrain map goes with the
    terrain custom"): each refused once chosen. It offers what the challenge takes."""
    for board in ("short", "long"):
        bare = [value for _shown, value in Completions.terrain("tora", board, "", "")]
        assert bare and "custom" not in bare, bare
        for value in bare:
            terms_of(ChallengeOptions(board=board, terrain=value), None)
        mapped = Completions.terrain("tora", board, "water v4h6", "")
        assert mapped == [("custom", "custom")]
        terms_of(ChallengeOptions(board=board, terrain="custom", terrain_map="water v4h6"), None)


def test_the_terrain_completion_says_why_no_terrain_goes_with_what_was_typed() -> None:
    """With a terrain map typed with a mistake (or a terrain typed that the map typed
    rules out), ``/tora challenge terrain:`` offered an empty list, no word of why; before,
    ``custom`` was offered and the command named the mistake. The hint now names it."""
    with pytest.raises(Refused, match="clause 1: `v4h` is not a square"):
        Completions.terrain("tora", "short", "water v4h", "")
    with pytest.raises(Refused, match="A custom terrain needs its map"):
        Completions.terrain("tora", "short", "", "cu")
    with pytest.raises(Refused, match="goes with the terrain `custom`"):
        Completions.terrain("tora", "short", "water v4h6", "ri")
    assert Completions.terrain("tora", "short", "", "zz") == []  # nothing typed matches


async def test_a_public_board_for_spectators_and_a_private_one_for_players(
    act: Actions, h: Harness
) -> None:
    await start_short(act, h)
    assert await act.plays_here(here(ANN)) and not await act.plays_here(here(CARL))
    assert (await act.board(here(CARL), None)).private is False
    assert (await act.board(here(ANN), None)).private is True
    assert (await act.preview(here(CARL), None)).private is True


async def test_a_spectators_public_board_names_its_match_and_links_its_page(
    act: Actions, h: Harness
) -> None:
    """carl's `/tora board` where ann and bob play is posted for the channel: it read
    "Score: ann 0, bob 0. ann (Challenger) to act..." and named neither the match nor its
    game, and carl had no way to the board on the web. It is headed as the match's posts
    are, with its page's link, and so is a finished match's board."""
    from bot.app.links import Links
    from bot.service.links import LinkRecords

    await start_short(act, h)
    links = Links(LinkRecords(h.store), "https://tora.example")
    desk = LadderDesk(h.service, h.store, RecordingThreads())
    lookups = Lookups(act, desk, links=links)
    shown = await lookups.board(here(CARL), None)
    assert not shown.private
    assert shown.text.startswith("-# Match 1 \u00b7 TORA \u00b7 ann vs bob\n"), shown.text
    assert [link.url for link in shown.links] == ["https://tora.example/m/1"]
    assert not (await lookups.board(here(ANN), None)).links  # her own, privately
    numbered = await lookups.numbered_board(here(CARL), 1)
    assert [link.url for link in numbered.links] == ["https://tora.example/m/1"]


async def test_a_board_asked_by_match_is_not_headed_as_the_match_of_the_channel(
    act: Actions, h: Harness
) -> None:
    """ann and bob play match 1 here; carl, whose match 2 with ann waits for its setup in
    another channel, asked here for its board (`/tora board match:2`): the answer, "The
    players are choosing their setup", was posted headed "Match 1 · TORA · ann vs bob" and
    linked to match 1's page, as if it were about the match played here. It names match 2."""
    from bot.app.links import Links
    from bot.service.links import LinkRecords

    await start_short(act, h)
    await act.challenge(Caller(CARL, GUILD, 200), ANN, ChallengeOptions())
    await act.accept(Caller(ANN, GUILD, 200), None)
    links = Links(LinkRecords(h.store), "https://tora.example")
    lookups = Lookups(act, LadderDesk(h.service, h.store, RecordingThreads()), links=links)
    shown = await lookups.board(here(CARL), "2")
    assert "choosing their setup" in shown.text
    assert shown.text.startswith("-# Match 2 \u00b7 TORA \u00b7 carl vs ann\n"), shown.text
    assert [link.url for link in shown.links] == ["https://tora.example/m/2"]


async def test_a_replay_posted_for_the_channel_names_its_match_and_links_its_page(
    act: Actions, h: Harness
) -> None:
    """carl's `/tora replay` went to the channel as "Match 1, turn by turn.": neither the
    game nor its players named, where every post of the match is headed with them, and no
    way to its page. It is headed so, with the Match page's link."""
    from bot.app.links import Links
    from bot.service.links import LinkRecords

    await start_short(act, h)
    links = Links(LinkRecords(h.store), "https://tora.example")
    lookups = Lookups(act, LadderDesk(h.service, h.store, RecordingThreads()), links=links)
    shown = await lookups.replay(here(CARL), None, None)
    assert not shown.private
    assert shown.text.startswith("-# Match 1 \u00b7 TORA \u00b7 ann vs bob\n"), shown.text
    assert [link.url for link in shown.links] == ["https://tora.example/m/1"]


async def test_a_spectators_board_in_a_channel_of_threaded_matches_points_to_the_threads(
    act: Actions, h: Harness
) -> None:
    """With threads on, ann's match is in a thread of the channel, which the channel's
    notice links. carl's `/tora board` in the channel itself answered "No match has been
    played here yet, and you have played none": as if nothing were played there. It says
    each match here has a thread of its own, where to give the command."""
    await save_guild(h.store, GUILD, GuildSettings(threads=True))
    await act.challenge(here(ANN), BOB, ChallengeOptions())
    lookups = Lookups(act, LadderDesk(h.service, h.store, RecordingThreads()))
    with pytest.raises(Unusable, match="each match has a thread of its own"):
        await lookups.board(here(CARL), None)


async def test_a_board_record_or_replay_in_a_threaded_server_without_a_match_says_none_yet(
    act: Actions, h: Harness
) -> None:
    """With threads on and no match ever played or challenged in the server, carl's
    `/tora board`, `/tora record` and `/tora replay` in the channel said "each match has a
    thread of its own, which the channel's posts link": there was no such thread nor post.
    Each now says there is no match in this server yet, and how to start one."""
    await save_guild(h.store, GUILD, GuildSettings(threads=True))
    lookups = Lookups(act, LadderDesk(h.service, h.store, RecordingThreads()))
    none_yet = (
        "No match has been played in this server yet: challenge someone with "
        "`/tora challenge`, and the match gets a thread of its own."
    )
    for asked in (
        lookups.board(here(CARL), None),
        lookups.record(here(CARL), None, None),
        lookups.replay(here(CARL), None, None),
    ):
        with pytest.raises(Unusable) as refused:
            await asked
        assert str(refused.value) == none_yet


async def test_a_board_in_a_server_without_any_match_says_how_to_start_one(
    act: Actions, h: Harness
) -> None:
    """In a server where no match was ever played, carl's `/tora board` said "Give a
    match's number (`/tora games` lists yours)": there was none to give, nor any of his to
    list. It says there is no match in this server yet, and how to start one."""
    lookups = Lookups(act, LadderDesk(h.service, h.store, RecordingThreads()))
    with pytest.raises(Unusable) as refused:
        await lookups.board(here(CARL), None)
    assert str(refused.value) == (
        "No match has been played in this server yet: challenge someone with `/tora challenge`."
    )


async def test_the_channels_pointer_to_a_threaded_match_names_the_match(
    act: Actions, h: Harness
) -> None:
    """With threads on, the channel reads "ann's challenge to bob to a match of TORA is in
    #thread", the one post about the match there that named no match number (which
    `/tora board number:` and `/tora replay number:` ask for). It is headed as the match's
    posts in the thread are."""
    await save_guild(h.store, GUILD, GuildSettings(threads=True))
    await act.challenge(here(ANN), BOB, ChallengeOptions())
    [(channel, notice)] = act.threads.notices  # type: ignore[attr-defined]
    assert channel == CHANNEL
    assert notice.startswith("-# Match 1 \u00b7 TORA \u00b7 ann vs bob\nann's challenge"), notice


async def test_with_threads_on_a_challenge_gets_its_own_thread(act: Actions, h: Harness) -> None:
    await save_guild(h.store, GUILD, GuildSettings(turn_seconds=3600, threads=True))
    threads = act.threads
    assert isinstance(threads, Threads)
    answer = await act.challenge(here(ANN), BOB, ChallengeOptions())
    assert threads.opened == [(CHANNEL, "ann vs bob")]
    assert "<#701>" in answer.text and threads.notices[0][0] == CHANNEL
    hosted = await h.store.hosting.live_in_channel(701)
    assert hosted is not None and '"turn_seconds": 3600.0' in hosted.terms  # server default
    with pytest.raises(Refused, match="Assassins are played on the long board only"):
        await act.challenge(here(CARL), None, ChallengeOptions(assassins=True))
    assert len(threads.opened) == 1  # refused before any thread was opened
    await h.service.challenge(Place(GUILD, 702), CARL)  # the next thread is taken already
    with pytest.raises(Refused, match="already hosts"):
        await act.challenge(here(CARL), None, ChallengeOptions())
    assert threads.dropped == [702]
    in_thread = Caller(BOB, GUILD, 701)  # in a thread: hosted right there
    with pytest.raises(Refused, match="already hosts"):
        await act.challenge(in_thread, None, ChallengeOptions())


async def test_a_challenge_saved_whose_answer_was_lost_keeps_its_thread(
    act: Actions, h: Harness
) -> None:
    """With threads on, the challenge is saved in its new thread, but the answer of its
    commit is lost (the connection drops after COMMIT): the command fails, and its thread
    was deleted on any failure, leaving a challenge hosted in a channel that is gone. A
    thread is dropped only when no challenge was saved in it: after a refusal, or a
    failure that left it empty."""
    from storage import DatabaseUnavailable

    await save_guild(h.store, GUILD, GuildSettings(threads=True))
    threads = act.threads
    assert isinstance(threads, Threads)
    store = h.store
    real = store.hosting.create

    async def lost(*args: Any, **kwargs: Any) -> Any:
        await real(*args, **kwargs)  # committed...
        raise DatabaseUnavailable("the connection dropped after COMMIT (simulated)")

    async def unsaved(*args: Any, **kwargs: Any) -> Any:
        raise DatabaseUnavailable("the database is away (simulated)")

    store.hosting.create = lost  # type: ignore[method-assign]
    with pytest.raises(DatabaseUnavailable):
        await act.challenge(here(ANN), BOB, ChallengeOptions())
    assert await store.hosting.live_in_channel(701) is not None
    assert threads.dropped == []  # the challenge's thread stays
    store.hosting.create = unsaved  # type: ignore[method-assign]
    with pytest.raises(DatabaseUnavailable):
        await act.challenge(here(CARL), None, ChallengeOptions())
    assert threads.dropped == [702]  # nothing in it: gone


async def test_a_threaded_challenges_take_back_works_in_the_channel_it_was_given_in(
    act: Actions, h: Harness
) -> None:
    """Regression: with threads on, the challenger's answer in the channel offers Take back
    for the challenge, hosted in its thread (the button names the thread); pressed there, in
    the channel, it was refused "That match is over" as pressed outside the match's channel."""
    await save_guild(h.store, GUILD, GuildSettings(turn_seconds=3600, threads=True))
    answer = await act.challenge(here(ANN), BOB, ChallengeOptions())
    (takeback,) = answer.buttons
    assert takeback.verb == "takeback" and takeback.channel_id == 701
    await act.press(here(ANN), takeback)
    assert await h.store.hosting.live_in_channel(701) is None


async def test_a_match_options_answer_in_another_channel_has_buttons_that_work_there(
    act: Actions, h: Harness
) -> None:
    """Regression: ``/tora resign match:N`` given in another channel of the server answers
    there with Confirm and Keep playing, naming the match's channel; Confirm was refused
    "That match is over" (a live match) as pressed outside the match's channel. A player's
    button works anywhere in the match's server; a bystander's is still refused."""
    await start_short(act, h)
    (hosted,) = await h.service.matches_of(ANN.id)
    elsewhere = Caller(ANN, GUILD, 200, text_channel=True)
    answer = await act.agree(elsewhere, str(hosted.id), "resign")
    confirm = next(b for b in answer.buttons if b.verb == "resign")
    with pytest.raises(StaleRequest, match="That match is over"):
        await act.press(Caller(CARL, GUILD, 200, text_channel=True), confirm)
    with pytest.raises(StaleRequest, match="That match is over"):
        await act.press(Caller(ANN, 2, 200, text_channel=True), confirm)  # another server
    await act.press(elsewhere, confirm)
    assert await h.service.matches_of(ANN.id) == []


async def test_a_challenge_in_a_thread_needs_send_messages_in_threads(
    act: Actions, h: Harness
) -> None:
    """In a thread the bot posts by Send Messages in Threads, whatever Send Messages says:
    the refusal names the permission of the place."""
    allowed = frozenset((permissions.VIEW, permissions.SEND, permissions.ATTACH))
    in_thread = Caller(ANN, GUILD, 701, thread=True, may=allowed)
    # one permission lacking is named as one: "the ... permissions here ... grant them"
    # was said of it
    with pytest.raises(Unusable, match=r"\*\*Send Messages in Threads\*\* permission here"):
        await act.challenge(in_thread, BOB, ChallengeOptions())
    assert await h.service.matches_of(ANN.id) == []
    await act.challenge(here(ANN, may=allowed), BOB, ChallengeOptions())  # a text channel


def test_typed_options_become_terms() -> None:
    terms = terms_of(ChallengeOptions(board="long", deadline="3d", terrain_map="water v4h6"), None)
    board, terrain = terms.checked["board"], terms.checked["terrain"]
    assert (board, terms.turn_seconds, terrain) == ("long", 259200.0, "custom")
    assert terms_of(ChallengeOptions(), 600.0).turn_seconds == 600.0
    assert terms_of(ChallengeOptions(), None).turn_seconds == 86400.0


async def test_a_refused_challenge_opens_no_thread(tmp_path) -> None:
    """Regression: with threads on, the thread was opened before the rate limit and the
    caps were checked, so one user could make the bot open a thread per attempt."""
    settings = Settings(burst=4, every=60.0, user_challenges=2, guild_challenges=3)
    async with Harness(tmp_path / "t.sqlite3", settings=settings) as h:
        act = Actions(h.service, Threads())
        threads = act.threads
        assert isinstance(threads, Threads)
        await save_guild(h.store, GUILD, GuildSettings(threads=True))
        await act.challenge(here(ANN), BOB, ChallengeOptions())
        await act.challenge(here(ANN), None, ChallengeOptions())
        with pytest.raises(Refused, match="already have 2 challenges waiting"):
            await act.challenge(here(ANN), CARL, ChallengeOptions())
        await act.challenge(here(BOB), CARL, ChallengeOptions())
        with pytest.raises(Refused, match="server already has 3 challenges waiting"):
            await act.challenge(here(CARL), None, ChallengeOptions())
        for _ in range(3):
            with pytest.raises(Refused):
                await act.challenge(here(ANN), CARL, ChallengeOptions())
        with pytest.raises(RateLimited):  # ann's fifth command in a minute
            await act.challenge(here(ANN), CARL, ChallengeOptions())
        assert len(threads.opened) == 3 and threads.dropped == []


async def test_the_cap_on_a_players_waiting_challenges_holds_when_they_come_together(
    tmp_path,
) -> None:
    """Regression: the caps on waiting challenges were counted outside any lock, then the
    thread opened, and only then the challenge saved: five challenges sent at once (five
    channels, each opening its thread first) all passed the count of 3 a player may have."""
    async with Harness(tmp_path / "t.sqlite3") as h:
        service = h.running
        opened: list[int] = []

        async def thread(channel: int) -> Place:
            await asyncio.sleep(0.01)  # opening a thread on Discord takes a moment
            opened.append(channel)
            return Place(GUILD, channel)

        async def one(channel: int) -> bool:
            try:
                await service.challenge(
                    Place(GUILD, channel), ANN, BOB, where=lambda: thread(channel + 1000)
                )
            except Refused:
                return False
            return True

        posted = await asyncio.gather(*(one(100 + n) for n in range(5)))
        mine, _everyone = await h.store.hosting.in_phase(GUILD, "challenge", ANN.id)
        cap = service.settings.user_challenges
        assert (sum(posted), mine, len(opened)) == (cap, cap, cap)


async def test_a_players_match_of_another_server_is_shown_to_them_alone_here(
    act: Actions, h: Harness
) -> None:
    """Regression: a player's finished match of server 1, asked for in a channel of server
    2 (by number, or as their last match), was posted there publicly (its players' names
    and every turn; its analysis too), in a server its opponent may not even be in."""
    ann, bob = Caller(ANN, GUILD, CHANNEL), Caller(BOB, GUILD, CHANNEL)
    await act.challenge(ann, BOB, ChallengeOptions(game="torishogi"))
    await act.accept(bob, None)
    await h.settle()
    await act.act(ann, None, "c3c4")
    await act.end(ann, None)
    await h.service.resign(Place(GUILD, CHANNEL), BOB)
    await h.settle()
    lookups = Lookups(act, LadderDesk(h.service, h.store, RecordingThreads()))
    elsewhere = Caller(ANN, 2, 200, text_channel=True)
    assert (await lookups.replay(elsewhere, 1, None)).private
    assert (await lookups.board(elsewhere, None)).private  # her last match
    started, post = await lookups.analyse(elsewhere, 1, None)
    assert "to you" in started.text and (await post()).private
    with pytest.raises(Unusable, match="no match 1 in this server"):
        await lookups.replay(Caller(CARL, 2, 200, text_channel=True), 1, None)
    assert not (await lookups.replay(Caller(CARL, GUILD, 300, text_channel=True), 1, None)).private


async def _long_game_with_a_hidden_move(h: Harness, channel: int) -> None:
    """ann and bob on the long board with Assassins; ann's hidden Assassin has moved."""
    place, service = Place(GUILD, channel), h.service
    await service.challenge(place, ANN, BOB, Terms(options={"board": "long", "assassins": True}))
    await service.accept(place, BOB)
    await service.setup(place, ANN, {"strategy": "aggressive", "ruler": "Q", "assassin": "v3h17"})
    await service.setup(place, BOB, {"strategy": "defensive", "ruler": "K", "assassin": "v17h1"})
    await h.settle()
    await service.play(place, ANN, "X v3h17-v4h16")
    await service.end_turn(place, ANN)
    await h.settle()


async def test_a_cancelled_matchs_replay_is_not_refused_as_if_the_match_were_still_running(
    act: Actions, h: Harness
) -> None:
    """R44: the Assassin's record is published when the game ends. An admin's cancel ends
    the match for good, yet its public record kept `X ?` for ever, and /tora replay kept
    refusing with "it can be replayed once the match has ended", which it already has (the
    web page's replay said the same: "opens once the match has ended"); so did an abort.
    Now a match closed without a result publishes its Assassin records, as any ended game."""
    await _long_game_with_a_hidden_move(h, CHANNEL)
    await h.service.cancel(Place(GUILD, CHANNEL), User(9, "mod"), admin=True)
    await _long_game_with_a_hidden_move(h, 300)
    await h.service.abort(Place(GUILD, 300), BOB)
    await h.settle()
    lookups = Lookups(act, LadderDesk(h.service, h.store, RecordingThreads()))
    for number, channel in ((1, CHANNEL), (2, 300)):
        carl = Caller(CARL, GUILD, channel, text_channel=True)
        assert (await lookups.replay(carl, number, None)).files
        record = (await lookups.record(carl, number, None)).files[0].data.decode()
        assert "X v3h17-v4h16" in record and "X ?" not in record, record
        assert '[ChallengerAssassin "v3h17"]' in record


async def test_records_settings_and_admin_checks(act: Actions, h: Harness) -> None:
    lookups = Lookups(act, LadderDesk(h.service, h.store, RecordingThreads()))
    with pytest.raises(Unusable, match="No match has been played in this server yet"):
        await lookups.record(here(ANN), None, None)
    await start_short(act, h)
    mine = await lookups.record(here(ANN), None, None)
    theirs = await lookups.record(here(CARL), None, None)
    assert mine.text.startswith("Your record") and theirs.text.startswith("The public record")
    assert mine.files[0].name.startswith("tora-match-")
    with pytest.raises(Unusable, match="no match 1 of yours"):
        await lookups.record(dm(CARL), 1, None)
    with pytest.raises(Unusable, match="Only the server's admins"):
        await lookups.settings(here(ANN), "3d", None, None)
    saved = await lookups.settings(here(ANN, admin=True), "3d", True, 55)
    assert saved.text.startswith("Saved.") and "3 days" in saved.text and "<#55>" in saved.text
    with pytest.raises(Refused, match="between 5 min and 14 days"):
        await lookups.settings(here(ANN, admin=True), "30d", None, None)
    with pytest.raises(Refused):
        await act.cancel(here(ANN))
    cancelled = await act.cancel(here(ANN, admin=True))
    assert cancelled.text == "The match is cancelled."
    assert await h.store.hosting.live_in_channel(CHANNEL) is None


async def test_an_abort_that_can_no_longer_be_done_is_refused_before_its_confirmation(
    act: Actions, h: Harness
) -> None:
    """ann and bob have played the first round of their ToriShogi match, so it can no
    longer be aborted: /tora-match abort still asked "Abort match 1 against bob? ..." with
    Abort/Keep buttons, and only the click was refused. It is refused at once, in the
    click's words, with nothing to click."""
    await act.challenge(here(ANN), BOB, ChallengeOptions(game="torishogi"))
    await act.accept(here(BOB), None)
    place = Place(GUILD, CHANNEL)
    for user, move in ((ANN, "e4e5"), (BOB, "d6e5")):
        await h.service.play(place, user, move)
        await h.service.end_turn(place, user)
    with pytest.raises(Refused, match="first round is complete"):
        await act.agree(here(ANN), None, "abort")


async def test_two_admins_changing_different_settings_at_once_both_keep_their_change(
    act: Actions, h: Harness
) -> None:
    """Each save writes only the settings its admin changed: another admin's change, saved
    meanwhile, is not put back to what this one read."""
    lookups = Lookups(act, LadderDesk(h.service, h.store, RecordingThreads()))
    first, second = await asyncio.gather(
        lookups.settings(here(ANN, admin=True), "3d", None, None),
        lookups.settings(here(BOB, admin=True), None, True, None),
    )
    assert first.text.startswith("Saved.") and second.text.startswith("Saved.")
    kept = await load_guild(h.store, GUILD)
    assert (kept.turn_seconds, kept.threads) == (3 * 86400, True), kept


async def test_two_admins_changing_different_clock_times_at_once_both_keep_theirs(
    act: Actions, h: Harness
) -> None:
    """ann sets increment:2h while bob sets cap:5d of the server's increment clock: both were
    told "Saved." with their change, but the clock is one row, each save wrote the whole
    clock made over what it had read, and ann's 2 h was lost. Each time typed is made over
    the clock stored when it is saved."""
    lookups = Lookups(act, LadderDesk(h.service, h.store, RecordingThreads()))
    first = ClockOptions("increment", None, "1h", "3d")
    await lookups.settings(here(ANN, admin=True), None, None, None, clock=first)
    increment, cap = ClockOptions(increment="2h"), ClockOptions(cap="5d")
    said = await asyncio.gather(
        lookups.settings(here(ANN, admin=True), None, None, None, clock=increment),
        lookups.settings(here(BOB, admin=True), None, None, None, clock=cap),
    )
    assert "2 h more per turn" in said[0].text and "at most 5 days" in said[1].text
    kept = (await load_guild(h.store, GUILD)).clock
    assert (kept.increment_seconds, kept.cap_seconds) == (2 * 3600, 5 * 86400), kept


# ---- answering interactions ----------------------------------------------------------------
class FakeResponse:
    def __init__(self, log: list[tuple[str, Any]], late: bool, failing: bool) -> None:
        self.log = log
        self.done = False
        self.late = late
        self.failing = failing

    def is_done(self) -> bool:
        return self.done

    def _answering(self) -> None:
        if self.late:  # Discord's "Unknown interaction": the 3 s are over
            raise discord.NotFound(SimpleNamespace(status=404, reason="Not Found"), "")
        if self.failing:  # Discord's 5xx, after discord.py's own tries
            raise discord.HTTPException(SimpleNamespace(status=503, reason="Unavailable"), "")
        self.done = True

    async def defer(self, *, ephemeral: bool, thinking: bool) -> None:
        self._answering()
        self.log.append(("defer", ephemeral))

    async def send_message(self, content: str, *, ephemeral: bool, **kw: Any) -> None:
        self._answering()
        self.log.append(("send", (content, ephemeral)))


def fake_interaction(
    late: bool = False, failing_edits: int = 0, age: float = 0.0, failing: bool = False
) -> tuple[Any, list]:
    """An interaction Discord made ``age`` seconds ago; ``late``: its 3 s are over."""
    log: list[tuple[str, Any]] = []
    failures = [failing_edits]

    async def edit(**kw: Any) -> None:
        if failures[0]:
            failures[0] -= 1
            log.append(("edit failed", 503))
            raise discord.HTTPException(SimpleNamespace(status=503, reason="Unavailable"), "")
        log.append(("edit", kw["content"]))

    async def followup(content: str, *, ephemeral: bool, **kw: Any) -> None:
        log.append(("followup", (content, ephemeral)))

    async def delete() -> None:
        log.append(("delete", None))

    interaction = SimpleNamespace(
        id=1,
        created_at=discord.utils.utcnow() - timedelta(seconds=age),
        responder=Responder(buttons, Handled()),  # the bot's, with the interactions it took
        response=FakeResponse(log, late, failing),
        extras={},
        edit_original_response=edit,
        delete_original_response=delete,
        followup=SimpleNamespace(send=followup),
        command=SimpleNamespace(qualified_name="tora act"),
        user=SimpleNamespace(id=2),
        locale=discord.Locale.american_english,
        guild_locale=None,
        guild_id=None,  # in a DM with the bot: a panel there is the caller's own
    )
    return interaction, log


async def run(interaction: Any, work: Any, *, private: bool) -> None:
    """Answer ``interaction`` as the bot does."""
    await interaction.responder.run(interaction, work, private=private)


@pytest.fixture(params=["quick", "slow"])
def pace(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Whether the work is done before the bot would defer (it answers at once) or after."""
    if request.param == "slow":
        monkeypatch.setattr("bot.discord.respond.QUICK", 0.02)
    return str(request.param)


def paced(pace: str, work: Any) -> Any:
    """``work``, made to take longer than the bot waits undeferred when ``pace`` is slow."""

    async def timed() -> Any:
        if pace == "slow":
            await asyncio.sleep(0.3)
        return await work()

    return timed


async def test_refusals_go_to_the_caller_alone(pace: str) -> None:
    interaction, log = fake_interaction()

    async def refused() -> Answer:
        raise RateLimited("Please wait 2 seconds; nothing was done.", 2.0)

    await run(interaction, paced(pace, refused), private=True)
    said = "Please wait 2 seconds; nothing was done."
    if pace == "quick":  # the answer is the response: one request
        assert log == [("send", (said, True))]
    else:
        assert log == [("defer", True), ("edit", said)]


async def test_an_unexpected_failure_is_logged_with_a_ref_the_caller_gets(
    caplog: pytest.LogCaptureFixture, pace: str
) -> None:
    interaction, log = fake_interaction()

    async def broken() -> Answer:
        raise KeyError("oops")

    with caplog.at_level(logging.ERROR):
        await run(interaction, paced(pace, broken), private=False)
    [record] = [r for r in caplog.records if r.getMessage() == "command failed"]
    ref = record.ref  # type: ignore[attr-defined]
    if pace == "quick":  # asked public, told privately
        [(kind, (text, private))] = log
        assert kind == "send" and private is True
    else:
        assert log[0] == ("defer", False)
        assert log[1] == ("delete", None)  # deferred in public: the "thinking" goes...
        assert log[2][0] == "followup" and log[2][1][1] is True  # ...the failure goes privately
        text = log[2][1][0]
    assert f"nothing was changed (ref `{ref}`)" in text


async def test_a_public_answer_and_long_texts_in_pieces(pace: str) -> None:
    interaction, log = fake_interaction()
    await run(interaction, paced(pace, _answer("x" * 2500, private=False)), private=False)
    first = ("send", ("x" * 2000, False)) if pace == "quick" else ("edit", "x" * 2000)
    assert log[-2:] == [first, ("followup", ("x" * 500, False))]
    interaction, log = fake_interaction()
    await run(interaction, paced(pace, _answer("board", private=False)), private=True)
    if pace == "quick":
        assert log == [("send", ("board", True))]  # a public answer may stay private
    else:
        assert log == [("defer", True), ("edit", "board")]


async def test_an_interaction_is_acted_on_once_however_often_it_arrives() -> None:
    interaction, log = fake_interaction()
    done: list[int] = []

    async def work() -> Answer:
        done.append(1)
        return Answer("Staged.")

    await run(interaction, work, private=True)
    await run(interaction, work, private=True)  # the same interaction, delivered again
    assert done == [1] and log == [("send", ("Staged.", True))]


async def test_a_busy_quarter_hour_of_interactions_is_not_looked_through_at_every_one() -> None:
    """The interactions already seen (``Handled.first``, every interaction's first step):
    past 50,000 in a quarter hour (some 55 a second, a big bot's evening), each new one
    rebuilt the whole dict of 50,000 on the event loop."""
    seen = Handled()
    for number in range(50_000):
        seen._seen[number] = time.monotonic()  # all seen a moment ago: none to drop
    rebuilt = 0
    for number in range(50_000, 50_100):
        before = seen._seen
        assert await seen.first(SimpleNamespace(id=number))  # type: ignore[arg-type]
        rebuilt += seen._seen is not before
    assert rebuilt <= 1, f"{rebuilt} of 100 interactions each looked through all 50,000"


async def test_a_panel_pick_delivered_twice_is_acted_on_once() -> None:
    """Regression: a pick is acted on before it is answered when its answer is quick, so
    a second delivery of it (a replayed gateway event) staged its action again; deferring
    first had refused it (Discord acknowledges an interaction once)."""
    interaction, log = fake_interaction()
    handlers: Any = SimpleNamespace(respond=interaction.responder)
    done: list[int] = []

    async def work() -> Any:
        done.append(1)
        raise Unusable("Nothing to stage.")

    await update(handlers, interaction, work)
    await update(handlers, interaction, work)  # the same pick, delivered again
    assert done == [1] and log == [("send", ("Nothing to stage.", True))]


async def test_an_interaction_acknowledged_too_late_is_not_acted_on() -> None:
    """Regression: the command was applied, and its user told nothing (a retry applied it
    twice). Discord shows "This interaction failed": nothing was done, so a retry is safe.
    One that reaches the bot later than the bot waits for a quick answer is deferred before
    it is acted on."""
    interaction, log = fake_interaction(late=True, age=2.9)
    done: list[int] = []

    async def work() -> Answer:
        done.append(1)
        return Answer("Staged.")

    await run(interaction, work, private=True)
    assert done == [] and log == []
    interaction, log = fake_interaction(age=1.5)  # late for a quick answer, in time to defer
    await run(interaction, work, private=True)
    assert done == [1] and log == [("defer", True), ("edit", "Staged.")]


async def test_a_failed_response_or_deferral_after_the_work_began_is_logged(
    caplog: pytest.LogCaptureFixture, pace: str
) -> None:
    """Discord failing the response (or the deferral) of a command already carried out:
    said in the log, not tried again (the 3 s are over)."""
    interaction, log = fake_interaction(failing=True)
    done: list[int] = []

    async def work() -> Answer:
        done.append(1)
        return Answer("Staged.")

    with caplog.at_level(logging.WARNING):
        await run(interaction, paced(pace, work), private=True)
    assert done == [1] and log == []
    said = {r.getMessage() for r in caplog.records}
    assert any("carried out, but Discord took no answer" in m for m in said), said


async def test_a_failing_edit_is_retried_then_sent_as_a_follow_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("bot.discord.respond.EDIT_RETRIES", (0.0, 0.0))
    monkeypatch.setattr("bot.discord.respond.QUICK", 0.02)
    slow = paced("slow", _answer("Staged.", private=True))
    interaction, log = fake_interaction(failing_edits=2)
    await run(interaction, slow, private=True)
    assert log[-2:] == [("edit failed", 503), ("edit", "Staged.")]
    interaction, log = fake_interaction(failing_edits=9)  # Discord keeps failing
    await run(interaction, slow, private=True)
    assert log[-1] == ("followup", ("Staged.", True))  # never "thinking..." forever


def test_the_wait_for_a_quick_answer_counts_from_discords_clock() -> None:
    now = discord.utils.utcnow()
    ago = time_left(SimpleNamespace(created_at=now - timedelta(seconds=QUICK / 2)))
    assert QUICK / 2 - 0.1 < ago <= QUICK / 2
    # a clock this far behind Discord's cannot tell a late interaction: it defers first
    assert time_left(SimpleNamespace(created_at=now + timedelta(seconds=5))) == 0.0
    assert time_left(SimpleNamespace(created_at=now + timedelta(seconds=SKEW / 2))) == QUICK
    assert time_left(SimpleNamespace(created_at=now - timedelta(seconds=5))) < 0  # defer first


def _answer(text: str, private: bool) -> Any:
    async def work() -> Answer:
        return Answer(text, private=private)

    return work


def test_a_challenge_takes_the_servers_clock_unless_it_names_one() -> None:
    server = ClockChoice("bank", bank_seconds=5 * 86400.0)
    terms = terms_of(ChallengeOptions(), None, server)
    assert (terms.clock, terms.bank_seconds) == ("bank", 5 * 86400.0)
    assert terms_of(ChallengeOptions(clock="turn"), None, server).clock == "turn"
    mine = terms_of(ChallengeOptions(clock="bank", bank="2d"), None, server)
    assert mine.bank_seconds == 2 * 86400.0
    increment = terms_of(ChallengeOptions(clock="increment"), 3600.0, server)
    assert (increment.clock, increment.bank_seconds) == ("increment", 0.0)


async def _unhosted(_match: int) -> None:
    """The stand-in records' hosted match: none, so a public answer is not headed."""
    return None


def _reading_lookups(view: object, record: str, paint: Any = None) -> Lookups:
    """``Lookups`` over a stand-in for the records: match 7 (TORA), played in server 1,
    no longer live in the channel; its service draws with ``paint`` (by default in threads,
    as with no drawing workers)."""
    info = SimpleNamespace(
        id=7, game="tora", guild_id=1, challenger_id=1, opposition_id=2, closed=None,
        side_of=lambda _user: None,
    )  # fmt: skip

    async def match_info(_number: int) -> object:
        return info

    async def record_of(_match: int, _side: object = None) -> str:
        return record

    async def public_position(_match: int) -> tuple[object, None]:
        return view, None

    async def player_name(user: int) -> str:
        return {1: "Aiko", 2: "Bram"}[user]

    async def live_in_channel(_channel: int) -> None:
        return None

    async def latest_in_channel(_channel: int, with_game: bool = False) -> object:
        return SimpleNamespace(match_id=7)

    lookups = object.__new__(Lookups)
    lookups.records = SimpleNamespace(
        match_info=match_info, record=record_of, public_position=public_position,
        player_name=player_name, live_in_channel=live_in_channel,
        latest_in_channel=latest_in_channel, hosted=_unhosted,
    )  # fmt: skip
    lookups.actions = SimpleNamespace(service=SimpleNamespace(paint=paint or Offload(0).paint))
    lookups.limits = Limits()
    lookups.links = None
    lookups._gifs = BytesCache(64 * 1024 * 1024)
    lookups._posted = {}
    return lookups


async def test_a_past_matchs_board_and_replay_are_drawn_in_the_servers_language() -> None:
    """``/tora board`` of the last match played here and ``/tora replay`` in a German server:
    the pictures' own words ("Runde 3 · Aiko (Herausforderer) ist am Zug...") are German, as
    the answers' texts are, where they were English (and the replay was cached by its record
    alone, whatever the reader's language)."""
    view = views_from_record(MID_GAME)[-1]
    caller = Caller(User(5, "cy"), guild_id=1, channel_id=100)
    board, replay = {}, {}
    for code in ("en", "de"):
        with speaking(code):
            lookups = _reading_lookups(view, MID_GAME)
            board[code] = (await lookups.board(caller, None)).files[0].data
            replay[code] = (await lookups.replay(caller, 7, None)).files[0].data
    drawn = {"board": board, "replay": replay}
    english = [what for what, data in drawn.items() if data["de"] == data["en"]]
    assert not english, f"drawn in English for a German reader: {english}"


async def test_a_replay_gif_is_drawn_in_a_drawing_worker_not_in_the_bots_own_process(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``/tora replay`` draws a frame per turn (costly.py: "a second of CPU"). Every other
    picture is drawn by the drawing workers (docs/SERVICE.md, docs/WEB.md: "drawing never
    holds the interpreter lock the clicks of other pages are answered under"); the replay
    was drawn in a thread of the bot's process, where it held the interpreter lock that
    every channel's commands wait on, two at a time, for anyone who asks every 30 s."""
    encoded_here: list[int] = []
    gif_bytes = render.replays.gif_bytes

    def counted(frames: Any) -> bytes:
        encoded_here.append(len(frames))
        return gif_bytes(frames)

    monkeypatch.setattr(render.replays, "gif_bytes", counted)
    offload = Offload(0, 0, draw_processes=1)
    try:
        lookups = _reading_lookups(None, MID_GAME, offload.paint)
        answer = await lookups.replay(Caller(User(5, "cy"), guild_id=1, channel_id=100), 7, None)
    finally:
        offload.close()
    (gif,) = answer.files
    assert gif.data[:6] == b"GIF89a"
    assert encoded_here == [], "the replay's frames were drawn in the bot's own process"


async def test_a_past_matchs_board_and_an_analysis_chart_are_drawn_in_a_drawing_worker(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``/tora board`` of a past match and the chart of ``/tora analyse`` were drawn in
    threads of the bot's process too, each holding the interpreter lock every channel's
    commands wait on."""
    import render.eval_chart

    drawn_here: list[str] = []
    png, font = render.replays.Picture.png, render.eval_chart.font

    def counted_png(picture: Any) -> bytes:
        drawn_here.append("board")
        return png(picture)

    def counted_font(*args: Any, **kw: Any) -> Any:
        drawn_here.append("chart")
        return font(*args, **kw)

    monkeypatch.setattr(render.replays.Picture, "png", counted_png)
    monkeypatch.setattr(render.eval_chart, "font", counted_font)
    report = SimpleNamespace(values=[0.1, -0.2, 0.4], marked=[1], title="Match 7", text="ok")
    report.boards = ()

    async def analysable(_match: int, _user: object) -> None:
        return None

    async def analyse(_match: int, _user: object, _guild: int) -> object:
        return report

    offload = Offload(0, 0, draw_processes=1)
    try:
        lookups = _reading_lookups(views_from_record(MID_GAME)[-1], MID_GAME, offload.paint)
        service = lookups.actions.service
        service.analysable, service.analyse = analysable, analyse
        caller = Caller(User(5, "cy"), guild_id=1, channel_id=100)
        board = await lookups.board(caller, None)
        _started, post = await lookups.analyse(caller, 7, None)
        chart = await post()
    finally:
        offload.close()
    assert board.files[0].data[:4] == chart.files[0].data[:4] == b"\x89PNG"
    assert drawn_here == [], f"drawn in the bot's own process: {drawn_here}"


def _long_torishogi_record(plies: int) -> str:
    rng = random.Random(3)
    while True:
        game = ToriShogiGame()
        while len(game.history) < plies and not game.result:
            game.apply(game.notation(rng.choice(game.legal_moves())))
            game.end_turn()
        if not game.result:
            return write_record(game, {"Challenger": "Aiko", "Opposition": "Bram"})


async def test_the_replay_of_a_long_match_shows_its_last_turns_and_says_so() -> None:
    """``/tora replay`` of a ToriShogi match of 700 plies (no rule ends a game by its
    length; TORA's long board passes Discord's 10 MiB at about 330 turns): the replay holds
    as many frames as stay well under the limit, the last ones, chosen before drawing, and
    the answer says which, where every frame was drawn and the caller got the generic
    failure."""
    record = _long_torishogi_record(700)
    info = SimpleNamespace(id=7, game="torishogi", guild_id=1, side_of=lambda _user: None)

    async def match_info(_number: int) -> object:
        return info

    async def record_of(_match: int, _side: object = None) -> str:
        return record

    lookups = object.__new__(Lookups)
    lookups.records = SimpleNamespace(match_info=match_info, record=record_of, hosted=_unhosted)
    lookups.actions = SimpleNamespace(service=SimpleNamespace(paint=Offload(0).paint))
    lookups.limits = Limits()
    lookups.links = None
    lookups._gifs = BytesCache(64 * 1024 * 1024)
    lookups._posted = {}
    caller = Caller(User(5, "cy"), guild_id=1, channel_id=100)
    answer = await lookups.replay(caller, 7, None)
    (gif,) = answer.files
    assert gif.name.endswith(".gif") and len(gif.data) < 8 * 1024 * 1024
    frames = Image.open(io.BytesIO(gif.data)).n_frames
    assert f"its last {frames - 1} turns of 699." in answer.text  # its 700 positions' moves
