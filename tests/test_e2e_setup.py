"""End to end against the local Discord emulator: the setup phase as a player meets it. The
answers that apply to the match are taken and the others named as ignored (and why), a
resignation before the game is answered at once with the way out, and the setup is made with
the components of the setup message alone (TORA's strategy and Ruler with buttons, the
Assassin's square with a select; Torii's Spirit with a select that shows each power)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from emulator import Interaction, Msg
from emulator.models import walk_components
from harness.stage import Stage
from rules import Side
from rules.tora import parse_square
from rules.torii import POWERS


async def accepted(stage: Stage, **terms: object) -> None:
    await stage.slash("ann", "challenge", opponent="bob", **terms)
    await stage.click("bob", "Accept")


async def test_setup_takes_the_answers_that_apply_and_names_the_ignored(tmp_path: Path) -> None:
    async with Stage(tmp_path) as stage:
        await accepted(stage)  # the short board, no Assassins
        mine = await stage.slash("ann", "setup", strategy="aggressive", ruler="K", assassin="none")
        assert "strategy aggressive" in mine.text, mine.text
        assert "Ignored: your Ruler (only the long board has one)" in mine.text
        assert "your Assassin (this match is played without Assassins)" in mine.text
        await stage.posted("ann has finished setting up")
        wrong = await stage.slash("bob", "setup", strategy="sneaky", ruler="Q")
        assert "not `sneaky`" in wrong.text  # a wrong answer saves nothing
        only = await stage.slash("bob", "setup", ruler="Q")
        assert "Only the long board has a Ruler" in only.text  # nothing applies: refused
        await stage.slash("bob", "setup", strategy="defensive", spirit="Deer")
        await stage.posted("The game begins")


async def test_torii_setup_ignores_tora_answers_beside_a_spirit(tmp_path: Path) -> None:
    async with Stage(tmp_path) as stage:
        await accepted(stage, game="torii")
        mine = await stage.slash("ann", "setup", strategy="aggressive", spirit="Crane")
        assert "spirit Crane" in mine.text and "Ignored: your strategy (TORA's)" in mine.text


async def test_resigning_during_the_setup_says_at_once_how_to_leave(tmp_path: Path) -> None:
    async with Stage(tmp_path) as stage:
        await accepted(stage)
        answer = await stage.slash("ann", "resign")
        assert "nothing to resign" in answer.text and "/tora-match abort" in answer.text
        assert not any(m.buttons() for m in answer.messages)  # no confirmation to click


async def test_declining_during_the_setup_says_how_to_leave(tmp_path: Path) -> None:
    """bob accepted ann's challenge, then typed ``/tora decline``: the answer was only "The
    players are still choosing their setup, so that cannot be done now." It names the way
    out, ``/tora-match abort``, as ``/tora resign`` during the setup does."""
    async with Stage(tmp_path) as stage:
        await accepted(stage)
        answer = await stage.slash("bob", "decline")
        assert "/tora-match abort" in answer.text, answer.text


def components(msg: Msg) -> list[dict[str, Any]]:
    return [c for c in walk_components(msg.components) if c.get("type") in (2, 3)]


def select_of(msg: Msg, name: str) -> dict[str, Any]:
    return next(c for c in components(msg) if c.get("custom_id", "").split(":")[-2] == name)


async def setup_message(stage: Stage, name: str) -> Msg:
    """The setup prompt in ``name``'s DMs, with its components."""
    return await stage.emu.wait_for_dm(
        stage.user[name], lambda m: "Choose your setup" in m.text() and bool(m.components)
    )


async def press(stage: Stage, name: str, msg: Msg, label: str) -> Interaction:
    button = next(c for c in components(msg) if c.get("label") == label)
    done = await stage.emu.click(stage.user[name], msg.id, button["custom_id"])
    return await done.done(30)


async def choose(stage: Stage, name: str, msg: Msg, question: str, value: str) -> Interaction:
    select = select_of(msg, question)
    done = await stage.emu.select(stage.user[name], msg.id, select["custom_id"], [value])
    return await done.done(30)


