"""End to end against the local Discord emulator: playing the AI. A practice
match of ToriShogi against the AI, each of ann's turns the one the Hint button suggests; the
AI answers within moments, posts like a player, and is never sent a message. Challenging the
bot itself is challenging its AI; a rated game against it goes on the AI ladder."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.stage import Stage
from rules.torishogi import ToriShogiGame

TURNS = 3


def ai_turns(stage: Stage) -> list[str]:
    """The AI's turns as posted in the match's channel."""
    texts = [m.text() for m in stage.emu.public_messages(stage.channel)]
    return [text for text in texts if "AI (easy) (Opposition) ended their turn:" in text]


async def test_a_practice_match_against_the_ai_with_hints(tmp_path: Path) -> None:
    async with Stage(tmp_path, ("ann", "bob")) as stage:
        begun = await stage.slash("ann", "challenge", game="torishogi", ai="easy")
        assert begun.ephemeral and begun.text.startswith(
            "Your match of ToriShogi against AI (easy) has begun: "
        ), begun.text
        await stage.posted("ann starts a practice match of ToriShogi against AI (easy).")
        dm = await stage.emu.wait_until(lambda: stage.emu.world.dm_of.get(stage.user["ann"]), 30)
        for turn in range(1, TURNS + 1):
            hint = await stage.click("ann", "Hint", channel=dm)
            heading, said = hint.text.split("\n", 1)  # in a DM, the match named first
            assert heading.startswith("-# Match 1 \u00b7 ToriShogi \u00b7 ann vs AI (easy)"), (
                heading
            )
            assert hint.ephemeral and said.startswith("The AI (hard) would play: "), hint.text
            move = hint.text.split("would play: ")[1].split(".\n")[0]
            staged = await stage.slash("ann", "act", action=move)
            assert staged.text.startswith("Staged:"), staged.text
            assert (await stage.click("ann", "End turn")).text == "Your turn is over."
            answers = await stage.emu.wait_until(
                lambda n=turn: (found := ai_turns(stage)) and len(found) >= n and found, 30
            )
            answer = answers[-1]
            assert "ann (Challenger) to act: a move" in answer
        refusal = "You are asking for hints faster than I make them: up to 3 at once"
        more = []
        while len(more) < 5 and not any(m.text.startswith(refusal) for m in more):
            more.append(await stage.click("ann", "Hint", channel=dm))
        assert more[-1].text.startswith(refusal), [m.text for m in more]
        bob_hint = await stage.slash("bob", "hint")
        assert "Only ann (Challenger) and AI (easy) (Opposition) play in this match" in (
            bob_hint.text
        )
        assert set(stage.emu.world.dm_of) == {stage.user["ann"]}  # nothing was sent to the AI


async def test_challenging_the_bot_is_a_rated_game_against_its_ai_when_asked(
    tmp_path: Path,
) -> None:
    async with Stage(tmp_path, ("ann",)) as stage:
        bot = stage.emu.world.bot.id
        done = await stage.emu.slash(
            stage.user["ann"], stage.channel, "tora", "challenge", opponent=bot,
            game="torishogi", rated=True,
        )  # fmt: skip
        begun = await done.done(30)
        assert begun.text.startswith("Your match of ToriShogi against AI (normal) has begun: "), (
            begun.text
        )
        assert ", rated, " in begun.text
        hint = await stage.slash("ann", "hint")
        assert hint.text.startswith("Hints are given in practice games only"), hint.text
        await stage.slash("ann", "resign")
        await stage.click("ann", "Resign")
        await stage.posted("AI (normal) (Opposition) wins")
        ladder = await stage.slash("ann", "ladder", "show", board="ai-torishogi")
        assert "AI ToriShogi ladder" in ladder.text and "1. AI (normal)" in ladder.text


async def test_a_hint_after_staging_a_turn_that_cannot_end_answers_and_the_ai_plays_on(
    tmp_path: Path,
) -> None:
    """Regression: the search raised IllegalAction (R30) in the worker, the exception did
    not come back, the worker pool broke, and every later AI turn and hint of the process
    failed until a restart."""
    async with Stage(tmp_path, ("ann",)) as stage:
        await stage.slash("ann", "challenge", ai="easy", rated=False)
        await stage.slash("ann", "setup", strategy="aggressive")
        await stage.posted("The game begins")
        # the General ends next to the enemy: R30 refuses that turn, whatever their setup
        staged = await stage.slash("ann", "act", action="S v4h8-v4h9; G v5h9-v4h7")
        assert staged.text.startswith("Staged:"), staged.text
        hint = await stage.slash("ann", "hint")
        assert hint.ephemeral and hint.text.startswith("The AI (hard) would play"), hint.text
        assert "you have staged (`S v4h8-v4h9; G v5h9-v4h7`)" in hint.text, hint.text
        assert "/tora undo" in hint.text, hint.text
        for _ in range(2):
            await stage.slash("ann", "undo")
        turn = hint.text.split("would play: ")[1].split(".\n")[0]
        assert (await stage.slash("ann", "act", action=turn)).text.startswith("Staged:")
        assert (await stage.slash("ann", "end")).text == "Your turn is over."
        await stage.posted("AI (easy) (Opposition) ended their turn:")
        again = await stage.slash("ann", "hint")  # and hints still work
        assert again.text.startswith("The AI (hard) would play: "), again.text


async def test_a_torishogi_hint_after_staging_a_move_answers(tmp_path: Path) -> None:
    """Regression: the search looked for its move among no legal ones (one is staged); the
    StopIteration never reached the hint, which stayed "thinking" for ever, and the next hint
    was refused as still being worked out."""
    async with Stage(tmp_path, ("ann",)) as stage:
        await stage.slash("ann", "challenge", ai="hard", game="torishogi")
        await stage.posted("ann starts a practice match of ToriShogi against AI (hard).")
        assert (await stage.slash("ann", "act", action="d1c2")).text.startswith("Staged:")
        hint = await stage.slash("ann", "hint")
        assert hint.text.startswith("The AI (hard) would play: "), hint.text
        assert "what you have staged" in hint.text, hint.text
        again = await stage.slash("ann", "hint")
        assert again.text.startswith("The AI (hard) would play: "), again.text


async def test_admins_cap_the_matches_against_the_ai_in_their_server(tmp_path: Path) -> None:
    async with Stage(tmp_path, ("admin", "ann", "bob"), channels=2) as stage:
        first, second = stage.channels
        wrong = await stage.slash("admin", "admin", "settings", ai_matches="many")
        assert wrong.text.startswith(
            "The cap on matches against the AI at once is a whole number from 0 (none) to 500, "
            "or `default` (20); `many` is not."
        ), wrong.text
        saved = await stage.slash("admin", "admin", "settings", ai_matches="1")
        assert saved.ephemeral and "matches against the AI at once: 1." in saved.text
        begun = await stage.slash("ann", "challenge", ai="easy", game="torii", channel=first)
        assert begun.text.startswith("Your match of Torii against AI (easy) has begun"), begun.text
        refused = await stage.slash("bob", "challenge", ai="easy", game="torii", channel=second)
        assert refused.text.startswith(
            "This server already has 1 match against the AI going, the most its admins allow "
            "at once."
        ), refused.text
        await stage.slash("ann", "match", "abort", channel=first)
        await stage.click("ann", "Abort", channel=first)
        await stage.posted("aborted", channel=first)
        again = await stage.slash("bob", "challenge", ai="easy", game="torii", channel=second)
        assert again.text.startswith("Your match of Torii against AI (easy) has begun"), again.text
        off = await stage.slash("admin", "admin", "settings", ai_matches="0")
        assert "matches against the AI at once: none." in off.text, off.text
        await stage.slash("bob", "match", "abort", channel=second)
        await stage.click("bob", "Abort", channel=second)
        await stage.posted("aborted", channel=second)
        refused = await stage.slash("ann", "challenge", ai="easy", game="torii", channel=first)
        assert refused.text.startswith(
            "This server's admins have turned matches against the AI off here."
        ), refused.text


def quiet_for(monkeypatch: pytest.MonkeyPatch, rounds: int) -> None:
    """ToriShogi games as if no piece had been captured for ``rounds`` rounds (the count
    itself is the game's, tested in tests/test_ai_draws.py): the start is level."""
    monkeypatch.setattr(ToriShogiGame, "quiet_rounds", lambda _game: rounds)


async def test_an_ai_matches_cap_of_a_superscript_digit_is_refused_by_name(tmp_path: Path) -> None:
    """Regression: ``/tora admin settings ai_matches:²``: ``isdigit`` let it through and
    ``int`` raised, so the admin was told "Something went wrong" rather than what the cap
    takes."""
    async with Stage(tmp_path, ("ann", "admin")) as stage:
        done = await stage.slash("admin", "admin", "settings", ai_matches="\u00b2")
        assert "Something went wrong" not in done.text, done.text
        assert "whole number from 0" in done.text, done.text


async def test_the_ai_takes_a_draw_in_a_level_game_where_nothing_is_captured(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: the AI declined every draw unless it stood worse, so a dead-level game
    against it ended only by resignation."""
    async with Stage(tmp_path, ("ann",)) as stage:
        await stage.slash("ann", "challenge", ai="easy", game="torishogi")
        await stage.posted("ann starts a practice match of ToriShogi against AI (easy).")
        quiet_for(monkeypatch, 19)
        await stage.slash("ann", "draw")
        await stage.posted("AI (easy) (Opposition) declines ann's draw offer.")
        await stage.slash("ann", "act", action="a3a4")  # not offered again in the same turn
        await stage.slash("ann", "end")
        await stage.posted("AI (easy) (Opposition) ended their turn:")
        quiet_for(monkeypatch, 20)
        await stage.slash("ann", "draw")
        await stage.posted("agreed to a draw")


async def test_the_ai_offers_a_draw_in_a_level_game_where_nothing_is_captured(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with Stage(tmp_path, ("ann",)) as stage:
        await stage.slash("ann", "challenge", ai="easy", game="torishogi")
        await stage.posted("ann starts a practice match of ToriShogi against AI (easy).")
        quiet_for(monkeypatch, 20)
        await stage.slash("ann", "act", action="a3a4")
        await stage.slash("ann", "end")
        offer = await stage.posted("AI (easy) (Opposition) proposes a draw.")
        assert "ann, accept with `/tora draw`" in offer
        await stage.posted("AI (easy) (Opposition) ended their turn:")
        accepted = await stage.click("ann", "Accept the draw")
        assert accepted.text == "You accepted the draw; the match is over.", accepted.text
        await stage.posted("agreed to a draw")


async def test_after_30_rounds_without_a_capture_the_turn_post_offers_a_draw_button(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with Stage(tmp_path, ("ann", "bob")) as stage:
        await stage.slash("ann", "challenge", opponent="bob", game="torishogi")
        await stage.click("bob", "Accept")
        quiet_for(monkeypatch, 29)
        await stage.slash("ann", "act", action="a3a4")
        await stage.slash("ann", "end")
        post = await stage.posted("ann (Challenger) ended their turn:")
        assert "propose a draw" not in post
        quiet_for(monkeypatch, 30)
        await stage.slash("bob", "act", action="g5g4")
        await stage.slash("bob", "end")
        post = await stage.posted("bob (Opposition) ended their turn:")
        assert "No piece has been captured for 30 rounds" in post, post
        proposed = await stage.click("ann", "Propose a draw")  # either player may
        assert proposed.text == "You proposed a draw.", proposed.text
        await stage.posted("ann (Challenger) proposes a draw.")
        accepted = await stage.click("bob", "Accept the draw")
        assert accepted.text == "You accepted the draw; the match is over.", accepted.text
        await stage.posted("agreed to a draw")


async def test_a_hint_is_drawn_on_the_board_the_same_each_time_and_played_with_one_click(
    tmp_path: Path,
) -> None:
    """The hint comes with the player's board showing the hinted turn, asking again gives
    the same hint, and Play this stages it (in place of what was staged); End turn plays it."""
    async with Stage(tmp_path, ("ann",)) as stage:
        await stage.slash("ann", "challenge", ai="easy")
        await stage.slash("ann", "setup", strategy="aggressive")
        await stage.posted("The game begins")
        await stage.slash("ann", "act", action="S v4h8-v3h8")
        hint = await stage.slash("ann", "hint")
        assert hint.ephemeral and hint.text.startswith("The AI (hard) would play: "), hint.text
        assert "The picture shows it on your board." in hint.text
        assert [f.name for f in hint.files] == ["hint.png"]
        again = await stage.slash("ann", "hint")
        assert again.text == hint.text and again.files[0].data == hint.files[0].data
        turn = hint.text.split("would play: ")[1].split(".\n")[0]
        labels = [b["label"] for m in hint.messages for b in m.buttons()]
        assert labels == ["Play this"] or turn == "S v4h8-v3h8"
        if turn != "S v4h8-v3h8":
            played = await stage.click("ann", "Play this")
            assert played.text.startswith(f"Staged the hint: {turn}."), played.text
            board = await stage.slash("ann", "board")
            assert f"1. {turn.split('; ')[0]}" in board.text
        ended = await stage.click("ann", "End turn")
        assert ended.text == "Your turn is over."
        post = await stage.posted("ann (Challenger) ended their turn")
        for action in turn.split("; "):
            assert f"`{action}`" in post
