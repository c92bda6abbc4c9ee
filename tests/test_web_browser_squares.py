"""The board as a screen reader meets it, in a real browser (headless Chromium through
Playwright): every square of the match page and of a player's page says what stands on it
(the opponent's pieces too, in or out of the reader's turn), in the page's language, and the
match page's squares are images to read, no buttons that do nothing."""

from __future__ import annotations

import re
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


async def swallows_taken(w: World) -> int:
    """A ToriShogi match in which ann and bob each captured two Swallows (four turns)."""
    match = await w.playing(Terms(game="torishogi"))
    for user, move in zip((ANN, BOB, ANN, BOB), ("c3c4", "e5e4", "c4c5", "e4e3"), strict=True):
        await w.service.play(HERE, user, move)
        await w.service.end_turn(HERE, user)
    return match


async def test_a_hand_square_says_its_words_not_its_drop_notation(
    w: World, browser: Browser
) -> None:
    """Regression: a ToriShogi hand's square was read "S@: Swallows in hand: ann 2 and bob 2", its
    drop notation first, which names nothing a listener knows; now its words alone."""
    match = await swallows_taken(w)
    assert w.client is not None
    page = await opened(browser, str(w.client.make_url(f"/m/{match}")))
    said = "Swallows in hand: ann 2"
    await expect(square(page, "S@")).to_have_attribute("aria-label", said, timeout=WAIT)
    ann = await player_page(w, browser, match, Side.CHALLENGER)
    await expect(square(ann, "S@")).to_have_attribute("aria-label", re.compile(f"^{said}"))


async def test_both_hands_have_their_squares_on_every_page(w: World, browser: Browser) -> None:
    """Regression: the match page had squares for the bottom player's hand alone (a player's
    page for their own), the other hand told only in the summary; now each hand's pieces
    are squares saying whose they are, the page's own hand named by its drops (``S@``)."""
    match = await swallows_taken(w)
    assert w.client is not None
    page = await opened(browser, str(w.client.make_url(f"/m/{match}")))
    await expect(square(page, "S@")).to_have_attribute("aria-label", "Swallows in hand: ann 2")
    await expect(square(page, "S@O")).to_have_attribute("aria-label", "Swallows in hand: bob 2")
    bob = await player_page(w, browser, match, Side.OPPOSITION)
    await expect(square(bob, "S@C")).to_have_attribute("aria-label", "Swallows in hand: ann 2")
    await expect(square(bob, "S@")).to_have_attribute(
        "aria-label", re.compile("^Swallows in hand: bob 2")
    )


async def test_a_replayed_turns_squares_say_what_stood_on_them_then(
    w: World, browser: Browser
) -> None:
    """Regression: stepping through a replay hid the squares, so a screen reader heard only
    "The board after turn 1"; now each square of that turn's board says what stood there
    then (its public view's words), the hands too."""
    match = await swallows_taken(w)
    assert w.client is not None
    page = await opened(browser, str(w.client.make_url(f"/m/{match}")))
    await expect(square(page, "c5")).to_have_attribute("aria-label", "c5: ann's Swallow")
    await page.click("#first")
    await page.click("#forward")  # after turn 1: ann's Swallow on c4, her first in hand
    await expect(square(page, "c4")).to_have_attribute("aria-label", "c4: ann's Swallow")
    await expect(square(page, "c5")).to_have_attribute("aria-label", "c5: bob's Swallow")
    await expect(square(page, "c3")).to_have_attribute("aria-label", "c3")
    await expect(square(page, "S@")).to_have_attribute("aria-label", "Swallows in hand: ann 1")
    await expect(square(page, "S@O")).to_have_count(0)
    await page.click("#live")
    await expect(square(page, "S@O")).to_have_attribute("aria-label", "Swallows in hand: bob 2")
