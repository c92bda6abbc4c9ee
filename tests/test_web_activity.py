"""The Activity's sign-in API (``POST /api/activity/session``) and page, against the Discord
emulator's OAuth2 and Activity instances: every hostile body refused with words saying what
is wanted, before Discord is asked; sign-ins rate limited, per address and per Discord user;
a code Discord does not vouch for (or for credentials it refuses: the log says what to set),
or Discord out of reach, refused as such; the page framed by Discord only while every other
page stays unframeable; a player's seat is their private link's; and twin worlds that differ
in a hidden Assassin look byte for byte the same to a signed-in user who plays no part,
whatever they send; once the match has ended its players watch it too; a channel without a
board says what to do; any JSON body gives a code and an instance of Discord's characters or a
400."""

from __future__ import annotations

import logging
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from aiohttp.test_utils import TestClient, TestServer
from hypothesis import given
from hypothesis import strategies as st
from test_web_bodies import JSON
from test_web_live import ANN_STARTS, ANN_WALKS, TWIN_TERMS
from web_world import HERE, World

from bot.service import User
from bot.web import Limits, WebBoard
from bot.web.activity import CODE, INSTANCE, sign_in_of
from bot.web.discord_api import DiscordApi
from bot.web.forwarded import Proxies
from bot.web.guard import Allowance, Refusal
from bot.web.passes import HEADER
from emulator import Emulator
from rules import Side

C, O = Side.CHALLENGER, Side.OPPOSITION
DOCS = Path(__file__).resolve().parent.parent / "docs"


class Signing:
    """The emulator's Discord (users ann, bob and cat; an Activity instance in ``HERE``'s
    channel that all three joined) and the API the web board asks it through."""

    def __init__(self, emu: Emulator) -> None:
        self.emu = emu
        self.users = {name: User(emu.add_user(name), name) for name in ("ann", "bob", "cat")}
        world = emu.world
        instance = emu.activities.launch(
            world.ids.next(), HERE.channel_id, HERE.guild_id, self.users["ann"].id
        )
        for name in ("bob", "cat"):
            emu.activities.join(instance.id, self.users[name].id)
        self.instance = instance.id

    def api(self, base: str | None = None) -> DiscordApi:
        emu = self.emu
        secret = emu.activities.client_secret
        return DiscordApi(base or emu.api_base, emu.world.bot.id, secret, emu.token)

    def code(self, name: str) -> str:
        return self.emu.activities.authorize(self.users[name].id)


@pytest_asyncio.fixture
async def signing() -> AsyncIterator[Signing]:
    async with Emulator(bot_name="TORA") as emu:
        yield Signing(emu)


async def session(w: World, body: Any = None, raw: bytes | None = None) -> tuple[int, Any, Any]:
    assert w.client is not None
    headers = {"Content-Type": "application/json"}
    async with w.client.post(
        "/api/activity/session", json=None if raw is not None else body, data=raw, headers=headers
    ) as answer:
        return answer.status, await answer.json(), answer.headers


async def playing(w: World, s: Signing, ann_start: str | None = None) -> int:
    """ann and bob's match in the Activity's channel (a long board with Assassins, ann's
    starting on ``ann_start``), under way."""
    ann, bob = s.users["ann"], s.users["bob"]
    service = w.service
    reply = await service.challenge(HERE, ann, bob, TWIN_TERMS)
    await service.accept(HERE, bob)
    start = ann_start or ANN_STARTS[0]
    await service.setup(HERE, ann, {"strategy": "aggressive", "ruler": "Q", "assassin": start})
    await service.setup(HERE, bob, {"strategy": "defensive", "ruler": "K", "assassin": "v17h1"})
    assert reply.stamp is not None
    return reply.stamp.match


