"""The board as a Discord Activity, end to end through the emulator (docs/WEB.md, "In
Discord"): with ``TORA_ACTIVITY=on`` ``/tora play`` and the Play button (of a "your turn"
message) answer with ``LAUNCH_ACTIVITY``, which opens an instance in that channel; the
Activity's sign-in (the code the Discord client gives its SDK, exchanged by the bot's web
server, the user from ``/users/@me``, the channel from the instance) gives the player their
seat and anyone else the match's public view, during the setup too (the players' setup
page); the Entry Point command is registered beside ``/tora``; a launch Discord refuses, a
read of its match that fails (the database away), and a bot without the Activity, give the
Play panel as before."""

from __future__ import annotations

import contextlib
import logging
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.discord.client import point_at, sync_commands
from bot.service.links import BOARD
from emulator import Emulator
from harness.stage import Stage
from rules import Side
from storage import DatabaseUnavailable

LAUNCH_ACTIVITY = 12
WAIT = 10.0


async def started(stage: Stage, channel: int | None = None) -> int:
    where = channel or stage.channel
    await stage.slash("ann", "challenge", opponent="bob", board="short", channel=where)
    await stage.click("bob", "Accept", channel=where)
    await stage.slash("ann", "setup", strategy="aggressive", channel=where)
    await stage.slash("bob", "setup", strategy="defensive", channel=where)
    await stage.posted("The game begins", where)
    await stage.quiet()
    assert stage.bot is not None
    hosted = await stage.bot.service.records.live_in_channel(where)
    assert hosted is not None
    return hosted.id


async def sign_in(
    web: aiohttp.ClientSession, stage: Stage, who: str, instance: str
) -> tuple[int, dict[str, Any]]:
    """What the Activity's page does once Discord's client authorized ``who``."""
    code = stage.emu.activities.authorize(stage.user[who])
    body = {"code": code, "instance": instance}
    async with web.post("/api/activity/session", json=body) as answer:
        return answer.status, await answer.json()


async def test_play_launches_the_activity_and_signs_the_player_in_to_their_seat(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, "bot.discord.panel")
    async with Stage(tmp_path, ("ann", "bob", "cat"), activity=True) as stage:
        match = await started(stage)
        launched = await stage.slash("ann", "play")
        assert launched.callback_type == LAUNCH_ACTIVITY and launched.error is None
        assert launched.messages == []  # no panel, no message: the Activity opens
        instance = launched.activity
        assert instance is not None
        launches = [r for r in caplog.records if r.getMessage() == "Activity launched"]
        assert [getattr(r, "instance", None) for r in launches] == [instance]  # Discord's id
        async with aiohttp.ClientSession(stage.web_url) as web:
            status, seat = await sign_in(web, stage, "ann", instance)
            assert status == 200, seat
            assert seat["match"] == match and seat["side"] == "challenger"
            assert seat["access_token"]  # for the SDK's authenticate
            mine = {"Authorization": f"Bearer {seat['token']}"}
            async with web.get("/api/me", headers=mine) as answer:
                state = await answer.json()
                assert answer.status == 200 and state["match"] == match
            notation = state["choices"][0]["actions"][0]["notation"]
            body = {"stamp": state["turn"], "notation": notation}
            async with web.post("/api/me/act", json=body, headers=mine) as answer:
                assert answer.status == 200, await answer.text()
            async with web.post("/api/me/end", json={"stamp": 1}, headers=mine) as answer:
                assert answer.status == 200 and (await answer.json())["turn"] == 2
        await stage.posted("ann (Challenger) ended their turn")


async def test_play_during_the_setup_launches_the_activity_of_the_setup_page(
    tmp_path: Path,
) -> None:
    async with Stage(tmp_path, ("ann", "bob"), activity=True) as stage:
        await stage.slash("ann", "challenge", opponent="bob", board="short")
        await stage.click("bob", "Accept")
        launched = await stage.slash("bob", "play")
        assert launched.callback_type == LAUNCH_ACTIVITY and launched.activity is not None
        async with aiohttp.ClientSession(stage.web_url) as web:
            status, seat = await sign_in(web, stage, "bob", launched.activity)
            assert status == 200 and seat["side"] == "opposition", seat
            mine = {"Authorization": f"Bearer {seat['token']}"}
            async with web.get("/api/me", headers=mine) as answer:
                state = await answer.json()
            assert state["phase"] == "setup" and state["setup"]
            body = {"stamp": 0, "answers": {"strategy": "defensive"}}
            async with web.post("/api/me/setup", json=body, headers=mine) as answer:
                assert answer.status == 200, await answer.text()
        await stage.posted("bob has finished setting up")


