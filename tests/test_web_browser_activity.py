"""The board as a Discord Activity in a real browser (headless Chromium through Playwright),
against the bot in its own process on the Discord emulator with ``TORA_ACTIVITY=on``.

Discord's client is played by a stand-in: a page served as ``https://discord.com`` (the
browser's requests there are answered by the test) that frames the bot's ``/activity`` with
the query Discord gives it and answers the Embedded App SDK's ``postMessage`` protocol as
the client does: the handshake with ``READY``, ``AUTHORIZE`` with a code the emulator issued
for the user (what Discord's OAuth2 does), ``AUTHENTICATE`` with the user. Everything past
that is real: the vendored SDK, the code exchanged by the bot's web server with the
emulator, the user from ``/users/@me``, the match from the Activity instance's channel. ann
plays a TORA turn by clicks inside the frame and it reaches the channel; cat, who joined her
Activity but plays in no match, sees the public view only; a page of another origin cannot
frame it; the page opened outside Discord says where to open it. Every game opens and plays
there: TORA's long board set up on the page (its Assassin's square clicked) and its first
turn, a ToriShogi turn, a Torii Spirit chosen on the page and its first turn. A user who
declines the authorization is told the board needs it, and one whose sign-in cannot reach
the board to open it again; Discord refusing ``AUTHENTICATE`` leaves the board working. A
user signed in to the Activity follows the match live however many streams their address
holds (Discord's proxy brings every user from a few addresses);
a page without a sign-in refused its stream a while (its address holds as many as it may)
follows the match once one is freed. Through all of it the Activity's
Content Security Policy blocks nothing the page or the SDK does (the browser would say so on
the console)."""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator
from urllib.parse import urlencode

import pytest
import pytest_asyncio
import test_web_browser
from test_web_browser import (
    CHROMIUM,
    MISSING,
    OPEN,
    WAIT,
    begin,
    opened,
    pick_and_play,
    setup_field,
    unwarned,
)

from bot.service.links import PAGE
from harness.stage import Stage
from rules import GameState, game_type

try:
    from playwright.async_api import Browser, Frame, Page, Route, async_playwright, expect
except ImportError:
    async_playwright = None

closing = test_web_browser.closing  # each test's pages closed after it

pytestmark = [
    pytest.mark.skipif(async_playwright is None or not CHROMIUM.exists(), reason=MISSING),
    pytest.mark.asyncio(loop_scope="module"),
]

DISCORD = "https://discord.com"
# Discord's client, as far as the SDK meets it: the opcodes HANDSHAKE 0 and FRAME 1.
CLIENT = """
const frame = () => document.querySelector("iframe").contentWindow;
window.said = [];
window.addEventListener("message", (event) => {
  if (event.source !== frame() || !Array.isArray(event.data)) return;
  const [op, payload] = event.data;
  const answer = (body) => frame().postMessage([1, body], event.origin);
  if (op === 0) {
    window.said.push("HANDSHAKE " + payload.client_id);
    const config = { api_endpoint: "//discord.com/api", environment: "production" };
    answer({ cmd: "DISPATCH", evt: "READY", nonce: null, data: { v: 1, config } });
    return;
  }
  window.said.push(payload.cmd);
  const reply = (data) => answer({ cmd: payload.cmd, evt: null, nonce: payload.nonce, data });
  if (payload.cmd === SIGN_IN.refuse) {  // as the client refuses a command: an ERROR event
    const data = { code: 5000, message: "The user refused" };
    answer({ cmd: payload.cmd, evt: "ERROR", nonce: payload.nonce, data });
    return;
  }
  if (payload.cmd === "AUTHORIZE") {
    window.said.push("scope " + payload.args.scope.join(" "));
    reply({ code: SIGN_IN.code });
  } else if (payload.cmd === "AUTHENTICATE") {
    reply({
      access_token: payload.args.access_token,
      user: { id: SIGN_IN.user, username: SIGN_IN.name, discriminator: "0", public_flags: 0 },
      scopes: ["identify"],
      expires: "2030-01-01T00:00:00.000Z",
      application: { id: SIGN_IN.client, name: "TORA", description: "" },
    });
  } else {
    reply(null);
  }
});
"""