HOSTILE: list[tuple[Any, bytes | None, int, str]] = [
    (None, b"not json", 400, "not JSON"),
    (None, b"[1, 2]", 400, "JSON object"),
    ({}, None, 400, "'code' is text of at most 100"),
    ({"code": 7, "instance": "i-1"}, None, 400, "'code' is text"),
    ({"code": "a" * 101, "instance": "i-1"}, None, 400, "at most 100"),
    ({"code": "abc"}, None, 400, "'instance' is text"),
    ({"code": "a b", "instance": "i-1"}, None, 400, "authorization code"),
    ({"code": "", "instance": "i-1"}, None, 400, "authorization code"),
    ({"code": "abc", "instance": "i/../1"}, None, 400, "instance id"),
    ({"code": "abc", "instance": "i\n1"}, None, 400, "instance id"),
    ({"code": "abc", "instance": ".."}, None, 400, "instance id"),
    ({"code": "abc", "instance": ["i"]}, None, 400, "'instance' is text"),
    (None, b'{"code": "' + b"a" * 5000 + b'"}', 413, "over 4096 bytes"),
]


@pytest.mark.parametrize(("body", "raw", "status", "words"), HOSTILE)
async def test_hostile_bodies_are_refused_before_discord_is_asked(
    tmp_path: Path, signing: Signing, body: Any, raw: bytes | None, status: int, words: str
) -> None:
    async with World(tmp_path / "t.sqlite3", discord=signing.api()) as w:
        asked = len(signing.emu.requests)
        got, answer, _ = await session(w, body, raw)
        assert (got, words in answer["error"]) == (status, True), answer
        assert len(signing.emu.requests) == asked


async def test_a_code_discord_does_not_vouch_for_is_refused(
    tmp_path: Path, signing: Signing
) -> None:
    async with World(tmp_path / "t.sqlite3", discord=signing.api()) as w:
        await playing(w, signing)
        status, answer, _ = await session(w, {"code": "made-up", "instance": signing.instance})
        assert status == 401 and "did not accept this sign-in" in answer["error"]
        code = signing.code("ann")
        body = {"code": code, "instance": signing.instance}
        assert (await session(w, body))[0] == 200
        status, answer, _ = await session(w, body)  # a code is good once
        assert status == 401 and "open it again" in answer["error"]
        body = {"code": signing.code("ann"), "instance": "i-9-gc-1-100"}
        status, answer, _ = await session(w, body)
        assert status == 404 and "does not know this Activity" in answer["error"]
        signing.emu.activities.code_seconds = 0.0  # as a code left unused for ten minutes
        body = {"code": signing.code("ann"), "instance": signing.instance}
        status, answer, _ = await session(w, body)
        assert status == 401 and "open it again" in answer["error"]


async def test_credentials_discord_refuses_are_the_operators_to_fix(
    tmp_path: Path, signing: Signing, caplog: pytest.LogCaptureFixture
) -> None:
    """A wrong TORA_CLIENT_SECRET: the user is refused, the log says what to set."""
    emu = signing.emu
    wrong = DiscordApi(emu.api_base, emu.world.bot.id, "not-the-portals-secret", emu.token)
    async with World(tmp_path / "t.sqlite3", discord=wrong) as w:
        await playing(w, signing)
        status, answer, _ = await session(
            w, {"code": signing.code("ann"), "instance": signing.instance}
        )
        assert status == 401 and "did not accept this sign-in" in answer["error"]
    said = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert any("TORA_CLIENT_ID and TORA_CLIENT_SECRET" in line for line in said), said


async def test_discord_out_of_reach_is_said_so(tmp_path: Path, signing: Signing) -> None:
    nowhere = signing.api("http://127.0.0.1:9/api/v10")  # the discard port: nobody listens
    async with World(tmp_path / "t.sqlite3", discord=nowhere) as w:
        status, answer, _ = await session(w, {"code": "abc", "instance": signing.instance})
        assert status == 502 and "could not be reached" in answer["error"]


async def test_sign_ins_stop_asking_discord_while_it_says_to_wait() -> None:
    """Discord answers a flood of sign-ins with 429 and a Retry-After; every 429 (and 401,
    403) counts towards Cloudflare's invalid-request limit (10,000 in 10 minutes), past
    which the bot's address is banned from Discord's API for an hour: the whole bot, not
    just the board. The sign-in asked again at the next request all the same, every one of
    them: a hostile page could turn the Activity into a stream of 429s. Told to wait, it
    waits, refusing sign-ins without asking until then, and says for how long."""
    from aiohttp import web

    asked: list[str] = []

    async def token(request: web.Request) -> web.Response:
        asked.append(request.path)
        return web.json_response(
            {"message": "You are being rate limited.", "retry_after": 60.0, "global": False},
            status=429,
            headers={"Retry-After": "60"},
        )

    app = web.Application()
    app.router.add_post("/oauth2/token", token)
    server = TestServer(app)
    await server.start_server()
    try:
        api = DiscordApi(str(server.make_url("")), 1234, "s" * 32, "bot-token")
        for _ in range(5):
            with pytest.raises(Refusal) as refused:
                await api.identify("code")
            assert refused.value.status == 429
            assert "try again in" in refused.value.message, refused.value.message
            assert 1 <= int(refused.value.headers["Retry-After"]) <= 60
    finally:
        await server.close()
    assert len(asked) == 1, f"Discord was asked {len(asked)} times within its Retry-After"


