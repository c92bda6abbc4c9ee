"""End to end, the two ways an interaction is answered: at once, when its answer is ready
within the bot's short wait (one request: the response is the answer, Discord's callback 4,
or 7 for a pick that edits its message), or deferred first when it is not (callback 5 or 6,
then the answer as the deferral's edit). Each test runs both ways, the slow one made slow
here; the player sees the same thing either way: the same answer, as private as before, a
refusal to them alone, and never "This interaction failed", even past Discord's 3 s."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

import pytest

from bot.app import menus
from bot.app.completions import Completions
from bot.discord import respond, setup_form
from emulator import Interaction, Msg
from emulator.models import walk_components
from harness.stage import Stage, planned_turn
from rules.tora import Game

MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE = 4, 5, 6, 7
SLOW = 1.0  # seconds the slow runs' work takes: well past the bot's wait (QUICK)
PATIENT = 2.0  # the quick runs' wait: inside Discord's 3 s, whatever the machine's load
SLOW_COMPLETION = 3.5  # seconds a slow autocomplete's work takes: past Discord's 3 s


def slowed(monkeypatch: pytest.MonkeyPatch, seconds: float) -> None:
    """Make the bot's work for every interaction take ``seconds`` more (the bot runs in
    this process)."""
    real = respond.in_time

    async def slowly(interaction: Any, job: Coroutine[Any, Any, Any], acknowledge: Any) -> Any:
        async def later() -> Any:
            await asyncio.sleep(seconds)
            return await job

        return await real(interaction, later(), acknowledge)

    monkeypatch.setattr(respond, "in_time", slowly)


# the slow runs wait on purpose (5-10 s a test): make soak runs them; make test keeps the
# deferral's own test (an answer slower than Discord's 3 s)
@pytest.fixture(params=["quick", pytest.param("slow", marks=pytest.mark.slow)])
def pace(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """A quick run waits long enough for any answer on a loaded machine; a slow one makes
    every answer slower than the bot waits."""
    if request.param == "slow":
        slowed(monkeypatch, SLOW)
    else:
        monkeypatch.setattr(respond, "QUICK", PATIENT)
    return str(request.param)


def requests_of(stage: Stage, done: Interaction) -> list[str]:
    """The bot's requests about ``done`` (its callback and its token's webhook)."""
    return [
        f"{r.method} {r.path.split('/')[-1]}"
        for r in stage.emu.requests
        if f"/interactions/{done.id}/" in r.path or f"/{done.token}" in r.path
    ]


def answered(done: Interaction, pace: str, *, pick: bool = False) -> None:
    """``done`` was answered without error, at once (quick) or deferred then edited."""
    assert done.error is None, done.error
    if pace == "quick":
        assert done.callback_type == (UPDATE if pick else MESSAGE)
    else:
        assert done.callback_type == (DEFERRED_UPDATE if pick else DEFERRED_MESSAGE)
        assert done.latency is not None and done.latency < SLOW  # acknowledged before done
    assert not any(m.loading and not m.deleted for m in done.messages)  # no "thinking..."


async def started(stage: Stage) -> Game:
    await stage.slash("ann", "challenge", opponent="bob")
    await stage.click("bob", "Accept")
    await stage.slash("ann", "setup", strategy="aggressive")
    await stage.slash("bob", "setup", strategy="defensive")
    await stage.posted("The game begins")
    return Game(board="short", challenger_setup="aggressive", opposition_setup="defensive")


async def test_typed_commands_and_their_refusals(tmp_path: Path, pace: str) -> None:
    async with Stage(tmp_path) as stage:
        game = await started(stage)
        [action, *_] = planned_turn(game, random.Random(3), attack=False)
        acted = await stage.slash("ann", "act", action=action)
        answered(acted, pace)
        assert requests_of(stage, acted) == (
            ["POST callback"] if pace == "quick" else ["POST callback", "PATCH @original"]
        )
        [shown] = acted.messages
        assert shown.ephemeral_to == stage.user["ann"] and action in shown.text()
        refused = await stage.slash("bob", "act", action=action)  # not his turn
        answered(refused, pace)
        [told] = refused.messages
        assert told.ephemeral_to == stage.user["bob"] and "turn" in told.text()


async def test_a_refusal_to_a_command_asked_public_stays_private(tmp_path: Path, pace: str) -> None:
    async with Stage(tmp_path, ("ann", "admin")) as stage:
        await stage.slash("admin", "tournament create", name="Cup", board="short", target=60)
        refused = await stage.slash("ann", "tournament start", name="Cup")
        answered(refused, pace)
        shown = [m for m in refused.messages if not m.deleted]
        assert shown and all(m.ephemeral_to == stage.user["ann"] for m in shown)
        public = [m for m in stage.emu.public_messages(stage.channel) if not m.deleted]
        assert not any(m.interaction_id == refused.id for m in public)  # no "thinking" left
        listed = await stage.slash("ann", "tournament list")  # a public answer stays public
        answered(listed, pace)
        assert "Cup" in listed.text and not listed.ephemeral


async def test_panel_picks_edit_the_panel_and_a_stale_one_is_told(
    tmp_path: Path, pace: str
) -> None:
    async with Stage(tmp_path) as stage:
        game = await started(stage)
        ann = stage.user["ann"]
        opened = await stage.open_panel("ann")
        answered(opened, pace)
        [panel] = opened.messages
        text = game.notations(game.legal_actions())[0]
        group = game.choices()[0].group
        path = menus.route(game.menu(), game.choices(group), text)
        pick, _ = await stage.pick_once("ann", text, path)
        answered(pick, pace, pick=True)
        assert pick.response is not None and pick.response.id == panel.id  # edited in place
        assert requests_of(stage, pick) == (
            ["POST callback"] if pace == "quick" else ["POST callback", "PATCH @original"]
        )
        await stage.pick("ann", text, path)
        end = next(b for b in panel.buttons() if b["label"] == "End turn")
        clicks = [await stage.emu.click(ann, panel.id, end["custom_id"]) for _ in range(2)]
        for click in clicks:  # a double click: both sent before either is answered
            answered(await click.done(30), pace, pick=True)
        told = await stage.emu.wait_until(
            lambda: [m for c in clicks for m in c.followups] or None, 30, "the refusal"
        )
        assert [m.ephemeral_to for m in told] == [ann]
        assert "That turn has already ended" in told[0].text()
        await stage.posted("ann (Challenger) ended their turn")
        assert not [c for c in walk_components(panel.components) if c["type"] == 3]


async def setup_form_button(stage: Stage) -> tuple[Msg, dict[str, Any]]:
    """Ann's setup form once bob accepted her challenge, and its aggressive strategy button."""
    await stage.slash("ann", "challenge", opponent="bob")
    await stage.click("bob", "Accept")
    form = await stage.emu.wait_for_dm(
        stage.user["ann"], lambda m: "Choose your setup" in m.text() and bool(m.components)
    )
    [button] = [
        c for c in walk_components(form.components) if c.get("label") == "Strategy: aggressive"
    ]
    return form, button


