"""End to end, answers that turn out private after a public deferral (commands whose answer
is public by nature, until it is a refusal or a note for the caller alone): the caller reads
the answer privately, and the channel keeps no trace of it."""

from __future__ import annotations

from pathlib import Path

from emulator import Interaction
from harness.stage import Stage


def answered_privately(stage: Stage, answer: Interaction, name: str, needle: str) -> None:
    """``answer`` was shown to ``name`` alone and holds ``needle``; nothing of it (no
    note, no "thinking") is left in the channel for everyone."""
    assert answer.error is None, answer.error
    shown = [m for m in answer.messages if not m.deleted]
    assert shown and all(m.ephemeral_to == stage.user[name] for m in shown), shown
    assert needle in answer.text, answer.text
    public = [m for m in stage.emu.public_messages(stage.channel) if not m.deleted]
    assert not any(m.interaction_id == answer.id for m in public)
    assert not any("answered you privately" in m.text() for m in public)


async def test_the_ladder_of_an_empty_server(tmp_path: Path) -> None:
    async with Stage(tmp_path) as stage:
        shown = await stage.slash("ann", "ladder", "show")
        answered_privately(stage, shown, "ann", "ladder")


async def test_the_list_of_no_tournaments(tmp_path: Path) -> None:
    async with Stage(tmp_path) as stage:
        listed = await stage.slash("ann", "tournament list")
        answered_privately(stage, listed, "ann", "No tournaments here yet")


async def test_a_refused_tournament_start(tmp_path: Path) -> None:
    async with Stage(tmp_path, ("ann", "admin")) as stage:
        await stage.slash("admin", "tournament create", name="Cup", board="short", target=60)
        refused = await stage.slash("ann", "tournament start", name="Cup")
        answered_privately(stage, refused, "ann", "admin")
        listed = await stage.slash("ann", "tournament list")  # a list of some is public
        assert "Cup" in listed.text and not listed.ephemeral


async def test_a_repeated_replay(tmp_path: Path) -> None:
    async with Stage(tmp_path, ("ann", "bob", "carl")) as stage:
        await stage.slash("ann", "challenge", opponent="bob")
        await stage.click("bob", "Accept")
        await stage.slash("ann", "setup", strategy="aggressive")
        await stage.slash("bob", "setup", strategy="defensive")
        await stage.posted("The game begins")
        await stage.slash("ann", "draw")
        await stage.slash("bob", "draw")
        await stage.posted("agreed to a draw")
        first = await stage.slash("carl", "replay")
        await stage.emu.wait_until(lambda: first.files or None, 30, "the replay")
        assert not first.ephemeral  # the first goes public
        again = await stage.slash("carl", "replay")
        await stage.emu.wait_until(lambda: again.files or None, 30, "the replay again")
        answered_privately(stage, again, "carl", "")
        assert again.files[0].name == "tora-match-1.gif"