async def test_a_wait_on_a_later_route_of_the_sign_in_keeps_the_code_unspent() -> None:
    """A sign-in asks Discord three things in turn: the code's token, the user, the
    Activity instance. Told to wait on the user's (or the instance's) route, the next
    sign-in still exchanged its one-time code for a token first, then was refused for the
    wait: the code spent for nothing (the user must reopen the board), and a request more
    for Discord to count. Every route the sign-in needs is checked before the first."""
    from aiohttp import web

    asked: list[str] = []
    waiting = {"/users/@me"}  # the routes answering 429

    async def answer(request: web.Request) -> web.Response:
        asked.append(request.path)
        if request.path in waiting:
            return web.json_response(
                {"message": "You are being rate limited.", "retry_after": 60.0},
                status=429,
                headers={"Retry-After": "60"},
            )
        if request.path == "/users/@me":
            return web.json_response({"id": "42"})
        return web.json_response({"access_token": "t" * 30, "scope": "identify"})

    app = web.Application()
    app.router.add_post("/oauth2/token", answer)
    app.router.add_get("/users/@me", answer)
    app.router.add_get("/applications/1234/activity-instances/i-1", answer)
    server = TestServer(app)
    await server.start_server()
    try:
        for route in ("/users/@me", "/applications/1234/activity-instances/i-1"):
            waiting, asked[:] = {route}, []
            api = DiscordApi(str(server.make_url("")), 1234, "s" * 32, "bot-token")
            for _ in range(3):  # a sign-in, as the Activity's session makes it
                with pytest.raises(Refusal) as refused:
                    await api.identify("code")
                    await api.instance("i-1")
                assert refused.value.status == 429, refused.value.message
            assert asked.count("/oauth2/token") == 1, f"codes spent within the wait: {asked}"
    finally:
        await server.close()


async def test_sign_ins_are_rate_limited(tmp_path: Path, signing: Signing) -> None:
    limits = Limits(sign_ins=Allowance(2, 60.0))
    async with World(tmp_path / "t.sqlite3", discord=signing.api(), limits=limits) as w:
        for _ in range(2):
            assert (await session(w, {"code": "abc", "instance": "i-1"}))[0] == 401
        status, answer, headers = await session(w, {"code": "abc", "instance": "i-1"})
        # every Activity user shares the proxy's address: not one user's haste, the board's load
        assert status == 429 and "busy" in answer["error"]
        assert "close the Activity and open it again" in answer["error"]
        assert int(headers["Retry-After"]) >= 1


async def test_users_behind_one_address_sign_in_together(tmp_path: Path, signing: Signing) -> None:
    """Discord's proxy hides its users' addresses: a channel's worth of users opening the
    Activity at once come from one address, and none is held back for the others."""
    async with World(tmp_path / "t.sqlite3", discord=signing.api()) as w:
        await playing(w, signing)
        for name in ("ann", "bob", "cat") * 3:
            body = {"code": signing.code(name), "instance": signing.instance}
            status, answer, _ = await session(w, body)
            assert status == 200, answer


