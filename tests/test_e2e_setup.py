"""End to end against the local Discord emulator: the setup phase as a player meets it. The
answers that apply to the match are taken and the others named as ignored (and why), a
resignation before the game is answered at once with the way out, and the setup is made with
the components of the setup message alone (TORA's strategy and Ruler with buttons, the
Assassin's square with a select; Torii's Spirit with a select that shows each power)."""

from __future__ import annotations

from pathlib import Path

from emulator.stage import Stage


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
        assert "nothing to resign" in answer.text and "/tora match abort" in answer.text
        assert not any(m.buttons() for m in answer.messages)  # no confirmation to click