# The stand-in client is a public page (https://discord.com) framing the bot on 127.0.0.1,
# which Chromium's Local Network Access checks block; in Discord the Activity is served from
# the public https://<client id>.discordsays.com, so they are turned off for this test alone.
LOCAL_NETWORK = "LocalNetworkAccessChecks,PrivateNetworkAccessForNavigations"


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def browser() -> AsyncIterator[Browser]:
    async with async_playwright() as playwright:
        args = ["--no-sandbox", "--disable-gpu", "--no-first-run"]
        args.append(f"--disable-features={LOCAL_NETWORK}")
        launched = await playwright.chromium.launch(executable_path=str(CHROMIUM), args=args)
        yield launched
        await launched.close()


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def stage(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Stage]:
    workdir = tmp_path_factory.mktemp("activity")
    names = ("ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal", "ivy", "jon", "kim", "lee")
    names += ("max", "ned")
    async with Stage(workdir, names, process=True, channels=7, activity=True) as on_stage:
        yield on_stage


POLICY = "Content Security Policy"
BLOCKED: list[str] = []  # the console's words of anything the Activity's policy blocked


@pytest_asyncio.fixture(autouse=True, loop_scope="module")
async def nothing_blocked() -> AsyncIterator[None]:
    """The Activity's policy lists what its page and the SDK need: nothing is blocked."""
    BLOCKED.clear()
    yield
    assert BLOCKED == []


def client_page(stage: Stage, who: str, instance: str, channel: int, refuse: str = "") -> str:
    """The stand-in for Discord's client: the Activity framed as Discord frames it, for
    ``who``, whose sign-in the emulator will vouch for once; ``refuse``: the command it
    answers with an error (the user declined ``AUTHORIZE``...)."""
    client = str(stage.emu.world.bot.id)
    query = {
        "instance_id": instance,
        "frame_id": f"frame-{who}",
        "platform": "desktop",
        "channel_id": str(channel),
        "guild_id": str(stage.guild),
    }
    sign_in = {
        "code": stage.emu.activities.authorize(stage.user[who]),
        "user": str(stage.user[who]),
        "name": who,
        "refuse": refuse,
        "client": client,
    }
    source = f"{stage.web_url}/?{urlencode(query)}"  # the root URL mapping's address
    script = f"const SIGN_IN = {json.dumps(sign_in)};\n{CLIENT}"
    return (
        "<!doctype html><html><body style='margin:0'>"
        f"<iframe src='{source}' style='width:420px;height:900px;border:0'></iframe>"
        f"<script>{script}</script></body></html>"
    )


async def in_discord(
    browser: Browser, html: str, origin: str = DISCORD, cut: str = ""
) -> tuple[Page, Frame]:
    """The stand-in client's page, served as ``origin``, and the Activity's frame in it;
    ``cut``: where the frame's requests fail as a dropped connection does (a URL pattern)."""
    context = await browser.new_context(viewport={"width": 440, "height": 940})
    OPEN.append(context)
    page = await context.new_page()
    page.on("pageerror", lambda error: pytest.fail(f"the page failed: {error}"))
    if origin == DISCORD:  # what the Activity's policy blocked, said on the console
        page.on("console", lambda said: BLOCKED.append(said.text) if POLICY in said.text else None)

    async def serve(route: Route) -> None:
        await route.fulfill(status=200, content_type="text/html", body=html)

    await page.route(f"{origin}/**", serve)
    if cut:
        await page.route(cut, lambda route: route.abort("connectionreset"))
    await page.goto(f"{origin}/activities/tora")
    frame = await wait_for_frame(page)
    return page, frame


async def wait_for_frame(page: Page) -> Frame:
    handle = await page.wait_for_selector("iframe")
    assert handle is not None
    frame = await handle.content_frame()
    assert frame is not None
    return frame


