"""Review f2: failing tests for regressions and mistakes of today's changes in the front ends
(bot/app, bot/discord, bot/web, bot/tournament, bot/ladder, render, emulator, the catalogs)."""

from __future__ import annotations

from pathlib import Path

from bot.i18n import ngettext, speaking

SIGN_IN_WAIT = (
    "Discord asks the board to wait before signing anyone in again; try again in {n} second.",
    "Discord asks the board to wait before signing anyone in again; try again in {n} seconds.",
)


def test_the_french_sign_in_wait_says_vous() -> None:
    """The French catalog says "vous" to the player everywhere since today (6253834), but
    the new sign-in refusal (bc12629) tells the player « réessaie dans 30 secondes » (tu),
    where every other sign-in text of the Activity says « réessayez »."""
    with speaking("fr"):
        for n in (1, 30):
            text = ngettext(*SIGN_IN_WAIT, n)
            assert "réessaie " not in text, text
            assert "réessayez" in text, text


def test_the_guide_says_a_private_later_answer_in_a_dm_is_posted() -> None:
    """e7b2aab posts a private later answer in a DM once its token has run out (the DM is
    the caller's alone); docs/DISCORD.md still says every private one is only logged."""
    guide = (Path(__file__).parent.parent / "docs" / "DISCORD.md").read_text()
    assert "a private one is logged" not in guide
