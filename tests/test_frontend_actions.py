"""The front end's actions layer on a real match service (the test harness), and the safe
answering of interactions with a fake interaction: DM commands find the caller's match,
threads per match, buttons stamped and refused when stale, refusals and failures shown to
the caller alone."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import pytest

from bot.frontend.actions import Actions, ChallengeOptions, terms_of
from bot.frontend.buttons import Press
from bot.frontend.callers import Caller
from bot.frontend.lookups import Lookups
from bot.frontend.respond import Answer, Unusable, run
from bot.ladder.desk import LadderDesk
from bot.service import (
    GuildSettings,
    Place,
    RateLimited,
    Refused,
    StaleRequest,
    User,
    save_guild,
)
from bot.service.testing import Harness, RecordingThreads

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
    return Actions(h.service, h.store, Threads())


async def start_short(act: Actions, h: Harness, channel: int = CHANNEL) -> None:
    ann = Caller(ANN, GUILD, channel)
    bob = Caller(BOB, GUILD, channel)
    await act.challenge(ann, BOB, ChallengeOptions())
    await act.accept(bob, None)
    await act.setup(ann, None, "aggressive", None, None)
    await act.setup(bob, None, "defensive", None, None)
    await h.settle()


async def test_a_command_in_a_dm_finds_the_callers_match(act: Actions, h: Harness) -> None:
    with pytest.raises(Unusable, match="not in any match"):
        await act.place(dm(ANN))
    await start_short(act, h)
    place = await act.place(dm(ANN))
    assert (place.guild_id, place.channel_id) == (GUILD, CHANNEL)
    choices = await act.choices(dm(ANN), None, "A v5h7")
    assert choices and all(c.startswith("A v5h7") for c in choices)
    answer = await act.act(dm(ANN), None, choices[0])
    assert answer.private and answer.text.startswith("Staged:")
    await start_short(act, h, channel=101)
    with pytest.raises(Unusable, match="several matches") as several:
        await act.place(dm(ANN))
    assert "ann vs bob (playing)" in str(several.value)
    labels = await act.my_matches(ANN.id)
    assert len(labels) == 2
    chosen = await act.place(dm(ANN), labels[1][1])
    assert chosen.channel_id == 101
    with pytest.raises(Unusable, match="no live match `999`"):
        await act.place(dm(ANN), "999")
    assert await act.choices(dm(CARL), None, "") == []  # no match, no choices, no error


async def test_turn_prompts_carry_buttons_stamped_with_the_state(act: Actions, h: Harness) -> None:
    await start_short(act, h)
    [first] = (await act.choices(here(ANN), None, "A v5h7-v5h6"))[:1]
    answer = await act.act(here(ANN), None, first)
    assert answer.view is not None
    ids = [item.custom_id for item in answer.view.children]
    stamp = ids[0].rsplit(":", 1)[1]
    assert ids == [f"tora:{verb}:{GUILD}:{CHANNEL}:{stamp}" for verb in ("end", "undo", "preview")]
    press = Press.parse(ids[1])
    assert press is not None
    undone = await act.press(here(ANN), press)
    assert undone.text.startswith("Taken back:")
    end = Press.parse(ids[0])
    assert end is not None
    with pytest.raises(StaleRequest):  # the undo moved the match on: the old button is stale
        await act.press(here(ANN), end)
    preview = await act.press(dm(BOB), Press("preview", GUILD, CHANNEL, None))
    assert preview.private and preview.files


async def test_a_public_board_for_spectators_and_a_private_one_for_players(
    act: Actions, h: Harness
) -> None:
    await start_short(act, h)
    assert await act.plays_here(here(ANN)) and not await act.plays_here(here(CARL))
    assert (await act.board(here(CARL), None)).private is False
    assert (await act.board(here(ANN), None)).private is True
    assert (await act.preview(here(CARL), None)).private is True


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


def test_typed_options_become_terms() -> None:
    terms = terms_of(ChallengeOptions(board="long", deadline="3d", terrain_map="water v4h6"), None)
    assert (terms.board, terms.turn_seconds, terms.terrain) == ("long", 259200.0, "custom")
    assert terms_of(ChallengeOptions(), 600.0).turn_seconds == 600.0
    assert terms_of(ChallengeOptions(), None).turn_seconds == 86400.0


async def test_records_settings_and_admin_checks(act: Actions, h: Harness) -> None:
    lookups = Lookups(act, h.store, LadderDesk(h.service, h.store, RecordingThreads()))
    with pytest.raises(Unusable, match="No game is being played here"):
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


# ---- answering interactions ----------------------------------------------------------------
class FakeResponse:
    def __init__(self, log: list[tuple[str, Any]]) -> None:
        self.log = log
        self.done = False

    def is_done(self) -> bool:
        return self.done

    async def defer(self, *, ephemeral: bool, thinking: bool) -> None:
        self.done = True
        self.log.append(("defer", ephemeral))

    async def send_message(self, content: str, *, ephemeral: bool, **kw: Any) -> None:
        self.done = True
        self.log.append(("send", (content, ephemeral)))


def fake_interaction() -> tuple[Any, list[tuple[str, Any]]]:
    log: list[tuple[str, Any]] = []

    async def edit(**kw: Any) -> None:
        log.append(("edit", kw["content"]))

    async def followup(content: str, *, ephemeral: bool, **kw: Any) -> None:
        log.append(("followup", (content, ephemeral)))

    interaction = SimpleNamespace(
        id=1,
        response=FakeResponse(log),
        extras={},
        edit_original_response=edit,
        followup=SimpleNamespace(send=followup),
        command=SimpleNamespace(qualified_name="tora act"),
        user=SimpleNamespace(id=2),
    )
    return interaction, log


async def test_refusals_go_to_the_caller_alone_after_a_deferral() -> None:
    interaction, log = fake_interaction()

    async def refused() -> Answer:
        raise RateLimited("Please wait 2 seconds; nothing was done.", 2.0)

    await run(interaction, refused, private=True)
    assert log == [("defer", True), ("edit", "Please wait 2 seconds; nothing was done.")]


async def test_an_unexpected_failure_is_logged_with_a_ref_the_caller_gets(caplog) -> None:
    interaction, log = fake_interaction()

    async def broken() -> Answer:
        raise KeyError("oops")

    with caplog.at_level(logging.ERROR):
        await run(interaction, broken, private=False)
    [record] = [r for r in caplog.records if r.getMessage() == "command failed"]
    ref = record.ref  # type: ignore[attr-defined]
    assert log[0] == ("defer", False)
    assert log[1] == ("edit", "I have answered you privately.")  # deferred in public...
    assert log[2][0] == "followup" and log[2][1][1] is True  # ...the failure goes privately
    assert f"nothing was changed (ref `{ref}`)" in log[2][1][0]


async def test_a_public_answer_after_a_public_deferral_and_long_texts_in_pieces() -> None:
    interaction, log = fake_interaction()
    await run(interaction, _answer("x" * 2500, private=False), private=False)
    assert log == [("defer", False), ("edit", "x" * 2000), ("followup", ("x" * 500, False))]
    interaction, log = fake_interaction()
    await run(interaction, _answer("board", private=False), private=True)
    assert log == [("defer", True), ("edit", "board")]  # a public answer may stay private


def _answer(text: str, private: bool) -> Any:
    async def work() -> Answer:
        return Answer(text, private=private)

    return work
