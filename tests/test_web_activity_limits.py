"""The allowances of the Activity's users, who all come from Discord's proxy's few addresses
(it hides theirs): a page signed in to the Activity sends the pass its sign-in gave, and its
reads, actions and live streams are counted against its Discord user's allowances, not
against the address's. A dozen users behind one address each follow and play their match;
one user flooding is refused by their own allowance and holds nobody else back; a pass of
someone's own making, or one expired, counts against the address as a request without one
does, and the address's allowance refuses as before."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest_asyncio
from aiohttp import ClientResponse
from hypothesis import given
from hypothesis import strategies as st
from test_web_activity import Signing, playing, session
from test_web_live import WAIT
from web_world import World

from bot.service import User
from bot.web import Limits
from bot.web.guard import Allowance
from bot.web.passes import HEADER, LIFETIME, Passes
from emulator import Emulator
from rules import Side

C = Side.CHALLENGER
VIEWERS = 10  # besides the two players: a dozen Activity users behind one address


@pytest_asyncio.fixture
async def signing() -> AsyncIterator[Signing]:
    async with Emulator(bot_name="TORA") as emu:
        yield Signing(emu)


def viewers(s: Signing) -> list[str]:
    """``VIEWERS`` more users of the emulator's Discord, each in the Activity's instance."""
    names = [f"viewer{n}" for n in range(VIEWERS)]
    for name in names:
        s.users[name] = User(s.emu.add_user(name), name)
        s.emu.activities.join(s.instance, s.users[name].id)
    return names


async def signed_in(w: World, s: Signing, name: str) -> dict[str, Any]:
    status, seat, _ = await session(w, {"code": s.code(name), "instance": s.instance})
    assert status == 200, seat
    return seat


def sent_by(seat: dict[str, Any]) -> dict[str, str]:
    """The headers the Activity's page sends once signed in: its pass, and a player's token."""
    headers = {HEADER: seat["pass"]}
    if "token" in seat:
        headers["Authorization"] = f"Bearer {seat['token']}"
    return headers


async def opened(w: World, path: str, headers: dict[str, str]) -> ClientResponse:
    """A live stream, open (its first event read)."""
    assert w.client is not None
    answer = await w.client.get(path, headers=headers)
    assert answer.status == 200, await answer.text()
    await asyncio.wait_for(answer.content.readuntil(b"\n\n"), WAIT)
    return answer


async def get(w: World, path: str, headers: dict[str, str]) -> int:
    assert w.client is not None
    async with w.client.get(path, headers=headers) as answer:
        return answer.status


async def test_a_dozen_users_behind_one_address_follow_and_play(
    tmp_path: Path, signing: Signing
) -> None:
    """Twelve Activity users at once through one proxy address, more than its 8 streams
    and its reads: each follows the match live and reads it again and again, and the
    players play; nobody is refused. The address itself still has its own allowance."""
    limits = Limits(reads=Allowance(20, 60.0))
    async with World(tmp_path / "t.sqlite3", discord=signing.api(), limits=limits) as w:
        match = await playing(w, signing)
        names = ["ann", "bob", *viewers(signing)]
        seats = {name: await signed_in(w, signing, name) for name in names}
        streams = []
        for name in names:
            path = "/api/me/events" if "token" in seats[name] else f"/api/m/{match}/events"
            streams.append(await opened(w, path, sent_by(seats[name])))
        for name in names:
            path = "/api/me" if "token" in seats[name] else f"/api/m/{match}"
            assert [await get(w, path, sent_by(seats[name])) for _ in range(5)] == [200] * 5
        ann = sent_by(seats["ann"])
        notation = await w.first_action(match, C)
        for verb, body in (("act", {"stamp": 1, "notation": notation}), ("end", {"stamp": 1})):
            assert w.client is not None
            async with w.client.post(f"/api/me/{verb}", json=body, headers=ann) as answer:
                assert answer.status == 200, await answer.text()
        assert await get(w, f"/api/m/{match}", {}) == 200  # the address's own is untouched
        for answer in streams:
            answer.close()


async def test_a_user_flooding_is_held_back_by_their_own_allowance(
    tmp_path: Path, signing: Signing
) -> None:
    """Reads, actions and live streams alike: what one user spends is theirs alone."""
    limits = Limits(reads=Allowance(3, 60.0), actions=Allowance(2, 60.0), streams=1)
    async with World(tmp_path / "t.sqlite3", discord=signing.api(), limits=limits) as w:
        assert w.client is not None
        match = await playing(w, signing)
        ann, bob, cat = [await signed_in(w, signing, name) for name in ("ann", "bob", "cat")]
        public = f"/api/m/{match}"
        assert [await get(w, public, sent_by(cat)) for _ in range(4)] == [200, 200, 200, 429]
        assert await get(w, public, sent_by(ann)) == 200  # another user's reads
        assert await get(w, public, {}) == 200  # and the address's
        undone = []
        for seat in (ann, ann, ann, bob):  # nothing to undo: refused, but counted
            async with w.client.post(
                "/api/me/undo", json={"stamp": 1}, headers=sent_by(seat)
            ) as got:
                undone.append(got.status)
        assert undone == [409, 409, 429, 409]
        watching = await opened(w, f"{public}/events", sent_by(bob))
        async with w.client.get(f"{public}/events", headers=sent_by(bob)) as refused:
            assert refused.status == 429 and "live board" in (await refused.json())["error"]
        others = [
            await opened(w, f"{public}/events", sent_by(ann)),  # her own stream's place
            await opened(w, f"{public}/events", {}),  # and the address's
        ]
        for answer in (watching, *others):
            answer.close()


async def test_a_user_refused_a_stream_is_told_it_is_theirs_not_their_addresss(
    tmp_path: Path, signing: Signing
) -> None:
    """Regression: an Activity's user refused one live stream too many was told boards are
    followed at once "from one address", though theirs are counted per Discord user (and
    their address is Discord's proxy's); a page without a pass is still told the address's."""
    async with World(tmp_path / "t.sqlite3", discord=signing.api(), limits=Limits(streams=1)) as w:
        assert w.client is not None
        match = await playing(w, signing)
        cat = await signed_in(w, signing, "cat")
        public = f"/api/m/{match}/events"
        said = []
        for headers in (sent_by(cat), {}):
            first = await opened(w, public, headers)
            async with w.client.get(public, headers=headers) as refused:
                assert refused.status == 429
                said.append((await refused.json())["error"])
            first.close()
        assert "by one Discord user" in said[0] and "address" not in said[0]
        assert "from one address" in said[1]


