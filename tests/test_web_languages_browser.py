"""The pages in a browser in their readers' languages: a German server's match page shows
its labels in German from the start; a Japanese player's page, whose shell the browser asked
for in English, turns Japanese once its state says whose it is; and neither breaks the
Content Security Policy (a words block is data, not a script)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
import test_web_browser
from test_web_browser import CHROMIUM, MISSING, WAIT
from web_world import ANN, HERE, World

from bot.service import Terms
from rules import Side

try:
    from playwright.async_api import Browser, async_playwright, expect
except ImportError:  # the browser tests need it; the rest of the suite does not
    async_playwright = None

pytestmark = [
    pytest.mark.skipif(async_playwright is None or not CHROMIUM.exists(), reason=MISSING),
    pytest.mark.asyncio(loop_scope="module"),
]
browser = test_web_browser.browser  # one Chromium for the module, launched as there


@pytest_asyncio.fixture(loop_scope="module")
async def w(tmp_path: Path) -> AsyncIterator[World]:
    async with World(tmp_path / "browser-languages.sqlite3") as world:
        yield world


async def test_pages_show_their_readers_words(w: World, browser: Browser) -> None:
    assert w.client is not None
    await w.service.records.choose_server_language(HERE.guild_id, "de")
    await w.service.records.choose_player_language(ANN, "ja")
    match = await w.playing(Terms(game="torishogi"))
    context = await browser.new_context(locale="en-US")
    refused: list[str] = []
    try:
        page = await context.new_page()
        page.on("console", lambda message: refused.append(message.text))
        await page.goto(str(w.client.make_url(f"/m/{match}")))
        await expect(page.locator("html")).to_have_attribute("lang", "de")
        await expect(page.locator("#moves-title")).to_have_text("Züge")
        await expect(page.locator("#flip")).to_have_text("Drehen")
        await expect(page.locator("#record")).to_have_text("Aufzeichnung herunterladen")
        await expect(page.locator("#step")).to_have_text("Jetzt, nach 0 Zügen", timeout=WAIT)
        await expect(page.locator("#connection")).to_have_text("live", timeout=WAIT)
        token = await w.token(match, Side.CHALLENGER)
        mine = await context.new_page()
        mine.on("console", lambda message: refused.append(message.text))
        await mine.goto(str(w.client.make_url("/play")) + f"#{token}")
        await expect(mine.locator("html")).to_have_attribute("lang", "ja", timeout=WAIT)
        await expect(mine.locator("#undo")).to_have_text("取り消し")
        await expect(mine.locator("#end")).to_have_text("手番終了")
        await expect(mine.locator("#prompt")).not_to_be_empty()
        await expect(mine.locator("#connection")).to_have_text("ライブ", timeout=WAIT)
        await expect(mine).to_have_title(f"▶ あなたの番 · ToriShogi 対局 {match} · tora-bot")
        assert await mine.locator("#first").get_attribute("aria-label") == "初期局面"
    finally:
        await context.close()
    assert not [text for text in refused if "Content Security Policy" in text], refused
