"""The web board in a real browser (headless Chromium through Playwright), against the bot in
its own process on the Discord emulator, serving its web board: players open their private link
from Discord and play by clicking (a TORA turn ended on the page reaches the channel and the
opponent's open page; a ToriShogi promotion and drop; a Torii turn and the Monkey's decision; a
long board with an Assassin played on a phone's screen; a turn played with the keyboard alone,
the focus back on the board when the chooser closes; the server unreachable no longer said
once the page has read its state; a refused replay leaving the page on the position now; a
live stream refused for too many open boards saying why; a player's open page showing the
result when the opponent resigns; the focused and the picked square standing out on every
square;
a General's move the turn could not end on, marked before it is staged; a draw offered on one
page, taken back, and the other's accepted; a pause declined, then the other's accepted, then
the clock resumed; End turn pressed while an action is on its way, done after it; a picked
General's warnings kept under a new state; no reset offered where the game has none; a turn
ended on the page asked back there), a
spectator's page follows a turn live, and the setup is done
on the page from the setup message's link (TORA's strategy, Ruler and Assassin square by
clicking it; Torii's Spirit with its power).

With ``TORA_SCREENSHOTS=1`` the tests save the pictures of docs/WEB.md (docs/images/web-*.png).
"""

from __future__ import annotations

import asyncio
import os
import random
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from web_world import World

from bot.service import Terms
from bot.service.links import BOARD, PAGE
from harness.stage import Stage
from rules import GameState, Side, game_type

try:
    from playwright.async_api import Browser, Frame, Page, Route, async_playwright, expect
except ImportError:  # the browser tests need it; the rest of the suite does not
    async_playwright = None

CHROMIUM = Path("/usr/bin/chromium")
MISSING = (
    "needs Chromium: apt-get install chromium (as .ci/run does), and Playwright"
    " (make test installs it)"
)
SHOTS = Path(__file__).resolve().parent.parent / "docs" / "images"
WAIT = 10_000  # milliseconds a page may take to show a change
# milliseconds a picked piece's warnings may take: a search for each of its actions on
# TORA's long board, slow on a loaded machine
WARNINGS_WAIT = 60_000

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


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def stage(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Stage]:
    """One bot process for the module, serving its web board; each test plays in a channel of
    its own."""
    names = ("ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal", "ivy", "jon")
    names += ("kim", "lee", "max", "ned", "oli", "pat", "quin", "rex", "sam", "tia")
    names += ("uma", "vic")
    workdir = tmp_path_factory.mktemp("web")
    async with Stage(workdir, names, process=True, channels=11) as on_stage:
        yield on_stage


@pytest_asyncio.fixture(loop_scope="module")
async def w(tmp_path: Path) -> AsyncIterator[World]:
    """The bot's web board in this process, for the tests that need no Discord: a match
    started in a step (``World.playing``), its players' links made at once."""
    async with World(tmp_path / "browser.sqlite3") as world:
        yield world


OPEN: list[Any] = []  # the browser contexts a test opened, closed after it


@pytest_asyncio.fixture(autouse=True, loop_scope="module")
async def closing() -> AsyncIterator[None]:
    """Each test's pages closed after it: the server holds at most 8 event streams open per
    address, and every page here comes from the same one."""
    yield
    while OPEN:
        await OPEN.pop().close()


async def opened(browser: Browser, url: str, **context: Any) -> Page:
    """A page in a browser context of its own (its own session storage), errors failing."""
    made = await browser.new_context(**context)
    OPEN.append(made)
    page = await made.new_page()
    page.on("pageerror", lambda error: pytest.fail(f"the page failed: {error}"))
    await page.goto(url)
    return page


async def begin(stage: Stage, channel: int, who: tuple[str, str], **terms: Any) -> None:
    """A challenge accepted in ``channel`` (setup still to do)."""
    await stage.slash(who[0], "challenge", opponent=who[1], channel=channel, **terms)
    await stage.click(who[1], "Accept", channel=channel)


async def board_link(stage: Stage, who: str) -> str:
    """The player's private link, from the newest "Open the board" button of their DMs."""
    dm = stage.emu.dm_channel(stage.user[who])
    url = await stage.emu.wait_until(lambda: _link(stage, dm), 30, f"{who}'s board link")
    assert "#" in url and "?" not in url  # the token in the fragment, never in a query
    return url


def _link(stage: Stage, channel: int) -> str | None:
    try:
        return stage.emu.find_link(channel, BOARD)
    except LookupError:
        return None


async def pick_and_play(
    page: Page, game: GameState, notation: str, shot: str | None = None
) -> None:
    """Play ``notation`` by clicks as a player would: its piece (or decision), then its
    square, then the chooser's line for it when several actions share that square. ``shot``:
    the screenshot to save (TORA_SCREENSHOTS=1) once the piece is picked, its squares lit."""
    choice = next(c for c in game.choices() if c.notation == notation)
    group = next(g for g in game.menu() if g.key == choice.group)
    chooser = page.locator("#chooser")
    if group.origin:
        async with warned(page):
            await page.click(f'.cell[data-square="{group.origin}"]')
            if await chooser.is_visible():
                await chooser.get_by_role("button", name=group.label).click()
        if shot is not None:
            await expect(page.locator(".cell.spot")).not_to_have_count(0, timeout=WAIT)
            await shoot(page, shot)
        if choice.spot:
            await page.click(f'.cell[data-square="{choice.spot}"]')
    else:
        async with warned(page):
            await page.locator("#decisions button", has_text=group.label).click()
    if await chooser.is_visible():
        await chooser.locator("button", has_text=" ".join(choice.path)).first.click()
    game.apply(notation)


def warned(page: Page | Frame) -> Any:
    """``async with`` it around the clicks that pick a piece: done once the page has the
    piece's warnings, as a player looks at the lit squares first. Their searches share the
    machine with an action clicked meanwhile, which on a loaded machine could then take
    longer than a page may take to show it (``WAIT``)."""
    target = page.page if isinstance(page, Frame) else page
    return target.expect_response(lambda r: "/api/me/warnings" in r.url, timeout=WARNINGS_WAIT)


def unwarned(game: GameState, key: str | None = None) -> list[str]:
    """The actions (of group ``key``) the rules have no warning against (R30)."""
    notations = [c.notation for c in game.choices(key)]
    warnings = game.warnings(notations)
    return [n for n, warning in zip(notations, warnings, strict=True) if not warning]


async def staged(page: Page, count: int) -> None:
    """Wait until the page shows ``count`` actions staged."""
    await expect(page.locator("body")).to_have_attribute("data-staged", str(count), timeout=WAIT)