async def test_a_busy_hours_users_behind_one_address_all_sign_in(
    tmp_path: Path, signing: Signing
) -> None:
    """Regression: every Activity user reaches the board from Discord's proxy's address, so
    the per-address sign-in allowance (30 at once, then one per 2 s) was the whole
    deployment's: 45 different users each opening the board once within 15 seconds (a
    tournament round starting across a few servers) saw 8 of them refused "signing in faster
    than Discord allows", though none signed in twice. The address's allowance now bounds a
    flood only; each user's own (``sessions``) still holds."""
    now = [1000.0]
    limits = Limits(clock=lambda: now[0])
    async with World(tmp_path / "t.sqlite3", discord=signing.api(), limits=limits) as w:
        await playing(w, signing)
        names = [f"user{n}" for n in range(45)]
        for name in names:
            signing.users[name] = User(signing.emu.add_user(name), name)
            signing.emu.activities.join(signing.instance, signing.users[name].id)
        refused = []
        for n, name in enumerate(names):
            now[0] = 1000.0 + n / 3  # three a second
            status, answer, _ = await session(
                w, {"code": signing.code(name), "instance": signing.instance}
            )
            if status != 200:
                refused.append((name, status, answer.get("error")))
        assert refused == []


def test_the_sign_in_allowances_web_md_states_are_the_enforced_ones() -> None:
    """Regression: docs/WEB.md ("In Discord", Refusals) still told an admin the sign-ins
    per client address were limited to 30 at once, then one per 2 s, after the board had
    raised them to 300 at once, then one per 0.2 s (``Limits.sign_ins``): an admin sizing a
    deployment, or reading why a crowd was refused, read a limit ten times lower than the
    real one. Both stated allowances (per Discord user, per client address) are the
    enforced ones."""
    text = " ".join((DOCS / "WEB.md").read_text(encoding="utf-8").split())
    said = re.search(
        r"Sign-ins are limited to (\d+) at once, then one per ([\d.]+) s, per Discord user"
        r".*? and to (\d+) at once, then one per ([\d.]+) s, per client address",
        text,
    )
    assert said is not None, "WEB.md no longer states the sign-in allowances"
    per_user, per_address = Limits().sessions, Limits().sign_ins
    assert (int(said[1]), float(said[2])) == (per_user.burst, per_user.every)
    assert (int(said[3]), float(said[4])) == (per_address.burst, per_address.every)


async def test_one_discord_user_signs_in_at_the_users_pace_from_any_address(
    tmp_path: Path, signing: Signing
) -> None:
    """Each sign-in asks Discord three times: a user's sign-ins are limited whatever
    address they come from (behind a trusted proxy, each client is an address of its
    own), and another user's are not held back by theirs."""
    async with World(tmp_path / "t.sqlite3", discord=signing.api()) as w:
        await playing(w, signing)
        limits = Limits(sessions=Allowance(2, 60.0))
        board = WebBoard(
            w.service,
            w.links,
            "127.0.0.1",
            0,
            limits=limits,
            proxies=Proxies.of(["127.0.0.1"]),
            discord=signing.api(),
        )
        async with TestClient(TestServer(board.application())) as client:
            said = []
            for at, name in enumerate(("ann", "ann", "ann", "cat")):
                body = {"code": signing.code(name), "instance": signing.instance}
                headers = {"X-Forwarded-For": f"203.0.113.{at + 1}"}
                async with client.post("/api/activity/session", json=body, headers=headers) as got:
                    said.append((got.status, (await got.json()).get("error", "")))
    assert [status for status, _ in said] == [200, 200, 429, 200]
    assert "signing in to the board" in said[2][1]


async def test_the_page_is_framed_by_discord_alone(tmp_path: Path, signing: Signing) -> None:
    async with World(tmp_path / "t.sqlite3", discord=signing.api()) as w:
        assert w.client is not None
        client = signing.emu.world.bot.id
        for path in ("/", "/activity"):  # the root mapping's, and the explicit one
            async with w.client.get(f"{path}?frame_id=f&instance_id=i&platform=desktop") as page:
                policy = page.headers["Content-Security-Policy"]
                html = await page.text()
                assert page.status == 200 and "X-Frame-Options" not in page.headers
        ancestors = policy.split("frame-ancestors ")[1].split(";")[0].split()
        assert ancestors == [
            "https://discord.com",
            "https://ptb.discord.com",
            "https://canary.discord.com",
            f"https://{client}.discordsays.com",
        ]
        assert "script-src 'self';" in policy and "connect-src 'self';" in policy
        assert f'data-page="activity" data-client="{client}"' in html
        async with w.client.get("/play") as page:
            assert "frame-ancestors 'none'" in page.headers["Content-Security-Policy"]
            assert page.headers["X-Frame-Options"] == "DENY"