async def test_a_pass_that_does_not_hold_counts_against_the_address(
    tmp_path: Path, signing: Signing
) -> None:
    """A pass of one's own making, one signed with another key, one expired: each is as
    none, and the address's allowance (3 reads here) refuses the fourth read; a good
    pass from the same address is still counted against its own user."""
    limits = Limits(reads=Allowance(3, 60.0), streams=1)
    secret = signing.emu.activities.client_secret
    cat = signing.users["cat"].id
    async with World(tmp_path / "t.sqlite3", discord=signing.api(), limits=limits) as w:
        match = await playing(w, signing)
        good = await signed_in(w, signing, "cat")
        forged = [
            "made-up",
            Passes("not-the-applications-secret").issue(cat),
            Passes(secret, now=lambda: time.time() - LIFETIME - 60).issue(cat),
            good["pass"][:-2],
        ]
        public = f"/api/m/{match}"
        statuses = [await get(w, public, {HEADER: text}) for text in forged]
        assert statuses == [200, 200, 200, 429]
        assert await get(w, public, {}) == 429
        assert await get(w, public, sent_by(good)) == 200
        watching = await opened(w, f"{public}/events", sent_by(good))
        assert w.client is not None
        async with w.client.get(f"{public}/events", headers={HEADER: forged[2]}) as refused:
            assert refused.status == 429  # the address's reads are spent
        watching.close()


async def test_a_pass_gives_no_seat(tmp_path: Path, signing: Signing) -> None:
    """A pass says whose allowance a request spends, never what it may do: a user who
    plays no part, sending theirs alone or with Discord's access token as a board token,
    is refused the player's routes as anyone without a link."""
    async with World(tmp_path / "t.sqlite3", discord=signing.api()) as w:
        await playing(w, signing)
        cat = await signed_in(w, signing, "cat")
        assert "token" not in cat
        for headers in (
            sent_by(cat),
            sent_by(cat) | {"Authorization": f"Bearer {cat['access_token']}"},
            sent_by(cat) | {"Authorization": f"Bearer {cat['pass']}"},
        ):
            assert await get(w, "/api/me", headers) == 401


