"""A reply planned on the web board, in a real browser (headless Chromium through
Playwright) against the bot in its own process on the Discord emulator: while bob's turn runs,
ann opens "Plan a reply" on her page, picks the move she expects of him and her answer with
the menus (a piece, then an action), saves it, and the moment bob plays that move in Discord
her reply is played, with one DM to her; the action list read with the arrow keys adds
nothing until Add (or Enter), the focus kept."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
import test_web_browser
from test_service_games import torii_until_the_monkeys_pause
from test_web_browser import CHROMIUM, MISSING, WAIT, board_link, opened, player_page
from web_world import ANN, BOB, HERE, World

from harness.stage import Stage
from rules import Side
from rules.torishogi import ToriShogiGame

try:
    from playwright.async_api import Browser, Page, async_playwright, expect
except ImportError:
    async_playwright = None

browser = test_web_browser.browser  # a headless Chromium for the module (a fixture)

pytestmark = [
    pytest.mark.skipif(async_playwright is None or not CHROMIUM.exists(), reason=MISSING),
    pytest.mark.asyncio(loop_scope="module"),
]


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def stage(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Stage]:
    async with Stage(tmp_path_factory.mktemp("plans"), ("ann", "bob"), process=True) as on:
        yield on


async def choose(page: Page, game: ToriShogiGame, notation: str) -> None:
    """Pick ``notation`` in the plan's menus: its piece, then the action."""
    group = next(c.group for c in game.choices() if c.notation == notation)
    await page.select_option("#plan-group", group)
    action = page.locator(f'#plan-action option[value="{notation}"]')
    await expect(action).to_have_count(1, timeout=WAIT)
    await page.select_option("#plan-action", notation)
    await page.click("#plan-add")


async def click_as_told(page: Page, selector: str) -> None:
    """Click ``selector`` until its step is answered with news: a test clicks faster than a
    player, and the bot (with its real limits here) may refuse a step for that; then wait as
    the refusal says and click again, as a player would."""
    answered = page.locator("#plan-news:not(:empty)")
    for _ in range(4):
        if await answered.count():
            return
        await page.click(selector)
        with contextlib.suppress(AssertionError):
            await expect(answered).not_to_have_count(0, timeout=3000)
            return
        await page.wait_for_timeout(1600)


async def test_a_reply_planned_on_the_web_board_is_played_when_the_turn_comes(
    stage: Stage, browser: Browser
) -> None:
    await stage.slash("ann", "challenge", opponent="bob", game="torishogi")
    await stage.click("bob", "Accept")
    await stage.posted("The game begins")
    await stage.slash("ann", "act", action="c3c4")
    await stage.slash("ann", "end")
    await stage.posted("ann (Challenger) ended their turn")
    ann = await opened(browser, await board_link(stage, "ann"))
    await expect(ann.locator(".players .to-act")).to_contain_text("bob", timeout=WAIT)
    await expect(ann.locator("#plan")).to_be_visible(timeout=WAIT)
    await ann.click("#plan summary")
    await expect(ann.locator("#plan-next")).to_contain_text(
        "Pick the move you expect bob to play", timeout=WAIT
    )
    mirror = ToriShogiGame()
    mirror.apply("c3c4")
    mirror.end_turn()
    await choose(ann, mirror, "c5c4")
    await expect(ann.locator("#plan-theirs")).to_have_text("If bob plays: c5c4", timeout=WAIT)
    mirror.apply("c5c4")
    mirror.end_turn()
    await choose(ann, mirror, "a3a4")
    await expect(ann.locator("#plan-mine")).to_have_text("You reply: a3a4", timeout=WAIT)
    await click_as_told(ann, "#plan-save")
    await expect(ann.locator("#plan-news")).to_have_text("Plan 1 saved.", timeout=WAIT)
    await expect(ann.locator("#plan-list li span")).to_have_text(
        ["if bob plays c5c4, you play a3a4"], timeout=WAIT
    )
    await expect(ann.locator("#plan-list li button")).to_have_text(["Cancel this plan"])
    before = len(stage.emu.dms(stage.user["ann"]))
    await stage.slash("bob", "act", action="c5c4")
    await stage.slash("bob", "end")
    await stage.posted("`a3a4`")  # ann's reply, the moment bob's turn ended
    await expect(ann.locator(".players .to-act")).to_contain_text("bob", timeout=WAIT)

    def told() -> list[str]:
        return [m.text() for m in stage.emu.dms(stage.user["ann"])][before:]

    await stage.emu.wait_until(lambda: told() or None, 30, "ann's DM")
    await stage.posted("bob (Opposition) to act")  # (the posts of both turns went out)
    [dm] = told()  # one DM: no "your turn" for the turn her plan answered
    assert "bob played c5c4: your planned reply a3a4 was played." in dm, dm