async def test_a_whole_tora_setup_with_an_assassin_by_components_only(tmp_path: Path) -> None:
    async with Stage(tmp_path) as stage:
        await accepted(stage, board="long", assassins=True)
        ann = await setup_message(stage, "ann")
        buttons = [c for c in components(ann) if c["type"] == 2]
        labels = [c.get("label") for c in buttons if c.get("style") != 5]
        assert labels == ["Strategy: aggressive", "Strategy: defensive", "Ruler: K", "Ruler: Q"]
        links = [c.get("label") for c in buttons if c.get("style") == 5]
        assert links == ["Open the board"]  # the setup can be done on the web board too
        assassin = select_of(ann, "assassin")  # before a strategy: only none
        assert [o["value"] for o in assassin["options"]] == ["none"]
        assert "choose your strategy first" in assassin["placeholder"]
        assert "Six Archers hold the front's centre" in ann.text()  # what each strategy is

        picked = await press(stage, "ann", ann, "Strategy: aggressive")
        assert picked.error is None
        ann = stage.emu.world.messages[ann.id]
        assert "Your setup so far: strategy aggressive" in ann.text(), ann.text()
        chosen = next(c for c in components(ann) if c.get("label") == "Strategy: aggressive")
        assert chosen["style"] == 3  # green: the choice is marked
        squares = [o["value"] for o in select_of(ann, "assassin")["options"]]
        assert len(squares) > 2 and squares[-1] == "none" and squares[0].endswith("h17")

        await stage.stop_bot()  # the form works after a restart
        await stage.launch()
        await choose(stage, "ann", ann, "assassin", squares[0])
        await press(stage, "ann", stage.emu.world.messages[ann.id], "Ruler: Q")
        ann = stage.emu.world.messages[ann.id]
        assert f"Assassin starts on {squares[0]}" in ann.text() and "That is all" in ann.text()
        await stage.posted("ann has finished setting up")

        bob = await setup_message(stage, "bob")
        await press(stage, "bob", bob, "Strategy: defensive")
        await press(stage, "bob", stage.emu.world.messages[bob.id], "Ruler: K")
        await choose(stage, "bob", stage.emu.world.messages[bob.id], "assassin", "none")
        begins = await stage.posted("The game begins")
        assert "aggressive" in begins and "defensive" in begins
        await stage.quiet()
        for msg in (stage.emu.world.messages[ann.id], stage.emu.world.messages[bob.id]):
            shown = [c for c in components(msg) if c.get("style") != 5]  # links stay usable
            assert shown and all(c.get("disabled") for c in shown)
        assert stage.bot is not None and stage.bot.store is not None
        game = (await stage.bot.store.load(1)).game
        assert game.pos.hidden_assassin(Side.CHALLENGER).sq == parse_square(squares[0], 17)
        assert game.pos.hidden_assassin(Side.OPPOSITION) is None


async def test_r41_the_setup_command_answers_with_the_form_as_it_leaves_it(
    tmp_path: Path,
) -> None:
    """ann chose her strategy with ``/tora setup``: the answer was text alone, and the one
    form she had, her DM's, still said "choose your strategy first" and offered only
    ``none`` for her Assassin. The command's answer now carries her form as it is now, for
    her alone: the Assassin's squares under her strategy, to pick there."""
    async with Stage(tmp_path) as stage:
        await accepted(stage, board="long", assassins=True)
        await setup_message(stage, "ann")
        answer = await stage.slash("ann", "setup", strategy="aggressive")
        form = next(m for m in answer.ephemeral if m.components)
        chosen = next(c for c in components(form) if c.get("label") == "Strategy: aggressive")
        assert chosen["style"] == 3  # green: the choice is marked
        squares = [o["value"] for o in select_of(form, "assassin")["options"]]
        assert len(squares) > 2 and squares[-1] == "none", squares
        picked = await choose(stage, "ann", form, "assassin", squares[0])
        assert picked.error is None
        shown = stage.emu.world.messages[form.id].text()
        assert f"Assassin starts on {squares[0]}" in shown, shown