async def to_act(page: Page, name: str) -> None:
    """Wait until the page says ``name`` is to act."""
    await expect(page.locator(".players .to-act")).to_contain_text(name, timeout=WAIT)


async def shoot(page: Page, name: str, whole: bool = True) -> None:
    """Save a screenshot for docs/WEB.md when asked (TORA_SCREENSHOTS=1): the whole page, or
    the screen alone (a whole page's picture scrolls the zoomed board back to its corner)."""
    if os.environ.get("TORA_SCREENSHOTS") == "1":
        await page.screenshot(path=str(SHOTS / name), full_page=whole)


async def test_a_tora_turn_played_by_clicks_reaches_discord_and_the_open_pages(
    stage: Stage, browser: Browser
) -> None:
    channel = stage.channels[0]
    await begin(stage, channel, ("ann", "bob"), board="short")
    await stage.slash("ann", "setup", strategy="aggressive", channel=channel)
    await stage.slash("bob", "setup", strategy="defensive", channel=channel)
    begins = await stage.posted("The game begins", channel)
    public = stage.emu.find_link(channel, PAGE)
    assert "/m/" in public and "#" not in public and begins

    ann = await opened(browser, await board_link(stage, "ann"))
    assert "#" not in ann.url  # the token is taken out of the address bar
    watcher = await opened(browser, public)
    await to_act(watcher, "ann")
    await to_act(ann, "ann")

    kind = game_type("tora")
    options = kind.check_options({"board": "short"})
    answers = ({"strategy": "aggressive"}, {"strategy": "defensive"})
    game = kind.new_game(options, answers)
    rng = random.Random(3)
    while game.actions_left:
        notation = rng.choice(unwarned(game))
        last = game.actions_left == 1
        await pick_and_play(ann, game, notation, shot="web-player.png" if last else None)
        await staged(ann, len(game.staged()))
    await ann.click("#end")
    await stage.posted("ann", channel)  # the turn's post
    bob = await opened(browser, await board_link(stage, "bob"))
    await to_act(ann, "bob")  # ann's open page moved on by itself
    await to_act(watcher, "bob")  # and the spectator's
    await expect(watcher.locator("#moves li")).not_to_have_count(0, timeout=WAIT)
    await shoot(watcher, "web-match.png")
    await expect(bob.locator(".cell.origin")).not_to_have_count(0, timeout=WAIT)


async def turns(stage: Stage, channel: int, moves: list[tuple[str, str]]) -> None:
    """Turns played in Discord: each player's action typed, then End turn."""
    for who, notation in moves:
        await stage.slash(who, "act", action=notation, channel=channel)
        await stage.click(who, "End turn", channel=channel)


async def test_a_torishogi_promotion_and_drop_by_clicks(stage: Stage, browser: Browser) -> None:
    channel = stage.channels[1]
    await begin(stage, channel, ("cat", "dan"), game="torishogi")
    await stage.posted("The game begins", channel)
    opening = [("cat", "e4e5"), ("dan", "c4c3")]
    await turns(stage, channel, opening)
    kind = game_type("torishogi")
    game = kind.new_game(*kind.sample_setup({}))
    for _, notation in opening:
        game.apply(notation)
        game.end_turn()

    cat = await opened(browser, await board_link(stage, "cat"))
    await to_act(cat, "cat")
    await pick_and_play(cat, game, "e5e6+")  # a Swallow captures and is promoted
    await staged(cat, 1)
    await cat.click("#end")
    game.end_turn()
    dan = await opened(browser, await board_link(stage, "dan"))
    await to_act(dan, "dan")
    drop = next(c for c in game.choices() if "@" in c.notation)
    hand = drop.notation.split("@")[0] + "@"
    await dan.click(f'.cell[data-square="{hand}"]')  # the piece in hand
    await expect(dan.locator(".cell.spot.role-drop").first).to_be_visible()
    await dan.click(f'.cell[data-square="{drop.spot}"]')
    await staged(dan, 1)
    await dan.click("#end")
    await to_act(cat, "cat")
    await expect(cat.locator("#moves li")).to_have_count(4, timeout=WAIT)


async def kitsune_and_monkey(
    stage: Stage, channel: int, who: tuple[str, str], opening: list[str]
) -> GameState:
    """A Torii match with powers in ``channel``, the Kitsune's player against the Monkey's,
    its ``opening`` turns played in Discord (one action each, the Kitsune's first); the same
    game kept here, to find the choices the page offers."""
    await begin(stage, channel, who, game="torii")
    spirits = ({"spirit": "Kitsune"}, {"spirit": "Monkey"})
    await stage.slash(who[0], "setup", channel=channel, **spirits[0])
    await stage.slash(who[1], "setup", channel=channel, **spirits[1])
    await stage.posted("The game begins", channel)
    await turns(stage, channel, [(who[n % 2], move) for n, move in enumerate(opening)])
    game = game_type("torii").new_game({"powers": True}, spirits)
    for notation in opening:
        game.apply(notation)
        game.end_turn()
    return game


async def test_a_torii_turn_and_the_monkeys_decision(stage: Stage, browser: Browser) -> None:
    channel = stage.channels[2]
    game = await kitsune_and_monkey(stage, channel, ("eve", "fay"), ["1 push d4 c3", "3 b4 b2 a2"])
    eve = await opened(browser, await board_link(stage, "eve"))
    await to_act(eve, "eve")
    await pick_and_play(eve, game, "3 c4 c5 c6 build c3")  # a tile's path, building a Torii
    await staged(eve, 1)
    await eve.click("#end")
    game.end_turn()
    fay = await opened(browser, await board_link(stage, "fay"))
    await to_act(fay, "fay")
    await expect(fay.locator("#decisions button")).to_contain_text("Monkey")
    await pick_and_play(fay, game, "flip C")  # the Monkey flips the opponent's tile 1
    await staged(fay, 1)
    await fay.click("#end")
    await expect(fay.locator("#decisions button")).to_have_count(0, timeout=WAIT)
    await expect(fay.locator(".cell.origin")).not_to_have_count(0)  # then her own move
    await expect(eve.locator("#moves")).to_contain_text("Monkey", timeout=WAIT)


