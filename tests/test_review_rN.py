"""Review rN: the web board's public pages and HTTP server. Each test fails for a bug a
spectator or a player would notice (docs/WEB.md says what the pages should do)."""

from __future__ import annotations

from pathlib import Path

import pytest
from web_world import World

from bot.service import Terms

SHOGI = Terms(game="torishogi", turn_seconds=36000, rated=False)


@pytest.fixture
async def w(tmp_path: Path):
    async with World(tmp_path / "review.sqlite3") as world:
        yield world


# ---- in a browser ------------------------------------------------------------------------------
CHROMIUM = Path("/usr/bin/chromium")


async def test_the_page_of_a_match_there_is_not_stops_asking_for_its_live_stream(
    w: World,
) -> None:
    """A mistyped match page (``/m/<a number no match has>``) is served as a page (200), says
    "There is no such match." and then, in its footer, "reconnecting…" for as long as it
    stays open: its EventSource is refused with 404, and live.js ``followSource`` asks
    again (the stream, then the stream once more to read the refusal) every 2 seconds for
    ever, since only a 429 is read as a refusal. A 404 for the match says it will never
    come: the page should stop there (and the server answer the page itself with 404)."""
    playwright_api = pytest.importorskip("playwright.async_api")
    if not CHROMIUM.exists():
        pytest.skip("needs /usr/bin/chromium")
    assert w.client is not None
    asked: list[str] = []
    async with playwright_api.async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            page = await (await browser.new_context()).new_page()
            page.on(
                "request",
                lambda request: asked.append(request.url) if "/events" in request.url else None,
            )
            answer = await page.goto(str(w.client.make_url("/m/987654")))
            assert answer is not None
            await playwright_api.expect(page.locator("#said")).to_have_text(
                "There is no such match.", timeout=10_000
            )
            await page.wait_for_timeout(7_000)
            footer = await page.locator("#connection").text_content()
        finally:
            await browser.close()
    assert len(asked) <= 2, (answer.status, footer, len(asked))