async def test_a_player_plays_a_turn_inside_discord(stage: Stage, browser: Browser) -> None:
    channel = stage.channels[0]
    await begin(stage, channel, ("ann", "bob"), board="short")
    await stage.slash("ann", "setup", strategy="aggressive", channel=channel)
    await stage.slash("bob", "setup", strategy="defensive", channel=channel)
    await stage.posted("The game begins", channel)
    launched = await stage.slash("ann", "play", channel=channel)
    assert launched.activity is not None and launched.messages == []

    page, frame = await in_discord(browser, client_page(stage, "ann", launched.activity, channel))
    await expect(frame.locator("body")).to_have_attribute("data-page", "play", timeout=WAIT)
    await expect(frame.locator("#title")).to_contain_text("you play the", timeout=WAIT)
    await expect(frame.locator(".players .to-act")).to_contain_text("ann", timeout=WAIT)
    said = await page.evaluate("window.said")
    client = str(stage.emu.world.bot.id)
    assert said[:4] == [f"HANDSHAKE {client}", "AUTHORIZE", "scope identify", "AUTHENTICATE"]
    assert await frame.locator("#public").is_hidden()  # Discord's frame shows this page only

    kind = game_type("tora")
    options = kind.check_options({"board": "short"})
    answers = ({"strategy": "aggressive"}, {"strategy": "defensive"})
    game = kind.new_game(options, answers)
    rng = random.Random(5)
    while game.actions_left:
        await pick_and_play(
            frame, game, rng.choice(unwarned(game))
        )  # a Frame clicks as a Page does
        await expect(frame.locator("body")).to_have_attribute(
            "data-staged", str(len(game.staged())), timeout=WAIT
        )
    await frame.click("#end")
    await stage.posted("ann (Challenger) ended their turn", channel)
    await expect(frame.locator(".players .to-act")).to_contain_text("bob", timeout=WAIT)


async def test_who_plays_no_part_watches_the_public_view(stage: Stage, browser: Browser) -> None:
    channel = stage.channels[1]
    await begin(stage, channel, ("dan", "eve"), board="short")
    await stage.slash("dan", "setup", strategy="aggressive", channel=channel)
    await stage.slash("eve", "setup", strategy="defensive", channel=channel)
    await stage.posted("The game begins", channel)
    instance = (await stage.slash("dan", "play", channel=channel)).activity
    assert instance is not None
    stage.emu.activities.join(instance, stage.user["cat"])

    _page, frame = await in_discord(browser, client_page(stage, "cat", instance, channel))
    await expect(frame.locator("body")).to_have_attribute("data-page", "match", timeout=WAIT)
    await expect(frame.locator("#title")).to_contain_text("watching", timeout=WAIT)
    await expect(frame.locator(".players .to-act")).to_contain_text("dan", timeout=WAIT)
    for hidden in ("#turn", "#more", "#plan", "#setup"):
        await expect(frame.locator(hidden)).to_be_hidden()
    # the squares to read, what stands on each: nothing to click, no seat
    square = frame.locator('.cell[data-square="v5h9"]')
    await expect(square).to_have_attribute("aria-label", "v5h9: dan's General", timeout=WAIT)
    assert await frame.locator("#cells button").count() == 0


async def test_another_site_cannot_frame_the_activity(stage: Stage, browser: Browser) -> None:
    html = f"<iframe src='{stage.web_url}/activity?frame_id=f&instance_id=i&platform=desktop'>"
    _page, frame = await in_discord(browser, html, origin="https://evil.example")
    await frame.wait_for_load_state("load")  # the error page frame-ancestors leaves instead
    assert frame.url.startswith("chrome-error://")
    assert await frame.locator("#title").count() == 0


async def test_the_activity_opened_outside_discord_says_where_to_open_it(
    stage: Stage, browser: Browser
) -> None:
    context = await browser.new_context()
    OPEN.append(context)
    page = await context.new_page()
    await page.goto(f"{stage.web_url}/activity")  # no frame_id, no instance: not Discord's
    await expect(page.locator("#error")).to_contain_text("opens inside Discord", timeout=WAIT)
    await expect(page.locator("#connection")).to_have_text("not signed in")