async def test_without_the_activity_there_is_no_page_nor_sign_in(tmp_path: Path) -> None:
    async with World(tmp_path / "t.sqlite3") as w:
        assert w.client is not None
        async with w.client.get("/") as page:  # the front page, not the Activity's
            assert page.status == 200 and b'data-page="home"' in await page.read()
        async with w.client.get("/activity") as page:
            assert page.status == 404
        assert (await session(w, {"code": "abc", "instance": "i-1"}))[0] == 404


async def test_a_player_gets_the_seat_of_their_private_link(
    tmp_path: Path, signing: Signing
) -> None:
    async with World(tmp_path / "t.sqlite3", discord=signing.api()) as w:
        match = await playing(w, signing)
        for name, side in (("ann", C), ("bob", O)):
            body = {"code": signing.code(name), "instance": signing.instance}
            status, seat, _ = await session(w, body)
            assert status == 200, seat
            assert seat["match"] == match and seat["side"] == side.name.lower()
            assert seat["token"] == await w.token(match, side)


# ---- twin worlds -------------------------------------------------------------------------------
async def seen_by_cat(w: World, s: Signing, match: int) -> list[Any]:
    """Everything cat, signed in to the Activity, gets: his seat (but the access token
    Discord gave, which differs every time, and the pass, which says until when) and every
    answer to what he may send with his pass, as his page does, a token of his own making
    and Discord's access token as a board token among it."""
    assert w.client is not None
    status, seat, _ = await session(w, {"code": s.code("cat"), "instance": s.instance})
    access = seat.pop("access_token")
    sent = {HEADER: seat.pop("pass")}
    seen: list[Any] = [status, seat]
    for path, token in (
        (f"/api/m/{match}", None),
        (f"/api/m/{match}/board.png", None),
        (f"/api/m/{match}/record", None),
        ("/api/me", access),
        ("/api/me", "made-up"),
        ("/api/me/board.png", access),
        ("/api/me/warnings?group=X", access),
        ("/api/me/events", access),
    ):
        headers = sent if token is None else sent | {"Authorization": f"Bearer {token}"}
        async with w.client.get(path, headers=headers) as answer:
            seen.append((path, answer.status, await answer.read()))
    for verb, body in SENT_BY_CAT:
        status, answer, headers = await w.post(verb, access, body)
        seen.append((status, answer, undated(headers)))
    return seen


# Whatever a page could send: an action of ann's hidden Assassin, the turn's end, a plan,
# the answer to a proposal, a resignation.
SENT_BY_CAT: list[tuple[str, dict[str, Any]]] = [
    ("act", {"stamp": 1, "notation": "X v3h17-v4h16"}),
    ("end", {"stamp": 1}),
    ("plan", {"stamp": 1, "step": "new"}),
    ("answer", {"stamp": 1, "kind": "draw", "yes": True}),
    ("resign", {"stamp": 1}),
]


def undated(headers: dict[str, str]) -> dict[str, str]:
    """The headers but `Date`, the clock's second, which two worlds' answers need not share."""
    return {name: value for name, value in headers.items() if name.lower() != "date"}


async def test_twin_worlds_look_the_same_to_who_plays_no_part(
    tmp_path: Path, signing: Signing
) -> None:
    async with (
        World(tmp_path / "a.sqlite3", discord=signing.api()) as a,
        World(tmp_path / "b.sqlite3", discord=signing.api()) as b,
    ):
        worlds = (a, b)
        matches = [
            await playing(world, signing, at) for world, at in zip(worlds, ANN_STARTS, strict=True)
        ]
        first = [await seen_by_cat(w, signing, m) for w, m in zip(worlds, matches, strict=True)]
        assert first[0] == first[1]
        assert first[0][1] == {"match": matches[0]}  # no seat: the public view only
        public_action = await a.first_action(matches[0], C)
        for world, match, start in zip(worlds, matches, ANN_STARTS, strict=True):
            token = await world.token(match, C)
            for notation in (ANN_WALKS[start], public_action):
                status, body, _ = await world.post("act", token, {"stamp": 1, "notation": notation})
                assert status == 200, body
            assert (await world.post("end", token, {"stamp": 1}))[0] == 200
        then = [await seen_by_cat(w, signing, m) for w, m in zip(worlds, matches, strict=True)]
        assert then[0] == then[1]
        assert then[0] != first[0]  # the turn's end is public


