"""Review f2: failing tests for regressions and mistakes of today's changes in the front ends
(bot/app, bot/discord, bot/web, bot/tournament, bot/ladder, render, emulator, the catalogs)."""

from __future__ import annotations

from pathlib import Path

from bot.i18n import ngettext, speaking
from harness.stage import Stage

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


async def test_a_pending_challenge_is_not_said_to_have_never_begun(tmp_path: Path) -> None:
    """``_check_begun`` (a54c317) answers for every hosted match without a game, live or
    not: bob, asked to accept ann's challenge right now, runs ``/tora record number:1`` and
    is told "Match 1's game never began, so it has no record, board or replay", as if the
    challenge were declined or expired; it has not begun yet (it will once he accepts)."""
    async with Stage(tmp_path, ("ann", "bob")) as stage:
        await stage.slash("ann", "challenge", opponent="bob", game="torishogi")
        record = await stage.slash("bob", "record", number=1)
        assert "never began" not in record.text, record.text
        board = await stage.slash("bob", "board", number=1)
        assert "never began" not in board.text, board.text


async def test_keystrokes_within_the_first_ones_budget_start_no_more_work(monkeypatch) -> None:
    """d65ca67 means a user to have at most one autocomplete's work going on while the
    service is slow. But a work is marked unfinished only once its answer's budget (2.5 s)
    has run out: every keystroke of those 2.5 s (a typist's ten, a script's thousands,
    not rate limited) starts its own, all going on after their answers together."""
    import asyncio
    from types import SimpleNamespace

    import discord

    from bot.discord import autocomplete

    monkeypatch.setattr(autocomplete, "ANSWER_WITHIN", 0.3)
    release = asyncio.Event()
    started: list[int] = []

    async def slow() -> list[tuple[str, str]]:
        started.append(1)
        await release.wait()
        return [("a", "a")]

    def keystroke() -> SimpleNamespace:
        return SimpleNamespace(
            locale=discord.Locale.american_english,
            client=None,
            user=SimpleNamespace(id=4242),
            created_at=discord.utils.utcnow(),
        )

    try:
        answers = []
        for _ in range(10):  # a user typing on while the service is slow
            answers.append(asyncio.ensure_future(autocomplete.safely(keystroke(), slow)))
            await asyncio.sleep(0.01)
        assert await asyncio.gather(*answers) == [[]] * 10
        assert len(started) <= 1, f"{len(started)} works of one user go on after their answers"
    finally:
        release.set()
        await asyncio.sleep(0)


def test_the_guide_says_a_private_later_answer_in_a_dm_is_posted() -> None:
    """e7b2aab posts a private later answer in a DM once its token has run out (the DM is
    the caller's alone); docs/DISCORD.md still says every private one is only logged."""
    guide = (Path(__file__).parent.parent / "docs" / "DISCORD.md").read_text()
    assert "a private one is logged" not in guide