async def test_r41_the_setup_command_without_options_answers_with_the_form(
    tmp_path: Path,
) -> None:
    """A player whose DMs are closed is told to choose their setup with ``/tora setup``;
    typed without options it only said "Tell me what you choose (...) with /tora setup.",
    text without a button. It now says so above the form, to answer on there."""
    async with Stage(tmp_path) as stage:
        await accepted(stage)
        answer = await stage.slash("bob", "setup")
        assert "Tell me what you choose" in answer.text, answer.text
        form = next(m for m in answer.ephemeral if m.components)
        await press(stage, "bob", form, "Strategy: defensive")
        shown = stage.emu.world.messages[form.id].text()
        assert "Your setup so far: strategy defensive" in shown, shown


async def test_ti4_a_torii_spirit_by_components_only_shows_every_power(tmp_path: Path) -> None:
    async with Stage(tmp_path) as stage:
        await accepted(stage, game="torii")
        ann = await setup_message(stage, "ann")
        for spirit, power in POWERS.items():  # the prompt explains every power
            assert f"`{spirit}`: {power}" in ann.text()
        menu = select_of(ann, "spirit")
        shown = {o["value"]: o.get("description") for o in menu["options"]}
        assert shown == POWERS
        offered = await stage.emu.autocomplete(
            stage.user["bob"], stage.channel, "tora", "setup", focused="spirit", spirit="M"
        )
        assert [c["name"] for c in offered] == [f"Monkey · {POWERS['Monkey']}"]
        await choose(stage, "ann", ann, "spirit", "Monkey")
        ann = stage.emu.world.messages[ann.id]
        assert "spirit Monkey" in ann.text()
        assert (
            next(o for o in select_of(ann, "spirit")["options"] if o.get("default"))["value"]
            == "Monkey"
        )
        bob = await setup_message(stage, "bob")
        await choose(stage, "bob", bob, "spirit", "Crane")
        begins = await stage.posted("The game begins")
        assert "playing Monkey against" in begins and "playing Crane" in begins
        await stage.quiet()
        bob = stage.emu.world.messages[bob.id]
        assert "the game begins" in bob.text()
        for msg in (stage.emu.world.messages[ann.id], bob):
            shown = [c for c in components(msg) if c.get("style") != 5]  # links stay usable
            assert shown and all(c.get("disabled") for c in shown)


async def test_the_assassin_autocomplete_in_a_dm_of_several_matches_says_to_name_one(
    tmp_path: Path,
) -> None:
    """Regression: in a DM, with two matches in their setup, ``/tora setup assassin:``
    offered nothing at all, where ``strategy:`` (and every other completion) showed the hint
    saying to name the match with the ``match`` option; now it shows the same hint."""
    async with Stage(tmp_path, channels=2) as stage:
        for channel in stage.channels:
            await stage.slash("ann", "challenge", opponent="bob", channel=channel, board="long")
            await stage.click("bob", "Accept", channel=channel)
        dm = stage.emu.dm_channel(stage.user["ann"])

        async def hint(focused: str, typed: str) -> list[str]:
            offered = await stage.emu.autocomplete(
                stage.user["ann"], dm, "tora", "setup", focused=focused, **{focused: typed}
            )
            return [choice["name"] for choice in offered]

        said = "You play in several matches: say which one with the `match` option."
        assert await hint("strategy", "a") == [said]
        assert await hint("assassin", "v") == [said]


async def test_r41_the_setup_command_edits_the_form_in_the_dm_too(tmp_path: Path) -> None:
    """ann chose her strategy with ``/tora setup``: the setup message in her DMs still said
    "choose your strategy first" for her Assassin, offered only ``none`` and showed no
    strategy chosen, until one of its own components was used. It now shows her form as the
    command left it."""
    async with Stage(tmp_path) as stage:
        await accepted(stage, board="long", assassins=True)
        dm = await setup_message(stage, "ann")
        await stage.slash("ann", "setup", strategy="aggressive")
        dm = stage.emu.world.messages[dm.id]
        chosen = next(c for c in components(dm) if c.get("label") == "Strategy: aggressive")
        assert chosen["style"] == 3  # green: the choice is marked
        squares = [o["value"] for o in select_of(dm, "assassin")["options"]]
        assert len(squares) > 2 and squares[-1] == "none", squares
        links = [c.get("label") for c in components(dm) if c.get("style") == 5]
        assert links == ["Open the board"]