async def test_a_spectator_who_joins_the_activity_watches_the_public_view(
    tmp_path: Path,
) -> None:
    async with Stage(tmp_path, ("ann", "bob", "cat"), activity=True) as stage:
        match = await started(stage)
        instance = (await stage.slash("bob", "play")).activity
        assert instance is not None
        stage.emu.activities.join(instance, stage.user["cat"])
        async with aiohttp.ClientSession(stage.web_url) as web:
            status, seat = await sign_in(web, stage, "cat", instance)
            assert status == 200, seat
            assert seat["match"] == match and "token" not in seat and "side" not in seat
            async with web.get(f"/api/m/{match}") as answer:
                assert answer.status == 200


async def test_the_sign_in_refuses_what_discord_would_not_vouch_for(tmp_path: Path) -> None:
    async with Stage(tmp_path, ("ann", "bob", "cat"), activity=True) as stage:
        await started(stage)
        instance = (await stage.slash("ann", "play")).activity
        assert instance is not None
        async with aiohttp.ClientSession(stage.web_url) as web:
            status, body = await sign_in(web, stage, "cat", instance)  # not in the Activity
            assert status == 403 and "not in this Activity" in body["error"]
            status, body = await sign_in(web, stage, "ann", "i-1-gc-1-1")  # no such instance
            assert status == 404 and "does not know this Activity" in body["error"]
            code = stage.emu.activities.authorize(stage.user["ann"])
            given = {"code": code, "instance": instance}
            said = []
            for expected in (200, 401):  # a code is good once
                async with web.post("/api/activity/session", json=given) as answer:
                    assert answer.status == expected, await answer.text()
                    said.append(await answer.json())
            assert "open it again" in said[1]["error"]
            scoped = stage.emu.activities.authorize(stage.user["ann"], ("guilds",))
            body = {"code": scoped, "instance": instance}
            async with web.post("/api/activity/session", json=body) as answer:
                assert answer.status == 401  # a token that does not say who the user is


async def test_the_entry_point_command_is_registered_with_the_commands(tmp_path: Path) -> None:
    async with Stage(tmp_path, activity=True) as stage:
        commands = stage.emu.commands()
        points = [c for c in commands if c["type"] == 4]
        assert [(c["name"], c["handler"]) for c in points] == [("launch", 2)]
        assert any(c["name"] == "tora" for c in commands)


async def test_play_in_a_dm_launches_the_activity_of_the_one_match_played(
    tmp_path: Path,
) -> None:
    """A challenge ann issued elsewhere, not yet accepted, is no second match."""
    async with Stage(tmp_path, ("ann", "bob", "cat"), channels=2, activity=True) as stage:
        match = await started(stage, stage.channels[0])
        await stage.slash("ann", "challenge", opponent="cat", channel=stage.channels[1])
        dm = stage.emu.dm_channel(stage.user["ann"])
        await stage.emu.wait_for_dm(
            stage.user["ann"], lambda m: "Your turn against" in m.text(), WAIT
        )
        launched = await stage.click("ann", "Play", channel=dm)
        assert launched.callback_type == LAUNCH_ACTIVITY and launched.activity is not None
        async with aiohttp.ClientSession(stage.web_url) as web:
            status, seat = await sign_in(web, stage, "ann", launched.activity)
        assert status == 200 and seat["match"] == match and seat["side"] == "challenger"


async def test_play_in_a_dm_of_one_of_several_matches_opens_the_panel(tmp_path: Path) -> None:
    """A DM does not say which match an Activity there is about: the panel, which does."""
    async with Stage(tmp_path, channels=2, activity=True) as stage:
        for channel in stage.channels:
            await started(stage, channel)
        dm = stage.emu.dm_channel(stage.user["ann"])
        panel = await stage.click("ann", "Play", channel=dm)
        assert panel.callback_type != LAUNCH_ACTIVITY and panel.activity is None
        assert panel.error is None and panel.text
        launched = await stage.slash("ann", "play", channel=stage.channels[1])
        assert launched.callback_type == LAUNCH_ACTIVITY  # in a match's channel it is that one