async def test_an_open_chooser_stays_open_when_the_live_stream_catches_up(
    stage: Stage, browser: Browser
) -> None:
    """The page's live stream begins with the state as it is, and the player's page then
    reads it again: where that comes after the player opened a chooser (a slow network, a
    busy server), the chooser stays open, since nothing changed (it closed under their
    click)."""
    opening = ["1 push d4 c3", "3 b4 b2 a2", "3 c4 c5 c6 build c3"]  # the Monkey to decide
    game = await kitsune_and_monkey(stage, stage.channels[10], ("uma", "vic"), opening)
    made = await browser.new_context()
    OPEN.append(made)
    vic = await made.new_page()
    vic.on("pageerror", lambda error: pytest.fail(f"the page failed: {error}"))
    stream_held = asyncio.Event()

    async def held(route: Route) -> None:
        await stream_held.wait()
        await route.continue_()

    await vic.route("**/api/me/events", held)
    await vic.goto(await board_link(stage, "vic"))
    await to_act(vic, "vic")
    await vic.locator("#decisions button", has_text="Monkey").click()
    chooser = vic.locator("#chooser")
    await expect(chooser).to_be_visible()
    async with vic.expect_response(re.compile(r"/api/me$")) as read_again:
        stream_held.set()
    await read_again.value
    await vic.wait_for_timeout(300)  # the page shows what it read
    await expect(chooser).to_be_visible()
    choice = next(c for c in game.choices() if c.notation == "flip C")
    await chooser.locator("button", has_text=" ".join(choice.path)).first.click()
    await staged(vic, 1)


async def test_the_long_board_with_an_assassin_on_a_phone(stage: Stage, browser: Browser) -> None:
    channel = stage.channels[3]
    await begin(stage, channel, ("gus", "hal"), board="long", assassins=True)
    answers = (
        {"strategy": "aggressive", "ruler": "K", "assassin": "v1h17"},
        {"strategy": "defensive", "ruler": "Q", "assassin": "v17h1"},
    )
    for who, given in zip(("gus", "hal"), answers, strict=True):
        await stage.slash(who, "setup", channel=channel, **given)
    await stage.posted("The game begins", channel)
    kind = game_type("tora")
    game = kind.new_game(kind.check_options({"board": "long", "assassins": True}), answers)

    phone = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
    gus = await opened(browser, await board_link(stage, "gus"), **phone)
    await to_act(gus, "gus")
    await expect(gus.locator(".cell")).to_have_count(17 * 17)
    await gus.click("#zoom")  # the board twice as wide, in a frame that scrolls
    width = await gus.locator('.cell[data-square="v1h17"]').evaluate(
        "cell => cell.getBoundingClientRect().width"  # in one go: the page may redraw its cells
    )
    assert width >= 36  # big enough for a finger
    label = await gus.locator('.cell[data-square="v1h17"]').get_attribute("aria-label")
    assert "Assassin" in str(label)  # gus's own hidden Assassin, on his page alone
    assassin = next(g for g in game.menu() if g.origin == "v1h17")
    notation = unwarned(game, assassin.key)[0]
    spot = next(c.spot for c in game.choices(assassin.key) if c.notation == notation)
    await pick_and_play(gus, game, notation)
    await staged(gus, 1)
    await expect(gus.locator(f'.cell[data-square="{spot}"]')).to_be_in_viewport()  # followed
    await gus.locator("#frame").scroll_into_view_if_needed()
    await shoot(gus, "web-phone.png", whole=False)


async def test_a_turn_played_with_the_keyboard_alone(stage: Stage, browser: Browser) -> None:
    channel = stage.channels[4]
    await begin(stage, channel, ("ivy", "jon"), board="short")
    await stage.slash("ivy", "setup", strategy="aggressive", channel=channel)
    await stage.slash("jon", "setup", strategy="defensive", channel=channel)
    await stage.posted("The game begins", channel)
    kind = game_type("tora")
    answers = ({"strategy": "aggressive"}, {"strategy": "defensive"})
    game = kind.new_game(kind.check_options({"board": "short"}), answers)
    choice = next(c for c in game.choices() if c.label.startswith("move"))
    origin = next(g.origin for g in game.menu() if g.key == choice.group)

    ivy = await opened(browser, await board_link(stage, "ivy"))
    await to_act(ivy, "ivy")
    await ivy.locator(".cell[tabindex='0']").focus()  # where Tab reaches the board
    await walk(ivy, origin)
    await ivy.keyboard.press("Enter")
    await expect(ivy.locator(f'.cell.picked[data-square="{origin}"]')).to_have_count(1)
    await walk(ivy, str(choice.spot))
    label = await ivy.evaluate("document.activeElement.getAttribute('aria-label')")
    assert choice.label in label
    await ivy.keyboard.press("Enter")
    await staged(ivy, 1)


async def test_an_action_chosen_in_the_chooser_with_the_keyboard_keeps_the_focus_on_the_board(
    w: World, browser: Browser
) -> None:
    """Regression: the chooser's option pressed (and Escape) hid the button that had the
    focus, which fell to the page's body; it goes back to the square the chooser was opened
    from. TORA's Cannon at the start: two fires reach one square."""
    match = await w.playing()
    me = await w.me(match, Side.CHALLENGER)
    group, spot = next(
        (g, square)
        for g in me["choices"]
        for square in {a["spot"] for a in g["actions"]}
        if g.get("origin") and [a["spot"] for a in g["actions"]].count(square) > 1
    )
    page = await player_page(w, browser, match, Side.CHALLENGER)
    focused = "document.activeElement.dataset.square"
    for key in ("Escape", "Enter"):  # closed unchosen (the piece let go), then one chosen
        await page.locator(f'.cell[data-square="{group["origin"]}"]').focus()
        await page.keyboard.press("Enter")
        await expect(page.locator(".cell.picked")).to_have_count(1, timeout=WAIT)
        await page.locator(f'.cell[data-square="{spot}"]').focus()
        await page.keyboard.press("Enter")
        await expect(page.locator("#chooser")).to_be_visible()
        await page.keyboard.press(key)  # the first option has the focus
        await expect(page.locator("#chooser")).to_be_hidden()
        assert await page.evaluate(focused) == spot
    await staged(page, 1)
    await page.wait_for_timeout(300)  # the board drawn again with the action staged
    assert await page.evaluate(focused) == spot


async def test_the_server_unreachable_is_no_longer_said_once_the_page_reads_its_state(
    w: World, browser: Browser
) -> None:
    """Regression: a page whose first read of its state failed (the server restarting) kept
    saying the server could not be reached once its live stream had connected and it had
    read and shown the match; the player page's red alert, the match page's line alike."""
    match = await w.playing()
    assert w.client is not None
    token = await w.token(match, Side.CHALLENGER)
    pages = {
        "#error": (f"{w.client.make_url('/play')}#{token}", "**/api/me"),
        "#said": (str(w.client.make_url(f"/m/{match}")), f"**/api/m/{match}"),
    }
    for shown, (url, state) in pages.items():
        made = await browser.new_context()
        OPEN.append(made)
        page = await made.new_page()
        failed = await down_once(page, state)
        await page.goto(url)
        await expect(page.locator("#connection")).to_have_text("live", timeout=WAIT)
        await expect(page.locator("#title")).to_contain_text("TORA", timeout=WAIT)
        assert failed, shown
        said = page.locator(shown)
        await (expect(said).to_be_hidden() if shown == "#error" else expect(said).to_be_empty())


