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
# a 1x1 PNG: the picture a slow answer brings, told apart from the board by its width
TINY_PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c63000100000500010d0a2db40000000049454e44ae426082"
)


async def test_a_slow_picture_of_an_older_state_does_not_replace_the_board_now(w: World) -> None:
    """ann's page is open on her ToriShogi turn. She stages a move (here in Discord: the
    page hears of it and asks for the staged position's picture, which the server is slow
    to draw), then takes it back at once. The page reads the state again (the position as
    at first, whose picture it already shows, so it asks for none) and then the slow
    picture of the staged move arrives and is put up (board.js ``renderPicture`` shows
    every answer, however old): the page shows a move that is no longer staged, until the
    next change. Each picture answer should be shown only if it is still the one the
    state now names."""
    playwright_api = pytest.importorskip("playwright.async_api")
    if not CHROMIUM.exists():
        pytest.skip("needs /usr/bin/chromium")
    import asyncio

    from rules import Side

    match = await w.playing(SHOGI)
    assert w.client is not None
    token = await w.token(match, Side.CHALLENGER)
    async with playwright_api.async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            page = await (await browser.new_context()).new_page()
            await page.goto(f"{w.client.make_url('/play')}#{token}")
            expect = playwright_api.expect
            await expect(page.locator(".cell")).not_to_have_count(0, timeout=10_000)
            first_url = (await w.me(match, Side.CHALLENGER))["board"]["url"]
            await expect(page.locator("#connection")).to_have_text("live", timeout=10_000)

            asked = asyncio.Event()
            release = asyncio.Event()

            async def slow(route) -> None:  # type: ignore[no-untyped-def]
                if first_url.split("?", 1)[1] in route.request.url:
                    await route.continue_()
                    return
                asked.set()
                await release.wait()
                await route.fulfill(status=200, content_type="image/png", body=TINY_PNG)

            await page.route("**/api/me/board.png*", slow)
            await w.service.play(HERE, ANN, "c3c4")  # staged (in Discord)
            await asyncio.wait_for(asked.wait(), 10)  # the page asks for its picture
            async with page.expect_response(lambda r: r.url.endswith("/api/me")):
                await w.service.undo(HERE, ANN)  # taken back at once
            now = await w.me(match, Side.CHALLENGER)
            assert now["staged"] == [] and now["board"]["url"] == first_url  # as at first
            await page.wait_for_timeout(300)
            release.set()  # the slow picture of the staged move arrives now
            await page.wait_for_timeout(1000)
            width = await page.locator("#picture").evaluate("image => image.naturalWidth")
            assert width > 1, "the page shows the picture of a move no longer staged"
        finally:
            await browser.close()


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
