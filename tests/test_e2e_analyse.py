"""End to end against the local Discord emulator: ``/tora-match analyse`` (issue 28). A running
match is refused; once a practice match against the AI has ended, the command answers the
caller at once, and the analysis (its words, the evaluation graph and the boards of the
turns that lost the most) is posted in the channel a moment later, pinging nobody."""

from __future__ import annotations

from pathlib import Path

from harness.stage import Stage


def ai_turns(stage: Stage) -> int:
    """How many turns the AI has posted in the match's channel."""
    posts = stage.emu.public_messages(stage.channel)
    return sum("AI (easy) (Opposition) ended their turn" in m.text() for m in posts)


async def test_a_finished_practice_match_is_analysed_and_posted(tmp_path: Path) -> None:
    async with Stage(tmp_path, ("ann",)) as stage:
        await stage.slash("ann", "challenge", game="torishogi", ai="easy")
        await stage.posted("ann starts a practice match of ToriShogi against AI (easy).")
        running = await stage.slash("ann", "match", "analyse")
        assert running.ephemeral, running.text
        assert "is still being played: it can be analysed once it has ended" in running.text
        staged = await stage.slash("ann", "act", action="c3c4")
        assert staged.text.startswith("Staged:"), staged.text
        await stage.click("ann", "End turn")
        await stage.emu.wait_until(lambda: ai_turns(stage) >= 1, 30)
        await stage.slash("ann", "resign")
        await stage.click("ann", "Resign")
        await stage.posted("AI (easy) (Opposition) wins")
        started = await stage.slash("ann", "match", "analyse")
        assert started.ephemeral, started.text
        assert started.text.startswith("Analysing match "), started.text
        assert "(ToriShogi)" in started.text and "I'll post the analysis here" in started.text
        number = started.text.split("Analysing match ")[1].split(" ")[0]
        post = await stage.emu.wait_for_message(
            stage.channel,
            lambda m: m.ephemeral_to is None and m.text().startswith("Analysis of match"),
            60,
        )
        assert post.text().startswith(f"Analysis of match {number} (ToriShogi), 2 turns"), (
            post.text()
        )
        names = [file.name for file in post.files]
        assert names[0] == f"torishogi-match-{number}-analysis.png", names
        assert all(name.endswith("-better.png") for name in names[1:]), names
        assert len(names) - 1 == post.text().count("the AI prefers"), post.text()
        assert post.pinged == frozenset()