# a 1x1 PNG: the picture a slow answer brings, told apart from the board by its width
TINY_PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c63000100000500010d0a2db40000000049454e44ae426082"
)


async def test_a_slow_picture_of_an_older_state_does_not_replace_the_board_now(
    w: World, browser: Browser
) -> None:
    """Regression: ann stages a ToriShogi move in Discord (her open page asks for the
    staged position's picture, slow to come) and takes it back at once (the page reads the
    state as at first, whose picture it shows already); the slow picture then arrived and
    was put up: the page showed a move no longer staged until the next change. A picture
    is shown only while the state still names it."""
    from web_world import ANN, HERE

    from bot.service import Terms

    match = await w.playing(Terms(game="torishogi", turn_seconds=36000, rated=False))
    page = await player_page(w, browser, match, Side.CHALLENGER)
    first = (await w.me(match, Side.CHALLENGER))["board"]["url"]
    await expect(page.locator("#connection")).to_have_text("live", timeout=WAIT)
    asked, release = asyncio.Event(), asyncio.Event()

    async def slow(route: Route) -> None:
        if first.split("?", 1)[1] in route.request.url:
            await route.continue_()
            return
        asked.set()
        await release.wait()
        await route.fulfill(status=200, content_type="image/png", body=TINY_PNG)

    await page.route("**/api/me/board.png*", slow)
    await w.service.play(HERE, ANN, "c3c4")
    await asyncio.wait_for(asked.wait(), WAIT / 1000)
    async with page.expect_response(lambda r: r.url.endswith("/api/me")):
        await w.service.undo(HERE, ANN)
    now = await w.me(match, Side.CHALLENGER)
    assert now["staged"] == [] and now["board"]["url"] == first
    await staged(page, 0)
    release.set()  # the staged move's picture comes now
    await page.wait_for_timeout(1000)
    assert await page.locator("#picture").evaluate("image => image.naturalWidth") > 1


async def test_a_slow_read_of_an_older_state_does_not_replace_the_state_now(
    w: World, browser: Browser
) -> None:
    """Regression: ann stages a ToriShogi move in Discord (her open page reads its state,
    the answer slow to come) and takes it back at once (the page reads it again, answered
    at once); the slow answer then came and was shown: the page showed the move staged
    after all, until the next change. Only the answer to the latest read is shown."""
    from web_world import ANN, HERE

    from bot.service import Terms

    match = await w.playing(Terms(game="torishogi", turn_seconds=36000, rated=False))
    page = await player_page(w, browser, match, Side.CHALLENGER)
    await expect(page.locator("#connection")).to_have_text("live", timeout=WAIT)
    asked, release = asyncio.Event(), asyncio.Event()

    async def slow_staged(route: Route) -> None:
        answer = await route.fetch()
        if not asked.is_set() and (await answer.json())["staged"]:  # the move staged
            asked.set()
            await release.wait()
        await route.fulfill(response=answer)

    await page.route("**/api/me", slow_staged)
    await w.service.play(HERE, ANN, "c3c4")
    await asyncio.wait_for(asked.wait(), WAIT / 1000)
    async with page.expect_response(lambda r: r.url.endswith("/api/me")):
        await w.service.undo(HERE, ANN)
    await page.wait_for_timeout(300)
    release.set()  # the older state comes now
    async with page.expect_response(lambda r: r.url.endswith("/api/me")):
        pass
    await page.wait_for_timeout(500)
    await staged(page, 0)


async def test_a_refused_replay_leaves_the_page_on_the_position_now(
    w: World, browser: Browser
) -> None:
    """Regression: a replay refused (a long board with Assassins replays once it has ended)
    left the page saying "Turn 0 of 1" over the board as it is now, its squares gone until
    "The position now" was pressed; it stays on the position now, its squares to play."""
    from test_web_live import ANN_STARTS, ANN_WALKS, twin

    match = await twin(w, ANN_STARTS[0])
    ann = await w.token(match, Side.CHALLENGER)
    for notation in (ANN_WALKS[ANN_STARTS[0]], await w.first_action(match, Side.CHALLENGER)):
        assert (await w.post("act", ann, {"stamp": 1, "notation": notation}))[0] == 200
    assert (await w.post("end", ann, {"stamp": 1}))[0] == 200
    page = await player_page(w, browser, match, Side.OPPOSITION)
    await expect(page.locator("#step")).to_have_text("Now, after 1 turn", timeout=WAIT)
    await page.locator("#back").click()
    await expect(page.locator("#said")).to_contain_text("replay", timeout=WAIT)
    await expect(page.locator("#step")).to_have_text("Now, after 1 turn")
    await expect(page.locator("#cells")).to_be_visible()
    await expect(page.locator("#picture")).to_have_attribute("alt", re.compile("^The board:"))


async def test_a_stream_refused_for_too_many_open_boards_says_why(
    tmp_path: Path, browser: Browser
) -> None:
    """Regression: a live stream refused for too many boards open from one address (429)
    showed "reconnecting…" for ever, the server's "close one and try again" never read; the
    player page and the match page (an EventSource) now say it, and try again when the
    refusal's Retry-After says."""
    from bot.web import Limits

    async with World(tmp_path / "streams.sqlite3", limits=Limits(streams=1)) as w:
        match = await w.playing()
        assert w.client is not None
        first = await player_page(w, browser, match, Side.CHALLENGER)
        await expect(first.locator("#connection")).to_have_text("live", timeout=WAIT)
        second = await player_page(w, browser, match, Side.OPPOSITION)
        watcher = await opened(browser, str(w.client.make_url(f"/m/{match}")))
        for page in (second, watcher):
            await expect(page.locator("#connection")).to_contain_text("close one", timeout=WAIT)


async def test_the_page_of_a_match_there_is_not_stops_asking_for_its_live_stream(
    w: World, browser: Browser
) -> None:
    """Regression: a mistyped match page (``/m/<a number no match has>``) was served with
    200, said "There is no such match." and then "reconnecting…" for as long as it stayed
    open, asking for its refused live stream every 2 seconds. It is a 404 now, and the page
    asks once (and once more to read the refusal), then says there is nothing to follow."""
    assert w.client is not None
    asked: list[str] = []
    page = await opened(browser, "about:blank")
    page.on(
        "request", lambda request: asked.append(request.url) if "/events" in request.url else None
    )
    answer = await page.goto(str(w.client.make_url("/m/987654")))
    assert answer is not None and answer.status == 404
    await expect(page.locator("#said")).to_have_text("There is no such match.", timeout=WAIT)
    await expect(page.locator("#connection")).to_have_text("nothing to follow", timeout=WAIT)
    await page.wait_for_timeout(5_000)
    assert len(asked) <= 2, asked