@given(st.dictionaries(st.sampled_from(["code", "instance", "other"]), JSON, max_size=3))
def test_any_sign_in_body_gives_discords_characters_or_a_400(body: dict[str, Any]) -> None:
    try:
        code, instance = sign_in_of(body)
    except Refusal as refusal:
        assert refusal.status == 400 and refusal.message
    else:
        assert CODE.fullmatch(code) and INSTANCE.fullmatch(instance)


async def test_once_the_match_has_ended_its_players_watch_it_too(
    tmp_path: Path, signing: Signing
) -> None:
    async with World(tmp_path / "t.sqlite3", discord=signing.api()) as w:
        match = await playing(w, signing)
        status, body, _ = await w.post("resign", await w.token(match, C), {"stamp": 1})
        assert status == 200, body
        status, seat, _ = await session(
            w, {"code": signing.code("ann"), "instance": signing.instance}
        )
        assert status == 200 and seat["match"] == match
        assert "token" not in seat  # her link ended with the match: its page stays


async def test_a_channel_without_a_board_says_what_to_do(tmp_path: Path, signing: Signing) -> None:
    async with World(tmp_path / "t.sqlite3", discord=signing.api()) as w:
        body = {"code": signing.code("ann"), "instance": signing.instance}
        status, answer, _ = await session(w, body)
        assert status == 404 and "/tora challenge" in answer["error"]
        await w.service.challenge(HERE, signing.users["ann"], signing.users["bob"], TWIN_TERMS)
        body = {"code": signing.code("bob"), "instance": signing.instance}
        status, answer, _ = await session(w, body)
        assert status == 404 and "once the challenge is accepted" in answer["error"]


async def test_a_refusal_in_the_frame_has_no_discord_markdown(
    tmp_path: Path, signing: Signing
) -> None:
    """Regression: the refusals the frame shows came with Discord's markdown, raw: a
    channel without a board said to challenge someone with "`/tora challenge`", its
    backticks shown as they are on the page."""
    async with World(tmp_path / "t.sqlite3", discord=signing.api()) as w:
        body = {"code": signing.code("ann"), "instance": signing.instance}
        status, answer, _ = await session(w, body)
        assert status == 404 and "/tora challenge" in answer["error"]
        assert "`" not in answer["error"] and "**" not in answer["error"]


async def test_a_signed_in_users_refusals_are_in_their_language(
    tmp_path: Path, signing: Signing
) -> None:
    async with World(tmp_path / "t.sqlite3", discord=signing.api()) as w:
        await w.service.records.choose_player_language(signing.users["ann"], "de")
        body = {"code": signing.code("ann"), "instance": signing.instance}
        status, answer, _ = await session(w, body)
        assert status == 404 and answer["error"].startswith("In diesem Kanal gibt es noch keine")
        assert " /tora " in answer["error"]  # the command as her Discord names it, plain
        body = {"code": signing.code("bob"), "instance": signing.instance}
        status, answer, _ = await session(w, body)
        assert status == 404 and answer["error"].startswith("There is no match in this channel")


async def test_the_missing_pages_link_opens_the_front_page_with_the_activity_too(
    tmp_path: Path, signing: Signing
) -> None:
    """Regression: a mistyped address's page links "What this site is" to ``/``, which, with
    the Activity on, was the Activity's page opened outside Discord: no word of what the
    site is, only that the board opens inside Discord. ``/`` without Discord's query
    (``frame_id``, which the Activity cannot do without) is the front page; with it, still
    the Activity."""
    async with World(tmp_path / "t.sqlite3", discord=signing.api()) as w:
        assert w.client is not None
        async with w.client.get("/nowhere", headers={"Accept": "text/html"}) as page:
            assert page.status == 404 and 'href="/"' in await page.text()
        async with w.client.get("/", headers={"Accept": "text/html"}) as page:
            assert page.status == 200 and b'data-page="home"' in await page.read()
        async with w.client.get("/?frame_id=f&instance_id=i&platform=desktop") as page:
            assert b'data-page="activity"' in await page.read()
