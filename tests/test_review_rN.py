"""Review rN: the web board's public pages and HTTP server. Each test fails for a bug a
spectator or a player would notice (docs/WEB.md says what the pages should do)."""

from __future__ import annotations

from pathlib import Path

import pytest
from web_world import ANN, HERE, World

from bot.service import Terms

SHOGI = Terms(game="torishogi", turn_seconds=36000, rated=False)


@pytest.fixture
async def w(tmp_path: Path):
    async with World(tmp_path / "review.sqlite3") as world:
        yield world


# ---- in a browser ------------------------------------------------------------------------------
CHROMIUM = Path("/usr/bin/chromium")


async def test_an_ended_matchs_move_list_shows_the_assassin_moves_its_record_published(
    w: World,
) -> None:
    """A long-board TORA match with Assassins: ann's first turn moves her hidden Assassin
    (X v3h17-v4h16) and a Cavalry; bob plays; ann resigns. The game has ended, so her
    Assassin's moves are published (R44): the record downloaded from the match page says
    "C: X v3h17-v4h16 ; ...". The same page's move list still says "ann's hidden Assassin
    acts, unseen" with the notation "X ?" (the replay's views are each turn's
    ``view_for(None)``, drawn as if the game were still running), though the page promises
    the hidden moves are public once the match has ended. The move list should show the
    published Assassin action."""
    from test_web_live import ANN_STARTS, ANN_WALKS, twin

    from rules import Side

    match = await twin(w, ANN_STARTS[0])
    walk = ANN_WALKS[ANN_STARTS[0]]
    ann = await w.token(match, Side.CHALLENGER)
    for notation in (walk, await w.first_action(match, Side.CHALLENGER)):
        assert (await w.post("act", ann, {"stamp": 1, "notation": notation}))[0] == 200
    assert (await w.post("end", ann, {"stamp": 1}))[0] == 200
    bob = await w.token(match, Side.OPPOSITION)
    bobs = await w.first_action(match, Side.OPPOSITION)
    assert (await w.post("act", bob, {"stamp": 2, "notation": bobs}))[0] == 200
    assert (await w.post("end", bob, {"stamp": 2}))[0] == 200
    await w.service.resign(HERE, ANN)
    _status, record = await w.get(f"/api/m/{match}/record")
    assert f"C: {walk} ;" in record.decode()  # published with the game's end (R44)
    _status, state = await w.get(f"/api/m/{match}")
    assert state["phase"] == "ended"
    first_turn = [m["notation"] for m in state["moves"] if m["turn"] == 1]
    assert walk in first_turn, state["moves"][:2]


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