async def test_a_players_open_page_shows_the_result_when_the_opponent_resigns(
    w: World, browser: Browser
) -> None:
    """Regression: ann's page, open on her turn when bob resigned, said only that her link
    had ended: no result, and End turn, Resign and Offer a draw stayed enabled over the old
    board, each refused when pressed. It becomes the match's page, the result shown."""
    from web_world import BOB, HERE

    match = await w.playing()
    ann = await player_page(w, browser, match, Side.CHALLENGER)
    await expect(ann.locator("#connection")).to_have_text("live", timeout=WAIT)
    await w.service.resign(HERE, BOB)
    await expect(ann.locator("#result")).to_contain_text("resign", timeout=WAIT)
    await expect(ann.locator("#error")).to_contain_text("ended")
    for control in ("#turn", "#more", "#plan", "#prompt"):
        await expect(ann.locator(control)).to_be_hidden()
    # the squares stay to read, no longer buttons to press
    await expect(ann.locator("#cells button")).to_have_count(0, timeout=WAIT)
    await expect(ann.locator('.cell[data-square="v5h9"]')).to_have_attribute(
        "aria-label", "v5h9: ann's General"
    )


async def test_the_tabs_title_names_the_game_the_match_and_whose_turn_it_is(
    w: World, browser: Browser
) -> None:
    """Regression: every player's tab was titled "Your board · tora-bot", every match page's
    "Match · tora-bot", whatever match it showed and whoever was to play: with a few matches
    open, a player could tell neither which tab was which nor which one waited for them."""
    assert w.client is not None
    match = await w.playing()
    ann = await player_page(w, browser, match, Side.CHALLENGER)
    bob = await player_page(w, browser, match, Side.OPPOSITION)
    anyone = await opened(browser, str(w.client.make_url(f"/m/{match}")))
    await expect(ann).to_have_title(f"▶ Your turn · TORA match {match} · tora-bot")
    for page in (bob, anyone):
        await expect(page).to_have_title(f"ann to play · TORA match {match} · tora-bot")


async def test_a_players_tab_says_the_game_waits_for_their_setup(
    w: World, browser: Browser
) -> None:
    """Regression: during the setup, where both players choose at once, a player's tab said
    neither that the game waited for their choice nor (once made) that it did not: its title
    and icon were those of a turn nobody had."""
    from web_world import ANN, BOB, HERE

    reply = await w.service.challenge(HERE, ANN, BOB, Terms())
    await w.service.accept(HERE, BOB)
    assert reply.stamp is not None
    match = reply.stamp.match
    await w.service.setup(HERE, BOB, {"strategy": "aggressive"})
    ann = await player_page(w, browser, match, Side.CHALLENGER)
    bob = await player_page(w, browser, match, Side.OPPOSITION)
    icon = ann.locator("link[rel=icon]")
    await expect(ann).to_have_title(f"▶ Your setup · TORA match {match} · tora-bot")
    await expect(icon).to_have_attribute("href", re.compile(r"/icon-turn\.svg$"))
    await expect(bob).to_have_title(f"TORA match {match} · tora-bot")


async def test_the_tabs_icon_is_marked_while_it_is_the_players_turn(
    w: World, browser: Browser
) -> None:
    """Regression: the pages had no icon (the browser's blank one, and a JSON 404 for the
    /favicon.ico it asked for); they now have the board's, marked on a player's tab while it
    is their turn."""
    assert w.client is not None
    match = await w.playing()
    ann = await player_page(w, browser, match, Side.CHALLENGER)
    bob = await player_page(w, browser, match, Side.OPPOSITION)
    icon = "link[rel=icon]"
    await expect(ann.locator(icon)).to_have_attribute("href", re.compile(r"/icon-turn\.svg$"))
    await expect(bob.locator(icon)).to_have_attribute("href", re.compile(r"/icon\.svg$"))
    for page in (ann, bob):
        href = await page.locator(icon).evaluate("link => link.href")
        async with w.client.get(href.removeprefix(str(w.client.make_url("")))) as answer:
            assert answer.status == 200 and answer.content_type == "image/svg+xml"


async def down_once(page: Page, url: str) -> list[str]:
    """The page's first request to ``url`` refused as by a server down; the list it is
    added to."""
    failed: list[str] = []

    async def once_down(route: Route) -> None:
        if failed:
            await route.continue_()
        else:
            failed.append(route.request.url)
            await route.abort("connectionrefused")

    await page.route(url, once_down)
    return failed


async def test_the_focused_and_the_picked_square_stand_out_on_every_square(
    w: World, browser: Browser
) -> None:
    """Regression: the focus was a white outline inside the square, about 1.2:1 on the
    board's light squares, far below the 3:1 a focus mark needs (the picked piece's white
    ring alike); each is now a ring of two colours, one at least 3:1 on every square's
    colour, each at least 3:1 against the other."""
    match = await w.playing()
    page = await player_page(w, browser, match, Side.CHALLENGER)
    await page.wait_for_timeout(300)  # the picture decoded
    found = await page.evaluate(RINGS)
    for ring in (found["focus"], found["picked"]):
        assert len(ring) == 2 and contrast(*ring) >= 3, found
        for under in found["squares"]:
            assert max(contrast(colour, under) for colour in ring) >= 3, (ring, under)


# The colours of a focused and of a picked cell's rings, and of every square of the picture
# just inside its edge (where the rings are drawn).
RINGS = r"""() => {
    const img = document.getElementById('picture');
    const canvas = document.createElement('canvas');
    canvas.width = img.naturalWidth; canvas.height = img.naturalHeight;
    const ctx = canvas.getContext('2d');
    ctx.drawImage(img, 0, 0);
    const box = img.getBoundingClientRect(), scale = img.naturalWidth / box.width;
    const cells = [...document.querySelectorAll('.cell')];
    const squares = cells.map((cell) => {
        const r = cell.getBoundingClientRect();
        const x = Math.round((r.left - box.left + 2) * scale);
        const y = Math.round((r.top - box.top + r.height / 2) * scale);
        return [...ctx.getImageData(x, y, 1, 1).data.slice(0, 3)];
    });
    const rgb = (text) => [...text.matchAll(/rgba?\(([^)]*)\)/g)].map(
        (m) => m[1].split(/[ ,]+/).slice(0, 3).map(Number));
    const [focused, picked] = cells;
    focused.tabIndex = 0;
    focused.focus({focusVisible: true});
    const style = getComputedStyle(focused);
    picked.classList.add('picked');
    return {squares,
            focus: [...rgb(style.outlineColor), ...rgb(style.boxShadow)],
            picked: rgb(getComputedStyle(picked).boxShadow)};
}"""