async def test_a_launch_discord_refuses_opens_the_play_panel(tmp_path: Path) -> None:
    async with Stage(tmp_path, activity=True) as stage:
        await started(stage)
        stage.emu.api.activities_enabled = False  # the portal's Activity switch is off
        panel = await stage.slash("ann", "play")
        assert panel.callback_type != LAUNCH_ACTIVITY and panel.activity is None
        assert panel.errors == ["400 50234 Application does not have Activities enabled"]
        assert panel.text  # the panel answered after the refused launch
        assert BOARD in [b.get("label") for m in panel.messages for b in m.buttons()]


async def test_play_while_the_database_is_away_says_so_as_without_the_activity(
    tmp_path: Path,
) -> None:
    """Regression: with the Activity on, the read of which match it would show failed
    outside any handling while the database did not answer (a restart, a failover): the Play
    button of ann's "your turn" DM got no answer at all (Discord: "This interaction
    failed"), and ``/tora play`` the generic "Something went wrong". A failed read now gives
    the Play panel's answer, as with the Activity off: the database is not answering."""
    async with Stage(tmp_path, ("ann", "bob"), activity=True) as stage:
        await started(stage)
        assert stage.bot is not None
        records = stage.bot.service.records

        async def away(*args: Any, **kwargs: Any) -> Any:
            raise DatabaseUnavailable("the database is away (simulated)")

        records.live_in_channel = away  # type: ignore[method-assign]
        records.of_user = away  # type: ignore[method-assign]
        user = stage.user["ann"]
        message, custom_id = stage.emu.find_button(stage.emu.dm_channel(user), "Play", user=user)
        pressed = await stage.emu.click(user, message, custom_id)
        with contextlib.suppress(TimeoutError):
            await pressed.done(WAIT)
        assert pressed.acknowledged, "the Play button got no answer at all"
        assert pressed.callback_type != LAUNCH_ACTIVITY
        typed = await stage.slash("ann", "play")
        assert typed.callback_type != LAUNCH_ACTIVITY
        assert "database is not answering" in typed.text, typed.text


async def test_without_the_activity_play_opens_the_panel_and_its_link(tmp_path: Path) -> None:
    async with Stage(tmp_path) as stage:
        match = await started(stage)
        dm = stage.emu.dm_channel(stage.user["ann"])
        panel = await stage.click("ann", "Play", channel=dm)
        assert panel.callback_type != LAUNCH_ACTIVITY and panel.activity is None
        assert BOARD in [b.get("label") for m in panel.messages for b in m.buttons()]
        assert not [c for c in stage.emu.commands() if c["type"] == 4]
        async with aiohttp.ClientSession(stage.web_url) as web:
            body = {"code": "x", "instance": "i-1"}
            async with web.post("/api/activity/session", json=body) as answer:
                assert answer.status == 404  # no Activity, no sign-in
        assert stage.bot is not None
        assert await stage.bot.links.link_for(match, Side.CHALLENGER)


async def test_a_sync_with_the_activity_off_keeps_discords_entry_point() -> None:
    """Discord refuses a bulk overwrite that would drop the Entry Point: a later sync with
    the Activity off sends the one Discord has (only the portal removes it); an application
    without one gets none."""
    async with Emulator(bot_name="TORA") as emu:
        point_at(emu.api_base, emu.gateway_url)
        assert await sync_commands(emu.token, None) == (5, "globally")  # /tora, /tora-match...
        with_point = (6, "globally, with the Activity's Entry Point")
        assert await sync_commands(emu.token, None, entry_point=True) == with_point
        [point] = [c for c in emu.commands() if c["type"] == 4]
        assert await sync_commands(emu.token, None) == with_point
        [kept] = [c for c in emu.commands() if c["type"] == 4]
        assert (kept["id"], kept["name"], kept["handler"]) == (point["id"], "launch", 2)
        assert kept["description_localizations"] == point["description_localizations"]
        assert point["description_localizations"]["de"].startswith("Das Brett")
