"""End to end, the buttons of a proposal (a draw, a pause, a reset): they work for the
opponent from the moment they are posted, over turns, until the proposal is answered,
taken back or lapses, or the match ends; then they are greyed out."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from emulator import Msg
from harness.stage import Stage, planned_turn
from rules.tora import Game


async def started(stage: Stage, **terms: object) -> None:
    await stage.slash("ann", "challenge", opponent="bob", **terms)
    await stage.click("bob", "Accept")
    long = terms.get("board") == "long"
    extra = {"ruler": "K"} if long else {}
    await stage.slash("ann", "setup", strategy="aggressive", **extra)
    await stage.slash("bob", "setup", strategy="defensive", **extra)
    await stage.posted("The game begins")


async def proposal(stage: Stage, needle: str) -> Msg:
    """The public post of the proposal, once everything the bot had to do is done."""
    await stage.posted(needle)
    await stage.quiet()
    return next(m for m in reversed(stage.emu.messages(stage.channel)) if needle in m.text())


def actions(message: Msg) -> list[dict[str, object]]:
    """The message's buttons but its links (which open a web page and never go stale)."""
    return [b for b in message.buttons() if "url" not in b]


def live(message: Msg) -> bool:
    return bool(actions(message)) and not any(b.get("disabled") for b in actions(message))


def dead(message: Msg) -> bool:
    return bool(actions(message)) and all(b.get("disabled") for b in actions(message))


async def test_a_draw_offer_is_accepted_with_its_button_after_the_proposer_ended_a_turn(
    tmp_path: Path,
) -> None:
    async with Stage(tmp_path) as stage:
        await started(stage)
        await stage.slash("ann", "draw")
        offer = await proposal(stage, "proposes a draw")
        assert live(offer), offer.buttons()
        game = Game(board="short", challenger_setup="aggressive", opposition_setup="defensive")
        for text in planned_turn(game, random.Random(3), attack=False):
            await stage.slash("ann", "act", action=text)
        await stage.slash("ann", "end")
        await stage.posted("ann (Challenger) ended their turn")
        await stage.quiet()
        assert live(offer)  # the offer stands until bob answers it or ends a turn
        accepted = await stage.click("bob", "Accept the draw")
        assert accepted.error is None and "accepted the draw" in accepted.text, accepted.text
        await stage.posted("agreed to a draw")
        await stage.quiet()
        assert dead(offer)


async def test_a_pause_is_agreed_with_its_button_then_the_buttons_are_off(tmp_path: Path) -> None:
    async with Stage(tmp_path) as stage:
        await started(stage)
        await stage.slash("ann", "match", "pause")
        offer = await proposal(stage, "proposes a pause")
        assert live(offer), offer.buttons()
        agreed = await stage.click("bob", "Agree to pause")
        assert agreed.error is None and agreed.text == "The match is paused.", agreed.text
        await stage.posted("agreed to pause")
        await stage.quiet()
        assert dead(offer)


async def test_a_reset_is_accepted_with_its_button(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # R28's position (a player down to one command piece) takes dozens of turns to reach;
    # these buttons do not depend on how it was reached.
    monkeypatch.setattr(Game, "can_reset", lambda self, proposer=None: True)
    async with Stage(tmp_path) as stage:
        await started(stage, board="long", target=30)
        await stage.slash("ann", "match", "reset")
        offer = await proposal(stage, "proposes a reset")
        assert live(offer), offer.buttons()
        accepted = await stage.click("bob", "Accept the reset")
        assert accepted.error is None and accepted.text == "You accepted the reset.", accepted.text
        await stage.posted("agreed to reset the board")
        await stage.quiet()
        assert dead(offer)


async def test_a_proposals_decline_button_declines_that_proposal_alone(tmp_path: Path) -> None:
    """The Decline under bob's draw offer declined every proposal standing, ann's own pause
    too; it declines the draw alone, as the web board's does."""
    async with Stage(tmp_path) as stage:
        await started(stage)
        await stage.slash("ann", "match", "pause")
        await proposal(stage, "proposes a pause")
        await stage.slash("bob", "draw")
        await proposal(stage, "bob (Opposition) proposes a draw")
        declined = await stage.click("ann", "Decline")
        assert declined.error is None, declined.text
        await stage.posted("ann (Challenger) declines bob's draw offer.")
        agreed = await stage.click("bob", "Agree to pause")
        assert agreed.error is None, agreed.text
        await stage.posted("agreed to pause")


async def test_declined_with_its_button_and_a_lapsed_offer_greyed_out(tmp_path: Path) -> None:
    async with Stage(tmp_path) as stage:
        await started(stage)
        await stage.slash("ann", "draw")
        first = await proposal(stage, "proposes a draw")
        declined = await stage.click("bob", "Decline")
        assert declined.error is None, declined.text
        await stage.posted("declines ann's draw offer")
        await stage.quiet()
        assert dead(first)
        # bob offers, ann plays on: his offer lapses when she ends her turn
        await stage.slash("bob", "draw")
        second = await proposal(stage, "bob (Opposition) proposes a draw")
        game = Game(board="short", challenger_setup="aggressive", opposition_setup="defensive")
        for text in planned_turn(game, random.Random(3), attack=False):
            await stage.slash("ann", "act", action=text)
        await stage.slash("ann", "end")
        await stage.posted("ann (Challenger) ended their turn")
        await stage.quiet()
        assert dead(second)