def contrast(a: list[int], b: list[int]) -> float:
    """The WCAG contrast ratio of two sRGB colours."""

    def luminance(rgb: list[int]) -> float:
        linear = [c / 255 / 12.92 if c <= 10 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in rgb]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


async def player_page(w: World, browser: Browser, match: int, side: Side) -> Page:
    """``side``'s page of ``match`` in ``w``, open on its board."""
    assert w.client is not None
    page = await opened(browser, f"{w.client.make_url('/play')}#{await w.token(match, side)}")
    await expect(page.locator(".cell")).not_to_have_count(0, timeout=WAIT)
    return page


async def test_every_text_of_the_players_page_stands_out_from_its_background(
    w: World, browser: Browser
) -> None:
    """Regression: End turn's white on green was 4.45:1 and what a chooser's option does (the
    grey under its name, the piece's "why") 3.5:1 on the button's grey, both under the 4.5:1
    that text needs to be read by players who see less contrast. Every text of the page, a
    chooser open too (built by the page's own forms.js), is now at least 4.5:1 (disabled
    controls aside: they are not to be used)."""
    match = await w.playing()
    ann = await player_page(w, browser, match, Side.CHALLENGER)
    await ann.locator("#more summary").click()
    await ann.evaluate(CHOOSER)
    await expect(ann.locator("#chooser .why")).to_be_visible()
    found = await ann.evaluate(TEXTS)
    poor = [(text, fg, bg) for text, fg, bg in found if contrast(fg, bg) < 4.5]
    assert len(found) > 20 and poor == [], poor


# The chooser opened as the page opens it (forms.js, of the page's own build), its option
# with the line saying what it does.
CHOOSER = """async () => {
    const board = document.querySelector('script[type=module]').src;
    const forms = await import(new URL('forms.js', board));
    forms.offer('Archer', [{text: 'move', why: 'to a square', choose: () => {}}]);
}"""

# Each visible text's colour and the colour of what is behind it (the nearest box with a
# background), as [text, [r, g, b], [r, g, b]]; disabled controls left out.
TEXTS = r"""() => {
    const rgb = (css) => css.match(/[0-9.]+/g).map(Number);
    const behind = (element) => {
        for (let e = element; e; e = e.parentElement) {
            const bg = rgb(getComputedStyle(e).backgroundColor);
            if (bg.length < 4 || bg[3] > 0) return bg.slice(0, 3);
        }
        return [255, 255, 255];
    };
    const said = (e) => [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    return [...document.querySelectorAll('body *')]
        .filter((e) => e.checkVisibility() && said(e) && !e.closest(':disabled'))
        .map((e) => [e.textContent.trim().slice(0, 30), rgb(getComputedStyle(e).color), behind(e)])
        .map(([text, fg, bg]) => [text, fg.slice(0, 3), bg]);
}"""


async def test_the_turn_coming_to_a_player_is_said_to_their_screen_reader(
    w: World, browser: Browser
) -> None:
    """Regression: when ann ended her turn, bob's page showed that his had come only where no
    screen reader says it: the prompt and the players' list are no live regions, and the
    summary (TORA's score) stayed the same. His prompt is now read out when it appears."""
    match = await w.playing()
    bob = await player_page(w, browser, match, Side.OPPOSITION)
    await expect(bob.locator("#connection")).to_have_text("live", timeout=WAIT)
    ann = await w.token(match, Side.CHALLENGER)
    await w.post("act", ann, {"stamp": 1, "notation": await w.first_action(match, Side.CHALLENGER)})
    await w.post("end", ann, {"stamp": 1})
    prompt = (await w.me(match, Side.OPPOSITION))["prompt"]
    await expect(bob.locator("#prompt")).to_have_text(prompt, timeout=WAIT)
    assert prompt in await bob.evaluate(LIVE_REGIONS)


# The text of the page's live regions: what a screen reader says as it changes.
LIVE_REGIONS = """() => [...document.querySelectorAll(
    '[aria-live]:not([aria-live=off]), [role=status], [role=alert]')]
    .filter((e) => e.checkVisibility()).map((e) => e.textContent).join('\\n')"""


async def walk(page: Page, square: str) -> None:
    """Move the focus to ``square`` with the arrow keys alone."""
    for _ in range(40):
        at = await page.evaluate(
            "s => { const a = document.activeElement, b = document.querySelector("
            "`.cell[data-square='${s}']`); return [a.dataset.square, "
            "b.dataset.cx - a.dataset.cx, b.dataset.cy - a.dataset.cy]; }",
            square,
        )
        if at[0] == square:
            return
        dx, dy = at[1], at[2]
        if abs(dx) >= abs(dy):
            await page.keyboard.press("ArrowRight" if dx > 0 else "ArrowLeft")
        else:
            await page.keyboard.press("ArrowDown" if dy > 0 else "ArrowUp")
    raise AssertionError(f"the arrow keys never reached {square}")


# What cannot be used before the game starts, hidden during the setup: ending a turn, the
# replay, flipping, the draw and resignation, the move list, the record.
BEFORE_THE_GAME = ("#turn", "#replay", "#flip", "#more", "#history", "#record")


def setup_field(page: Page, name: str) -> Any:
    """The fieldset of setup question ``name`` on a player's page."""
    return page.locator(f'#setup-fields fieldset[data-name="{name}"]')