@pytest_asyncio.fixture(loop_scope="module")
async def w(tmp_path: Path) -> AsyncIterator[World]:
    async with World(tmp_path / "plans.sqlite3") as world:
        yield world


async def test_the_plans_action_list_read_with_the_arrow_keys_adds_nothing_until_asked(
    w: World, browser: Browser
) -> None:
    """Regression: one arrow key in the plan's action list added its first action at once
    (the list's change sent it), and the list vanished with the focus: a keyboard player
    could not read the actions before choosing one. Now Add (or Enter) adds it."""
    match = await w.playing()
    bob = await player_page(w, browser, match, Side.OPPOSITION)  # ann to act: bob plans
    await expect(bob.locator("#plan")).to_be_visible(timeout=WAIT)
    await bob.locator("#plan summary").focus()
    await bob.keyboard.press("Enter")
    await expect(bob.locator("#plan-group option")).not_to_have_count(0, timeout=WAIT)
    await bob.locator("#plan-group").focus()
    await bob.keyboard.press("ArrowDown")
    await expect(bob.locator("#plan-action")).to_be_visible(timeout=WAIT)
    await bob.locator("#plan-action").focus()
    for _ in range(2):
        await bob.keyboard.press("ArrowDown")  # reading the actions
    await bob.wait_for_timeout(500)
    await expect(bob.locator("#plan-theirs")).to_be_empty()
    assert await bob.evaluate("document.activeElement.id") == "plan-action"
    await bob.keyboard.press("Enter")
    await expect(bob.locator("#plan-theirs")).not_to_be_empty(timeout=WAIT)
    assert await bob.evaluate("document.activeElement.id") in ("plan-action", "plan-group")


async def test_ti15_the_page_says_why_it_offers_no_plan_while_the_opponent_decides(
    w: World, browser: Browser
) -> None:
    """While bob decides for his Monkey in ann's turn (TI15), her page showed "Plan a
    reply", whose opening was refused: his own turn follows the decision, and a plan
    answers that turn. The page offers no plan mode then, and says why in its place."""
    await torii_until_the_monkeys_pause(w.h)
    hosted = await w.h.store.hosting.live_in_channel(HERE.channel_id)
    assert hosted is not None
    ann = await player_page(w, browser, hosted.id, Side.CHALLENGER)
    await expect(ann.locator("#plan-why")).to_contain_text(
        "bob has a decision to make in your turn", timeout=WAIT
    )
    await expect(ann.locator("#plan")).to_be_hidden()


async def test_a_paused_matchs_page_lets_the_waiting_player_plan_as_discord_does(
    w: World, browser: Browser
) -> None:
    """A pause stops the clocks of a correspondence match, not the players' thinking: its
    Discord panel lets the player whose opponent is to act plan a reply, but the web page
    hid its plan mode for as long as the pause lasted. It shows it, and it opens."""
    match = await w.playing()
    made = (await w.service.pause(HERE, ANN)).stamp
    assert made is not None
    await w.service.answer(HERE, BOB, "pause", made)
    assert (await w.me(match, Side.OPPOSITION))["paused"]
    bob = await player_page(w, browser, match, Side.OPPOSITION)  # ann to act: bob plans
    await expect(bob.locator("#plan")).to_be_visible(timeout=WAIT)
    await bob.click("#plan summary")
    await expect(bob.locator("#plan-group option")).not_to_have_count(0, timeout=WAIT)