async def launched_for(stage: Stage, browser: Browser, who: str, channel: int) -> Frame:
    """``who``'s ``/tora play`` in ``channel``, the Activity it launches opened in the stand-in
    client, signed in as their seat."""
    launched = await stage.slash(who, "play", channel=channel)
    assert launched.activity is not None, launched.text
    _page, frame = await in_discord(browser, client_page(stage, who, launched.activity, channel))
    await expect(frame.locator("body")).to_have_attribute("data-page", "play", timeout=WAIT)
    await expect(frame.locator("#title")).to_contain_text("you play the", timeout=WAIT)
    return frame


async def one_turn(stage: Stage, frame: Frame, game: GameState, who: str, channel: int) -> None:
    """``who`` plays a whole turn by clicks inside the frame and ends it: the channel hears
    of it."""
    await expect(frame.locator(".players .to-act")).to_contain_text(who, timeout=WAIT)
    rng = random.Random(7)
    while game.actions_left:
        await pick_and_play(frame, game, rng.choice(unwarned(game)))
        await expect(frame.locator("body")).to_have_attribute(
            "data-staged", str(len(game.staged())), timeout=WAIT
        )
    await frame.click("#end")
    await stage.posted(f"{who} (Challenger) ended their turn", channel)


async def test_a_long_board_set_up_and_played_inside_discord(
    stage: Stage, browser: Browser
) -> None:
    """TORA's long board with Assassins: the setup on the Activity's page (the Assassin's
    square by clicking it), then its first turn."""
    channel = stage.channels[2]
    await begin(stage, channel, ("fay", "gus"), board="long", assassins=True)
    frame = await launched_for(stage, browser, "fay", channel)
    await expect(frame.locator("#setup")).to_be_visible(timeout=WAIT)
    await setup_field(frame, "strategy").locator("button", has_text="defensive").click()
    await expect(setup_field(frame, "strategy")).to_contain_text("chosen", timeout=WAIT)
    await setup_field(frame, "ruler").locator("button", has_text="Q").click()
    await expect(setup_field(frame, "ruler")).to_contain_text("chosen: Q", timeout=WAIT)
    square = await frame.locator(".cell.role-setup").first.get_attribute("data-square")
    await frame.click(f'.cell[data-square="{square}"]')
    await expect(frame.locator("#setup-text")).to_contain_text("setup is done", timeout=WAIT)
    theirs = {"strategy": "aggressive", "ruler": "K", "assassin": "none"}
    await stage.slash("gus", "setup", channel=channel, **theirs)
    await stage.posted("The game begins", channel)
    await expect(frame.locator("#setup")).to_be_hidden(timeout=WAIT)
    kind = game_type("tora")
    options = kind.check_options({"board": "long", "assassins": True})
    fays = {"strategy": "defensive", "ruler": "Q", "assassin": str(square)}
    await one_turn(stage, frame, kind.new_game(options, (fays, theirs)), "fay", channel)


async def test_a_torishogi_turn_inside_discord(stage: Stage, browser: Browser) -> None:
    channel = stage.channels[3]
    await begin(stage, channel, ("hal", "ivy"), game="torishogi")
    await stage.posted("The game begins", channel)
    frame = await launched_for(stage, browser, "hal", channel)
    kind = game_type("torishogi")
    await one_turn(stage, frame, kind.new_game(*kind.sample_setup({})), "hal", channel)


async def test_a_torii_spirit_chosen_and_a_turn_played_inside_discord(
    stage: Stage, browser: Browser
) -> None:
    channel = stage.channels[4]
    await begin(stage, channel, ("jon", "cat"), game="torii")
    frame = await launched_for(stage, browser, "jon", channel)
    await setup_field(frame, "spirit").locator("button", has_text="Kitsune").click()
    await expect(frame.locator("#setup-text")).to_contain_text("setup is done", timeout=WAIT)
    await stage.slash("cat", "setup", channel=channel, spirit="Monkey")
    await stage.posted("The game begins", channel)
    game = game_type("torii").new_game(
        {"powers": True}, ({"spirit": "Kitsune"}, {"spirit": "Monkey"})
    )
    await one_turn(stage, frame, game, "jon", channel)