async def test_a_setup_pick_edits_its_form(tmp_path: Path, pace: str) -> None:
    async with Stage(tmp_path) as stage:
        form, button = await setup_form_button(stage)
        clicked = await stage.emu.click(stage.user["ann"], form.id, button["custom_id"])
        pick = await clicked.done(30)
        answered(pick, pace, pick=True)
        assert "Your setup so far: strategy aggressive" in stage.emu.world.messages[form.id].text()


async def test_an_answer_slower_than_discords_3_s_still_comes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with Stage(tmp_path) as stage:
        game = await started(stage)
        slowed(monkeypatch, 3.5)
        [action, *_] = planned_turn(game, random.Random(3), attack=False)
        acted = await (
            await stage.emu.slash(stage.user["ann"], stage.channel, "tora", "act", action=action)
        ).done(30)
        assert acted.error is None and acted.callback_type == DEFERRED_MESSAGE
        assert action in acted.text and acted.latency is not None and acted.latency < 3.0


async def test_a_pick_whose_answer_fails_to_build_is_answered_all_the_same(
    tmp_path: Path, pace: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pick was taken, but its form's new buttons could not be made: the player is told,
    privately, with a reference, instead of Discord's "This interaction failed"."""
    async with Stage(tmp_path) as stage:
        form, button = await setup_form_button(stage)

        def broken(*_args: object) -> None:
            raise RuntimeError("the form's buttons could not be made (simulated)")

        monkeypatch.setattr(setup_form, "view_of", broken)
        clicked = await stage.emu.click(stage.user["ann"], form.id, button["custom_id"])
        pick = await clicked.done(30)
        assert pick.error is None, pick.error
        assert any("Something went wrong on my side" in m.text() for m in pick.messages)


async def test_a_spectators_board_comes_when_the_database_is_slow(tmp_path: Path) -> None:
    """Regression: /tora board looked up whether the caller plays here (a database read)
    before acknowledging; with the database slower than Discord's 3 s, carl read "This
    interaction failed". He is acknowledged in time and shown the board (privately, as when
    the read fails: never wrong, only less visible)."""
    async with Stage(tmp_path, ("ann", "bob", "carl")) as stage:
        await started(stage)
        await stage.quiet()
        assert stage.bot is not None
        records = stage.bot.app.actions.records
        real = records.live_in_channel

        async def slow(channel_id: int) -> Any:
            await asyncio.sleep(3.5)
            return await real(channel_id)

        records.live_in_channel = slow  # type: ignore[method-assign]
        sent = await stage.emu.slash(stage.user["carl"], stage.channel, "tora", "board")
        board = await sent.done(30)
        assert board.error is None and board.callback_type == DEFERRED_MESSAGE, board.errors
        assert board.latency is not None and board.latency < 3.0
        assert board.files


async def test_a_pick_is_acknowledged_in_time_when_the_shared_database_is_slow(
    tmp_path: Path,
) -> None:
    """Regression: with several processes, whether an interaction was already taken is a
    database write, made before acknowledging it; the database slower than Discord's 3 s,
    a pick in the setup form (or any command) failed. It is acknowledged in time, then
    carried out."""
    async with Stage(tmp_path) as stage:
        form, button = await setup_form_button(stage)
        assert stage.bot is not None
        handled = stage.bot.client.handlers.respond.handled  # type: ignore[union-attr]

        async def slow(_interaction_id: int) -> bool:
            await asyncio.sleep(3.5)
            return True

        handled.sharing = slow
        clicked = await stage.emu.click(stage.user["ann"], form.id, button["custom_id"])
        pick = await clicked.done(30)
        assert pick.error is None and pick.callback_type == DEFERRED_UPDATE, pick.errors
        assert pick.latency is not None and pick.latency < 3.0
        typed = await (
            await stage.emu.slash(stage.user["bob"], stage.channel, "tora", "games")
        ).done(30)
        assert typed.error is None and typed.callback_type == DEFERRED_MESSAGE, typed.errors
        assert typed.latency is not None and typed.latency < 3.0


async def test_an_autocomplete_slower_than_discord_waits_answers_in_time_and_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Discord shows "Loading options failed" for an autocomplete answered past its 3 s,
    and the bot's late answer was refused: one that is slow (a busy database, the first
    look at a long board's actions) answers in time with no choices and goes on working,
    so that a later keystroke finds it done."""
    real = Completions.action
    slow = [SLOW_COMPLETION]

    async def action(self: Completions, caller: Any, match: str | None, typed: str) -> Any:
        if slow:
            await asyncio.sleep(slow.pop())
        return await real(self, caller, match, typed)

    monkeypatch.setattr(Completions, "action", action)
    async with Stage(tmp_path) as stage:
        await started(stage)
        ann, channel = stage.user["ann"], stage.channel

        async def typed() -> list[dict[str, Any]]:
            return await stage.emu.autocomplete(
                ann, channel, "tora", "act", focused="action", action="A", timeout=10
            )

        assert await typed() == []
        callbacks = [r for r in stage.emu.requests if r.path.endswith("/callback")]
        assert callbacks[-1].status < 300  # in Discord's time
        await asyncio.sleep(SLOW_COMPLETION)
        assert await typed()