async def test_a_long_board_setup_done_on_the_page(stage: Stage, browser: Browser) -> None:
    channel = stage.channels[5]
    await begin(stage, channel, ("kim", "lee"), board="long", assassins=True)
    kim = await opened(browser, await board_link(stage, "kim"))  # from the setup message
    await expect(kim.locator("#setup")).to_be_visible(timeout=WAIT)
    await expect(kim.locator(".cell")).to_have_count(17 * 17)  # the match's own board to click
    await expect(kim.locator(".players .to-act")).to_have_count(0)  # both choose at once
    for hidden in BEFORE_THE_GAME:
        await expect(kim.locator(hidden)).to_be_hidden()
    await expect(kim.locator("#zoom")).to_be_visible()  # the long board's squares to click
    text = await kim.locator("#setup").inner_text() + await kim.locator("#said").inner_text()
    assert "/tora" not in text and "`" not in text
    await setup_field(kim, "strategy").locator("button").nth(1).click()  # defensive
    await expect(setup_field(kim, "strategy")).to_contain_text("chosen: defensive", timeout=WAIT)
    await expect(kim.locator(".cell.role-setup").first).to_be_visible()  # the free squares lit
    await setup_field(kim, "ruler").locator("button").nth(1).click()  # Q
    await expect(setup_field(kim, "ruler")).to_contain_text("chosen: Q", timeout=WAIT)
    free = kim.locator(".cell.role-setup")
    first, square = [await free.nth(n).get_attribute("data-square") for n in (0, 1)]
    await kim.click(f'.cell[data-square="{first}"]')  # the Assassin's square, by clicking it
    await expect(kim.locator("#setup-text")).to_contain_text("setup is done", timeout=WAIT)
    label = kim.locator(f'.cell[data-square="{first}"]')
    await expect(label).to_have_attribute("aria-label", re.compile("Assassin"), timeout=WAIT)
    # R41: the setup is done but may still change until the start, so the board still takes
    # a click on another free square (it took none once done: "Click a square on the board"
    # was still said under the Assassin's question)
    await kim.click(f'.cell[data-square="{square}"]')
    label = kim.locator(f'.cell[data-square="{square}"]')
    await expect(label).to_have_attribute("aria-label", re.compile("Assassin"), timeout=WAIT)
    await expect(setup_field(kim, "assassin")).to_contain_text(f"chosen: {square}")
    await expect(kim.locator("#connection")).to_have_text("live")  # earlier pages freed theirs
    players = kim.locator(".players li")
    await expect(players.nth(0)).to_contain_text("setup done")
    await expect(players.nth(1)).to_contain_text("choosing")
    await shoot(kim, "web-setup.png")
    answers = {"strategy": "aggressive", "ruler": "K", "assassin": "none"}
    await stage.slash("lee", "setup", channel=channel, **answers)  # lee sets up in Discord
    await stage.posted("The game begins", channel)
    await to_act(kim, "kim")  # the page moved on to the game by itself
    await expect(kim.locator("#setup")).to_be_hidden()
    for shown in BEFORE_THE_GAME:
        await expect(kim.locator(shown)).to_be_visible()
    origin = kim.locator(f'.cell.origin[data-square="{square}"]')
    await expect(origin).to_have_attribute("aria-label", re.compile("Assassin"), timeout=WAIT)


async def test_the_page_of_a_match_whose_game_never_began_offers_no_record(
    w: World, browser: Browser
) -> None:
    """A TORA match called off during its setup keeps its page, the result shown, but
    nothing of a game: no replay, flip or move list, and no record to download (its
    download was refused: there is no record)."""
    from web_world import ANN, BOB, HERE

    from bot.service import Terms

    reply = await w.service.challenge(HERE, ANN, BOB, Terms())
    assert reply.stamp is not None and w.client is not None
    await w.service.accept(HERE, BOB)
    await w.service.abort(HERE, ANN)
    page = await opened(browser, str(w.client.make_url(f"/m/{reply.stamp.match}")))
    await expect(page.locator("#result")).to_be_visible(timeout=WAIT)
    for hidden in ("#replay", "#flip", "#history", "#record"):
        await expect(page.locator(hidden)).to_be_hidden()


async def test_a_torii_spirit_chosen_on_the_page(stage: Stage, browser: Browser) -> None:
    channel = stage.channels[6]
    await begin(stage, channel, ("max", "ned"), game="torii")
    page = await opened(browser, await board_link(stage, "max"))
    spirit = setup_field(page, "spirit")
    monkey = spirit.locator("button", has_text="Monkey")
    await expect(monkey.locator(".why")).not_to_be_empty(timeout=WAIT)  # its power, in words
    await monkey.click()
    await expect(page.locator("#setup-text")).to_contain_text("setup is done", timeout=WAIT)
    await expect(spirit).to_contain_text("chosen: Monkey")
    await stage.slash("ned", "setup", channel=channel, spirit="Kitsune")
    await stage.posted("The game begins", channel)
    await to_act(page, "max")
    assert "Monkey" in await page.locator("#summary").inner_text()


async def test_a_generals_move_the_turn_cannot_end_on_is_marked_before_staging(
    stage: Stage, browser: Browser
) -> None:
    channel = stage.channels[7]
    await begin(stage, channel, ("oli", "pat"), board="short")
    await stage.slash("oli", "setup", strategy="aggressive", channel=channel)
    await stage.slash("pat", "setup", strategy="defensive", channel=channel)
    await stage.posted("The game begins", channel)
    for notation in ("A v7h9-v6h7", "A v5h7-v5h5"):  # two Archers up: pat's General exposed
        await stage.slash("oli", "act", action=notation, channel=channel)
    await stage.click("oli", "End turn", channel=channel)

    pat = await opened(browser, await board_link(stage, "pat"))
    await to_act(pat, "pat")
    await pat.click('.cell[data-square="v5h1"]')  # the General
    warned = pat.locator('.cell.spot.warn[data-square="v6h1"]')
    await expect(warned).to_have_count(1, timeout=WAIT)  # marked "!" before anything is staged
    await expect(warned).to_have_attribute("aria-label", re.compile("jeopardy"))
    mark = await warned.evaluate("c => getComputedStyle(c, '::before').content")
    assert mark == '"!"'
    await warned.click()  # the chooser says why, and nothing is staged yet
    await expect(pat.locator("#chooser .warning")).to_contain_text("jeopardy")
    await staged(pat, 0)


async def test_a_draw_offered_taken_back_then_offered_by_the_other_and_accepted(
    stage: Stage, browser: Browser
) -> None:
    channel = stage.channels[8]
    await begin(stage, channel, ("quin", "rex"), game="torishogi")
    await stage.posted("The game begins", channel)
    quin = await opened(browser, await board_link(stage, "quin"))
    await to_act(quin, "quin")
    await stage.slash("rex", "board", link="new", channel=channel)  # not his turn: no DM yet
    rex = await opened(browser, stage.emu.find_link(channel, BOARD, user=stage.user["rex"]))
    mine, proposal = quin.locator("#proposals"), rex.locator("#proposals")
    await quin.click(".more summary")
    await quin.click("#draw")
    await expect(mine).to_contain_text("You proposed a draw", timeout=WAIT)
    assert "/tora" not in await quin.locator("#said").inner_text()
    await expect(proposal).to_contain_text("Your opponent proposes a draw", timeout=WAIT)
    await mine.get_by_role("button", name="Take back").click()  # only one's own, no Accept
    await expect(quin.locator("#said")).to_contain_text("took back your draw offer", timeout=WAIT)
    for page in (mine, proposal):
        await expect(page).to_be_empty(timeout=WAIT)
    await stage.posted("takes back their draw offer", channel)
    await rex.click(".more summary")  # quin's is not made again this turn: rex offers one
    await rex.click("#draw")
    await expect(mine).to_contain_text("Your opponent proposes a draw", timeout=WAIT)
    await mine.get_by_role("button", name="Accept").click()
    await expect(quin.locator("#result")).to_contain_text("draw", timeout=WAIT)
    await expect(rex.locator("#error")).to_contain_text("has ended", timeout=WAIT)
    await stage.posted("draw", channel)