async def renewed(w: World, seat: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """What the page's renewal of its pass is answered (``/api/activity/pass``)."""
    assert w.client is not None
    async with w.client.post("/api/activity/pass", headers={HEADER: seat["pass"]}) as answer:
        return answer.status, await answer.json()


async def test_an_activity_left_open_past_a_day_stays_counted_as_its_users(
    tmp_path: Path, signing: Signing
) -> None:
    """Regression: a pass was good for a day and nothing renewed it while the page stayed
    open, so two users keeping the board open for a day (a correspondence match) were then
    counted as Discord's proxy's one address: its live streams (1 here, 8 by default) went
    to the first page that reconnected and the other was refused "from one address". The
    page now renews its pass while it holds, and its stream reconnects with the fresh one."""
    async with World(tmp_path / "t.sqlite3", discord=signing.api(), limits=Limits(streams=1)) as w:
        match = await playing(w, signing)
        ann, cat = await signed_in(w, signing, "ann"), await signed_in(w, signing, "cat")
        passes = w.web.site.passes
        assert passes is not None
        passes._now = lambda: time.time() + LIFETIME - 3 * 3600  # the pages renew in time
        for seat in (ann, cat):
            status, answer = await renewed(w, seat)
            assert status == 200, answer
            seat["pass"] = answer["pass"]
        passes._now = lambda: time.time() + LIFETIME + 60  # a day later, the pages still open
        first = await opened(w, "/api/me/events", sent_by(ann))  # her stream reconnects
        try:
            assert await get(w, f"/api/m/{match}/events", sent_by(cat)) == 200
        finally:
            first.close()


async def test_a_pass_expired_is_not_renewed(tmp_path: Path, signing: Signing) -> None:
    """Renewing asks for a pass that holds: one expired, or of someone's own making, is
    refused with what to do (sign in again), and gives no pass."""
    async with World(tmp_path / "t.sqlite3", discord=signing.api()) as w:
        await playing(w, signing)
        ann = await signed_in(w, signing, "ann")
        passes = w.web.site.passes
        assert passes is not None
        passes._now = lambda: time.time() + LIFETIME + 60
        for seat in (ann, {"pass": "made-up"}):
            status, answer = await renewed(w, seat)
            assert status == 401 and "open it again" in answer["error"], answer
            assert "pass" not in answer


SHELL_FILES = [
    "/",
    "/static/board.css",
    "/static/board.js",
    "/static/cells.js",
    "/static/forms.js",
    "/static/live.js",
    "/static/plan.js",
    "/static/words.js",
    "/static/activity.js",
    "/static/discord-sdk.js",
]


async def test_a_channel_of_users_opening_the_activity_together_all_get_its_page(
    tmp_path: Path, signing: Signing
) -> None:
    """Regression: everything the Activity loads before its sign-in (its shell and its nine
    files) was counted against Discord's proxy's one address's reads, 120 at once: the
    thirteenth user of a channel opening the board together (or anywhere, within the same
    few seconds) had board.js refused with a 429 and saw a frame whose script never ran: no
    sign-in, no error, nothing to do. The fixed files now have an allowance of their own."""
    async with World(tmp_path / "t.sqlite3", discord=signing.api()) as w:
        await playing(w, signing)
        refused = []
        for user in range(16):
            for path in SHELL_FILES:
                status = await get(w, path, {})
                if status != 200:
                    refused.append((user, path, status))
        assert refused == []


async def test_the_fixed_files_have_their_own_allowance(tmp_path: Path, signing: Signing) -> None:
    """The pages' fixed files are bounded apart from the reads: a flood of them is refused
    once their allowance (3 here) is spent, and the address's reads are left whole."""
    async with World(
        tmp_path / "t.sqlite3", discord=signing.api(), limits=Limits(files=Allowance(3, 60.0))
    ) as w:
        match = await playing(w, signing)
        assert [await get(w, path, {}) for path in SHELL_FILES[:4]] == [200, 200, 200, 429]
        assert await get(w, f"/api/m/{match}", {}) == 200


@given(st.text(max_size=200) | st.from_regex(r"[A-Za-z0-9_-]{1,140}", fullmatch=True))
def test_any_pass_header_is_a_user_or_none(text: str) -> None:
    """Whatever a request sends as its pass, reading it gives a user or none, never an
    error (a 500 would refuse a request the address's allowance lets through)."""
    assert Passes("s" * 32).user_of(text) is None


def test_a_pass_stands_for_its_user_until_it_expires() -> None:
    now = [1_800_000_000.0]
    passes = Passes("s" * 32, now=lambda: now[0])
    made = passes.issue(123456789012345678)
    assert passes.user_of(made) == 123456789012345678
    now[0] += LIFETIME - 1
    assert passes.user_of(made) == 123456789012345678
    now[0] += 1
    assert passes.user_of(made) is None
