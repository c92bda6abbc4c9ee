"""Review f2: failing tests for regressions and mistakes of today's changes in the front ends
(bot/app, bot/discord, bot/web, bot/tournament, bot/ladder, render, emulator, the catalogs)."""

from __future__ import annotations

from pathlib import Path


def test_the_guide_says_a_private_later_answer_in_a_dm_is_posted() -> None:
    """e7b2aab posts a private later answer in a DM once its token has run out (the DM is
    the caller's alone); docs/DISCORD.md still says every private one is only logged."""
    guide = (Path(__file__).parent.parent / "docs" / "DISCORD.md").read_text()
    assert "a private one is logged" not in guide