async def test_a_pause_declined_then_accepted_then_the_clock_resumed(
    stage: Stage, browser: Browser
) -> None:
    channel = stage.channels[9]
    await begin(stage, channel, ("sam", "tia"), game="torishogi")
    await stage.posted("The game begins", channel)
    sam = await opened(browser, await board_link(stage, "sam"))
    await to_act(sam, "sam")
    await stage.slash("tia", "board", link="new", channel=channel)  # not her turn: no DM yet
    tia = await opened(browser, stage.emu.find_link(channel, BOARD, user=stage.user["tia"]))
    await sam.click(".more summary")
    await tia.click(".more summary")
    # sam's pause, declined, is not made again this turn: tia proposes the next one
    for by, to, answer in ((sam, tia, "Decline"), (tia, sam, "Accept")):
        proposal = to.locator("#proposals")
        await by.click("#pause")
        await expect(proposal).to_contain_text("Your opponent proposes a pause", timeout=WAIT)
        await proposal.get_by_role("button", name=answer).click()
        await expect(proposal).to_be_empty(timeout=WAIT)
        if answer == "Decline":
            said = tia.locator("#said")
            await expect(said).to_contain_text("You declined sam's pause proposal", timeout=WAIT)
            await expect(said).to_contain_text("the clock keeps running")
            await stage.posted("declines sam's pause proposal", channel)
    for page in (sam, tia):
        await expect(page.locator("#clock")).to_contain_text("Paused", timeout=WAIT)
        await expect(page.locator("#pause")).to_be_disabled()
    await tia.click("#resume")  # either player resumes, no proposal needed
    await expect(tia.locator("#said")).to_contain_text("The clock is running again", timeout=WAIT)
    for page in (sam, tia):
        await expect(page.locator("#clock")).to_contain_text("Deadline", timeout=WAIT)
        await expect(page.locator("#resume")).to_be_disabled()
    await stage.posted("tia (Opposition) resumed the match", channel)


async def test_end_turn_pressed_while_an_action_is_out_ends_the_turn_after_it(
    w: World, browser: Browser
) -> None:
    """On a slow network a square is clicked (its action on its way) and End turn at once:
    the press waits for the action and ends the turn then, never dropped without a word."""
    match = await w.playing()
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
    page = await player_page(w, browser, match, Side.CHALLENGER)
    await expect(page.locator("#connection")).to_have_text("live", timeout=WAIT)

    async def slow(route: Route) -> None:
        await asyncio.sleep(1.5)  # a phone's network
        await route.continue_()

    await page.route("**/api/me/act", slow)
    await page.click(f'.cell[data-square="{group["origin"]}"]')
    await expect(page.locator(".cell.picked")).to_have_count(1, timeout=WAIT)
    await page.click(f'.cell[data-square="{action["spot"]}"]')
    await page.click("#end")  # while the action is still out
    await to_act(page, "bob")
    players = (await w.me(match, Side.OPPOSITION))["players"]
    assert next(p["to_act"] for p in players if p["name"] == "bob")


async def test_a_picked_generals_warnings_stay_when_the_page_reads_a_new_state(
    w: World, browser: Browser
) -> None:
    """R30: bob's General picked, the square its move would leave it in jeopardy is marked
    "!"; a draw offered from elsewhere changes bob's state, the General stays picked, and
    so do its warnings (asked again for the new state)."""
    match = await w.playing()
    ann = await w.token(match, Side.CHALLENGER)
    for notation in ("A v7h9-v6h7", "A v5h7-v5h5"):  # two Archers up: bob's General exposed
        assert (await w.post("act", ann, {"stamp": 1, "notation": notation}))[0] == 200
    assert (await w.post("end", ann, {"stamp": 1}))[0] == 200
    bob = await player_page(w, browser, match, Side.OPPOSITION)
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
    await warned.click()  # and a click there still warns before it acts
    await expect(bob.locator("#chooser .warning")).to_contain_text("jeopardy", timeout=WAIT)
    await staged(bob, 0)


async def test_r28_propose_a_reset_is_not_offered_in_a_game_without_resets(
    w: World, browser: Browser
) -> None:
    """R28: a reset is TORA's, in a series; a ToriShogi player's page does not offer
    "Propose a reset", which could only be refused, while a draw and a pause stay."""
    match = await w.playing(Terms(game="torishogi"))
    page = await player_page(w, browser, match, Side.CHALLENGER)
    await page.click(".more summary")
    await expect(page.locator("#draw")).to_be_enabled(timeout=WAIT)
    await expect(page.locator("#pause")).to_be_enabled()
    await expect(page.locator("#reset")).to_be_hidden()


async def test_a_turn_ended_on_the_page_can_be_asked_back_on_the_page(
    w: World, browser: Browser
) -> None:
    """In a casual match a turn ended on the page is asked back there, as Discord's "Ask to
    take it back" does, until the opponent ends theirs; the opponent accepts and it is
    played again."""
    match = await w.playing(Terms(rated=False))
    token = await w.token(match, Side.CHALLENGER)
    notation = await w.first_action(match, Side.CHALLENGER)
    assert (await w.post("act", token, {"stamp": 1, "notation": notation}))[0] == 200
    page = await player_page(w, browser, match, Side.CHALLENGER)
    await staged(page, 1)
    ask = page.get_by_role("button", name="Ask to take back your turn")
    await page.click(".more summary")
    await expect(ask).to_be_hidden()  # nothing ended to take back yet
    await page.click("#end")
    await to_act(page, "bob")
    await ask.click()
    await expect(page.locator("#proposals")).to_contain_text("take back", timeout=WAIT)
    await expect(ask).to_be_hidden()  # asked: the proposal stands, with its Take back
    bob = await w.token(match, Side.OPPOSITION)
    status, body, _ = await w.post("answer", bob, {"stamp": 2, "kind": "rewind", "yes": True})
    assert status == 200, body
    await to_act(page, "ann")
    await staged(page, 0)  # the turn taken back, to play again
