"""Review rZ: the player's web board in a real browser (headless Chromium). Each test fails
for a bug a player sees; see each docstring."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from test_web_browser import CHROMIUM, MISSING, OPEN, WAIT, opened, staged
from web_world import World

from rules import Side

try:
    from playwright.async_api import Browser, Route, async_playwright, expect
except ImportError:
    async_playwright = None

pytestmark = [
    pytest.mark.skipif(async_playwright is None or not CHROMIUM.exists(), reason=MISSING),
    pytest.mark.asyncio(loop_scope="module"),
]


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def browser() -> AsyncIterator[Browser]:
    async with async_playwright() as playwright:
        args = ["--no-sandbox", "--disable-gpu", "--no-first-run"]
        launched = await playwright.chromium.launch(executable_path=str(CHROMIUM), args=args)
        yield launched
        await launched.close()


@pytest_asyncio.fixture(loop_scope="module")
async def w(tmp_path: Path) -> AsyncIterator[World]:
    async with World(tmp_path / "rz.sqlite3") as world:
        yield world


@pytest_asyncio.fixture(autouse=True, loop_scope="module")
async def closing() -> AsyncIterator[None]:
    yield
    while OPEN:
        await OPEN.pop().close()


async def until(check, seconds: float = WAIT / 1000) -> None:
    for _ in range(int(seconds * 20)):
        if check():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("never")


SHOWN = """() => {
    const img = document.getElementById('picture');
    const canvas = document.createElement('canvas');
    canvas.width = img.naturalWidth; canvas.height = img.naturalHeight;
    const ctx = canvas.getContext('2d');
    ctx.drawImage(img, 0, 0);
    const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
    let hash = 0;
    for (let i = 0; i < data.length; i += 1) hash = (hash * 31 + data[i]) | 0;
    return [img.naturalWidth, hash];
}"""


async def test_a_slow_picture_never_replaces_the_newer_board(w: World, browser: Browser) -> None:
    """A player's page on a slow network: its first picture is still loading when the
    position changes (here an action staged from the player's other tab; the opponent's
    turn from Discord alike). The newer picture arrives first and is shown, then the older
    one lands and replaces it for good: the page shows the board before the change, under
    the squares (and "1 staged") of the board after it. The page should show the picture of
    the state it shows (renderPicture, bot/web/static/board.js, does not check that the
    picture it fetched is still the one wanted)."""
    match = await w.playing()
    assert w.client is not None
    token = await w.token(match, Side.CHALLENGER)
    bodies: dict[str, bytes] = {}
    first: list[str] = []
    release = asyncio.Event()

    async def slow_first(route: Route) -> None:
        response = await route.fetch()
        body = await response.body()
        bodies[route.request.url] = body
        if not first:
            first.append(route.request.url)
            await release.wait()
        await route.fulfill(response=response, body=body)

    made = await browser.new_context()
    OPEN.append(made)
    page = await made.new_page()
    await page.route("**/api/me/board.png*", slow_first)
    await page.goto(f"{w.client.make_url('/play')}#{token}")
    await expect(page.locator("#connection")).to_have_text("live", timeout=WAIT)
    await until(lambda: len(first) == 1)
    notation = await w.first_action(match, Side.CHALLENGER)
    assert (await w.post("act", token, {"stamp": 1, "notation": notation}))[0] == 200
    await staged(page, 1)
    # the picture of the staged position fetched (not the first one's, still held back)
    await until(lambda: any(body != bodies[first[0]] for body in bodies.values()))
    await page.wait_for_timeout(500)  # and shown
    shown = await page.evaluate(SHOWN)  # the newer board, the only one arrived
    assert shown[0] > 0
    release.set()  # the older picture lands at last
    await page.wait_for_timeout(1000)
    assert await page.evaluate(SHOWN) == shown, "the older board replaced the newer"


async def test_end_turn_pressed_while_an_action_is_being_staged_is_not_lost(
    w: World, browser: Browser
) -> None:
    """On a slow network a player clicks a square (its action on its way to the server) and
    then End turn at once: the page drops the End turn click without a word (post() returns
    while another request is out, bot/web/static/board.js), leaving End turn enabled and
    looking pressed. The player leaves believing their turn is shown to everyone; it is not,
    and their deadline runs out. The press should be done after the staging (or End turn
    disabled while the staging is out, so it cannot be pressed in vain)."""
    match = await w.playing()
    assert w.client is not None
    me = await w.me(match, Side.CHALLENGER)
    group, action = next(
        (g, a)
        for g in me["choices"]
        if g.get("origin")
        for a in g["actions"]
        if a["spot"] != g["origin"]
        and [b["spot"] for b in g["actions"]].count(a["spot"]) == 1
        and "search" not in a["label"]
    )
    token = await w.token(match, Side.CHALLENGER)
    page = await opened(browser, f"{w.client.make_url('/play')}#{token}")
    await expect(page.locator(".cell")).not_to_have_count(0, timeout=WAIT)
    await expect(page.locator("#connection")).to_have_text("live", timeout=WAIT)

    async def slow(route: Route) -> None:
        await asyncio.sleep(1.5)  # a phone's network
        await route.continue_()

    await page.route("**/api/me/act", slow)
    await page.click(f'.cell[data-square="{group["origin"]}"]')
    await expect(page.locator(".cell.picked")).to_have_count(1, timeout=WAIT)
    await page.click(f'.cell[data-square="{action["spot"]}"]')
    await page.wait_for_timeout(200)
    end = page.locator("#end")
    if await end.is_enabled():  # the page let the player press it
        await end.click()
        await staged(page, 1)
        await page.wait_for_timeout(2000)
        players = (await w.me(match, Side.OPPOSITION))["players"]
        bob_to_act = next(p["to_act"] for p in players if p["name"] == "bob")
        assert bob_to_act, "End turn was pressed and lost without a word; ann is still to act"


async def test_a_picked_generals_warnings_stay_when_the_page_reads_a_new_state(
    w: World, browser: Browser
) -> None:
    """bob picks his General on his page: the square its move would leave it in jeopardy
    (R30) is marked "!", and a click there opens a chooser saying why. ann then offers a
    draw from Discord (or anything else changes bob's state): the page reads the new state,
    the General stays picked, but every "!" is gone (the warnings were kept on the old
    state's objects; setState does not ask for them again, bot/web/static/board.js), and
    a click on that square no longer warns before it acts. The picked piece should keep
    its warnings."""
    match = await w.playing()
    ann = await w.token(match, Side.CHALLENGER)
    for notation in ("A v7h9-v6h7", "A v5h7-v5h5"):  # two Archers up: bob's General exposed
        assert (await w.post("act", ann, {"stamp": 1, "notation": notation}))[0] == 200
    assert (await w.post("end", ann, {"stamp": 1}))[0] == 200
    assert w.client is not None
    url = f"{w.client.make_url('/play')}#{await w.token(match, Side.OPPOSITION)}"
    bob = await opened(browser, url)
    await expect(bob.locator(".cell")).not_to_have_count(0, timeout=WAIT)
    await expect(bob.locator("#connection")).to_have_text("live", timeout=WAIT)
    await bob.click('.cell[data-square="v5h1"]')  # the General
    warned = bob.locator('.cell.spot.warn[data-square="v6h1"]')
    await expect(warned).to_have_count(1, timeout=WAIT)
    status, body, _ = await w.post("draw", ann, {"stamp": 2})
    assert status == 200, body
    await expect(bob.locator("#proposals")).to_contain_text("draw", timeout=WAIT)
    await expect(bob.locator(".cell.picked")).to_have_count(1)  # still picked
    await bob.wait_for_timeout(500)
    await expect(warned).to_have_count(1, timeout=WAIT)


async def test_propose_a_reset_is_not_offered_in_a_game_without_resets(
    w: World, browser: Browser
) -> None:
    """A ToriShogi (or Torii) player's page offers "Propose a reset" under "Draw, pause,
    reset, resign", enabled throughout the game; each press is refused "ToriShogi has no
    reset: it is TORA's, in a series (R28)". A button that can never work: the page
    (renderPlayer, bot/web/static/board.js, enables it whenever the game is on; the state
    does not say whether the match can reset) should hide or disable it where the match
    has no reset."""
    from bot.service import Terms

    match = await w.playing(Terms(game="torishogi"))
    assert w.client is not None
    url = f"{w.client.make_url('/play')}#{await w.token(match, Side.CHALLENGER)}"
    page = await opened(browser, url)
    await expect(page.locator(".cell")).not_to_have_count(0, timeout=WAIT)
    await page.click(".more summary")
    reset = page.locator("#reset")
    if await reset.is_visible() and await reset.is_enabled():
        await reset.click()
        await expect(page.locator("#error")).to_be_visible(timeout=WAIT)
        refused = await page.locator("#error").inner_text()
        raise AssertionError(f"Propose a reset offered, and refused when pressed: {refused}")


async def test_a_turn_ended_on_the_page_can_be_asked_back_on_the_page(
    w: World, browser: Browser
) -> None:
    """In a casual (rated:False) match, Discord offers "Ask to take it back" after End turn
    (README: Takebacks), the way out of a misclick. A player who ends their turn on the web
    page (End turn sits beside Undo) finds no such control there: the page's proposals are
    a draw, a pause, a reset and resigning (bot/web/static/play.html; "rewind" is not among
    bot.app.seats.VERBS' proposals the page sends), so the takeback has to be asked for in
    Discord. The page should offer to ask for the turn back while the opponent has not
    ended theirs, as the turn post does."""
    from bot.service import Terms

    match = await w.playing(Terms(rated=False))
    assert w.client is not None
    token = await w.token(match, Side.CHALLENGER)
    notation = await w.first_action(match, Side.CHALLENGER)
    assert (await w.post("act", token, {"stamp": 1, "notation": notation}))[0] == 200
    page = await opened(browser, f"{w.client.make_url('/play')}#{token}")
    await expect(page.locator(".cell")).not_to_have_count(0, timeout=WAIT)
    await staged(page, 1)
    await page.click("#end")
    await expect(page.locator(".players .to-act")).to_contain_text("bob", timeout=WAIT)
    if await page.locator(".more summary").is_visible():
        await page.click(".more summary")
    asks = page.get_by_role("button", name="take", exact=False)
    assert await asks.count() > 0, "no control on the page asks to take the turn back"
