"""End to end through the emulator, the web board served by the bot: a turn played on the
web is a turn like any other (the channel's turn post, the opponent's "your turn" DM, the
Discord buttons of the finished turn disabled, the opponent's open page told at once), and a
turn ended in Discord reaches an open match page."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import aiohttp

from bot.service.links import BOARD
from harness.stage import Stage
from rules import Side

WAIT = 10.0


async def started(stage: Stage) -> int:
    await stage.slash("ann", "challenge", opponent="bob", board="short")
    await stage.click("bob", "Accept")
    await stage.slash("ann", "setup", strategy="aggressive")
    await stage.slash("bob", "setup", strategy="defensive")
    await stage.posted("The game begins")
    await stage.quiet()
    assert stage.bot is not None
    hosted = await stage.bot.service.records.live_in_channel(stage.channel)
    assert hosted is not None
    return hosted.id


def token_in_dm(stage: Stage, name: str) -> str:
    """The private link's token from the player's newest "Open the board" button."""
    url = stage.emu.find_link(stage.emu.dm_channel(stage.user[name]), BOARD)
    return url.partition("#")[2]


async def next_version(answer: aiohttp.ClientResponse) -> str:
    while True:
        chunk = await asyncio.wait_for(answer.content.readuntil(b"\n\n"), WAIT)
        if chunk.startswith(b"event: state"):
            return json.loads(chunk.split(b"data: ", 1)[1])["version"]


async def test_a_turn_played_on_the_web_is_a_turn_like_any_other(tmp_path: Path) -> None:
    async with Stage(tmp_path) as stage, aiohttp.ClientSession(stage.web_url) as web:
        match = await started(stage)
        ann, bob = token_in_dm(stage, "ann"), await stage.bot.links.link_for(match, Side.OPPOSITION)
        prompt = await stage.emu.wait_for_dm(
            stage.user["ann"], lambda m: "Your turn against" in m.text(), WAIT
        )
        mine = {"Authorization": f"Bearer {ann}"}
        async with web.get("/api/me/events", headers={"Authorization": f"Bearer {bob}"}) as his:
            first = await next_version(his)
            async with web.get("/api/me", headers=mine) as answer:
                state = await answer.json()
            notation = state["choices"][0]["actions"][0]["notation"]
            body = {"stamp": state["turn"], "notation": notation}
            async with web.post("/api/me/act", json=body, headers=mine) as answer:
                assert answer.status == 200, await answer.text()
            async with web.post("/api/me/end", json={"stamp": 1}, headers=mine) as answer:
                assert answer.status == 200 and (await answer.json())["turn"] == 2
            assert await next_version(his) != first
        post = await stage.posted("ann (Challenger) ended their turn")
        assert notation.split()[-1] in post
        await stage.emu.wait_for_dm(
            stage.user["bob"], lambda m: "Your turn against" in m.text(), WAIT
        )
        await stage.emu.wait_until(
            lambda: all(b.get("disabled") for b in prompt.buttons() if "custom_id" in b) or None,
            WAIT,
            "ann's turn prompt disabled once her turn was played on the web",
        )


async def test_a_turn_ended_in_discord_reaches_the_open_match_page(tmp_path: Path) -> None:
    async with Stage(tmp_path) as stage, aiohttp.ClientSession(stage.web_url) as web:
        match = await started(stage)
        async with web.get(f"/api/m/{match}/events") as page:
            first = await next_version(page)
            await stage.open_panel("ann")
            await stage.slash("ann", "end")
            assert await next_version(page) != first
        async with web.get(f"/api/m/{match}") as answer:
            state = await answer.json()
        assert state["turn"] == 2 and state["moves"][0]["words"] == "no action"