async def test_a_sign_in_refused_in_discord_says_what_to_do(stage: Stage, browser: Browser) -> None:
    """The user declines the authorization: the page says the board needs it. Discord
    refusing the access token's ``authenticate`` (which the board needs nothing of) leaves
    the board as it is."""
    channel = stage.channels[5]
    await begin(stage, channel, ("kim", "lee"), game="torishogi")
    await stage.posted("The game begins", channel)
    for refused in ("AUTHORIZE", "AUTHENTICATE"):
        instance = (await stage.slash("kim", "play", channel=channel)).activity
        assert instance is not None
        html = client_page(stage, "kim", instance, channel, refuse=refused)
        _page, frame = await in_discord(browser, html)
        if refused == "AUTHORIZE":
            await expect(frame.locator("#error")).to_contain_text("allow it", timeout=WAIT)
            await expect(frame.locator("#connection")).to_have_text("not signed in")
        else:
            await expect(frame.locator("body")).to_have_attribute("data-page", "play", timeout=WAIT)
            await expect(frame.locator(".players .to-act")).to_contain_text("kim", timeout=WAIT)
            await expect(frame.locator("#error")).to_be_hidden()


async def test_a_sign_in_that_cannot_reach_the_board_says_what_to_do(
    stage: Stage, browser: Browser
) -> None:
    """Regression: when the page's sign-in could not be made (the network drops, Discord's
    proxy is down) the frame showed the browser's own words ("Failed to fetch", a failed
    module import's, in English whatever the user reads), or "The server answered 502.",
    where the page has words of its own that say what to do."""
    channel = stage.channels[0]
    for cut in ("**/api/activity/session", "**/activity.js"):
        html = client_page(stage, "cat", "i-cut-off", channel)
        _page, frame = await in_discord(browser, html, cut=cut)
        await expect(frame.locator("#connection")).to_have_text("not signed in", timeout=WAIT)
        await expect(frame.locator("#error")).to_have_text(
            "Signing in with Discord failed; open the board again."
        )


STREAMS = 8  # the live streams the board holds open at once per address (bot.web.Limits)


async def test_the_activity_follows_live_whatever_its_address_holds(
    stage: Stage, browser: Browser
) -> None:
    """Discord's proxy brings many users from one address: with as many pages open from
    that address as it may hold live streams, a user signed in to the Activity follows the
    match at once (their page sends its pass: their own streams), while one more page
    without a sign-in is refused a while (it says why), keeps trying as the refusal says, and
    once a stream is freed follows the match again, a turn played meanwhile shown."""
    channel = stage.channels[6]
    await begin(stage, channel, ("max", "ned"), game="torishogi")
    await stage.posted("The game begins", channel)
    public = stage.emu.find_link(channel, PAGE)
    watchers = [await opened(browser, public) for _ in range(STREAMS)]
    for page in watchers:
        await expect(page.locator("#connection")).to_have_text("live", timeout=WAIT)
    instance = (await stage.slash("max", "play", channel=channel)).activity
    assert instance is not None
    stage.emu.activities.join(instance, stage.user["cat"])
    _page, frame = await in_discord(browser, client_page(stage, "cat", instance, channel))
    await expect(frame.locator("body")).to_have_attribute("data-page", "match", timeout=WAIT)
    await expect(frame.locator("#connection")).to_have_text("live", timeout=WAIT)
    latecomer = await opened(browser, public)
    refused = latecomer.locator("#connection")
    await expect(refused).to_contain_text("close one and try again", timeout=WAIT)
    await stage.slash("max", "act", action="e4e5", channel=channel)
    await stage.click("max", "End turn", channel=channel)
    await stage.posted("max (Challenger) ended their turn", channel)
    await expect(frame.locator(".players .to-act")).to_contain_text("ned", timeout=WAIT)
    for page in watchers:
        await page.context.close()
    # tried again once the refusal's Retry-After (10 s) has passed
    await expect(latecomer.locator("#connection")).to_have_text("live", timeout=WAIT + 10_000)
    await expect(latecomer.locator(".players .to-act")).to_contain_text("ned", timeout=WAIT)
