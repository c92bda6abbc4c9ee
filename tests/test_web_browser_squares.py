"""The board as a screen reader meets it, in a real browser (headless Chromium through
Playwright): every square of the match page and of a player's page says what stands on it
(the opponent's pieces too, in or out of the reader's turn), in the page's language, and the
match page's squares are images to read, no buttons that do nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
import test_web_browser
from test_web_browser import CHROMIUM, MISSING, WAIT, opened, player_page
from web_world import ANN, BOB, HERE, World

from bot.service import Terms
from rules import Side

try:
    from playwright.async_api import Browser, Locator, Page, async_playwright, expect
except ImportError:
    async_playwright = None

browser = test_web_browser.browser  # a headless Chromium for the module (a fixture)
closing = test_web_browser.closing  # each test's pages closed after it (autouse)

pytestmark = [
    pytest.mark.skipif(async_playwright is None or not CHROMIUM.exists(), reason=MISSING),
    pytest.mark.asyncio(loop_scope="module"),
]


@pytest_asyncio.fixture(loop_scope="module")
async def w(tmp_path: Path) -> AsyncIterator[World]:
    async with World(tmp_path / "squares.sqlite3") as world:
        yield world


def square(page: Page, name: str) -> Locator:
    return page.locator(f'.cell[data-square="{name}"]')


async def test_the_match_pages_squares_say_what_stands_on_them(w: World, browser: Browser) -> None:
    match = await w.playing(Terms(game="torishogi"))
    assert w.client is not None
    page = await opened(browser, str(w.client.make_url(f"/m/{match}")))
    await expect(page.locator(".cell")).not_to_have_count(0, timeout=WAIT)
    await expect(square(page, "d7")).to_have_attribute("aria-label", "d7: bob's Phoenix")
    await expect(square(page, "d4")).to_have_attribute("aria-label", "d4")
    assert await page.locator("#cells button").count() == 0  # nothing to press here
    assert await square(page, "d1").get_attribute("role") == "img"


async def test_a_players_page_names_the_opponents_pieces_in_and_out_of_their_turn(
    w: World, browser: Browser
) -> None:
    await w.service.records.choose_player_language(ANN, "fr")
    match = await w.playing()
    ann = await player_page(w, browser, match, Side.CHALLENGER)  # her turn
    bob = await player_page(w, browser, match, Side.OPPOSITION)  # not his
    await expect(square(ann, "v5h1")).to_have_attribute("aria-label", "v5h1: le General de bob")
    await expect(square(bob, "v5h9")).to_have_attribute("aria-label", "v5h9: ann's General")
    await expect(square(bob, "v5h1")).to_have_attribute("aria-label", "v5h1: bob's General")


async def test_r10_a_search_on_the_page_says_before_it_is_chosen_that_it_cannot_be_taken_back(
    w: World, browser: Browser
) -> None:
    """Discord's Play panel says of a search, before it is picked, that it is never taken
    back (R10); the page's chooser offered it beside the plain move to its square without a
    word. Its option now says so."""
    match = await w.playing(Terms(options={"board": "long", "assassins": True}))
    for user in (ANN, BOB):
        await w.service.setup(HERE, user, {"ruler": "K", "assassin": "none"})
    me = await w.me(match, Side.CHALLENGER)
    group, search = next(
        (g, a) for g in me["choices"] if g.get("origin") for a in g["actions"] if a["final"]
    )
    ann = await player_page(w, browser, match, Side.CHALLENGER)
    await square(ann, group["origin"]).click()
    await expect(ann.locator(".cell.picked")).to_have_count(1, timeout=WAIT)
    await square(ann, search["spot"]).click()
    option = ann.locator("#chooser button", has_text=search["path"][-1])
    await expect(option).to_contain_text("cannot be taken back", timeout=WAIT)
    assert (await w.me(match, Side.CHALLENGER))["staged"] == []
