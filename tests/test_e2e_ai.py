"""End to end against the local Discord emulator: playing the AI (issue 17). A practice
match of ToriShogi against the AI, each of ann's turns the one the Hint button suggests; the
AI answers within moments, posts like a player, and is never sent a message. Challenging the
bot itself is challenging its AI; a rated game against it goes on the AI ladder."""

from __future__ import annotations

from pathlib import Path

from emulator.stage import Stage

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
            assert hint.ephemeral and hint.text.startswith("The AI (hard) would play: "), hint.text
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
