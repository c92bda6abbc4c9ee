"""The stage the end-to-end tests play on (``harness.stage``): what it checks for every
test by itself."""

from __future__ import annotations

import io
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import discord
import pytest

from harness.stage import Stage

TOO_BIG = 10 * 1024 * 1024 + 1  # past Discord's 10 MiB for a bot's upload


async def test_a_stage_whose_bot_sent_discord_a_message_it_refuses_fails(tmp_path: Path) -> None:
    """A post the bot writes past Discord's limits is refused (400 50035) and, as the
    delivery drops a post Discord refuses for good, nothing else may show it: a test that
    never looks at that post passed. Regression: the stage ended quietly; now it fails,
    naming the request and Discord's error."""
    with pytest.raises(AssertionError, match=r"POST /channels/\d+/messages.*2000 or fewer"):
        async with Stage(tmp_path, web=False) as stage:
            assert stage.bot is not None
            channel = await stage.bot.client.fetch_channel(stage.channel)
            assert isinstance(channel, discord.TextChannel)
            with pytest.raises(discord.HTTPException):
                await channel.send("x" * 2001)


async def test_a_stage_whose_bot_sent_nothing_refused_ends_quietly(tmp_path: Path) -> None:
    async with Stage(tmp_path, web=False) as stage:
        assert stage.bot is not None
        channel = await stage.bot.client.fetch_channel(stage.channel)
        assert isinstance(channel, discord.TextChannel)
        await channel.send("x" * 2000)


@pytest.mark.parametrize(
    ("refused", "error"),
    [
        (lambda channel: channel.send(" \n "), "Cannot send an empty message"),
        (
            lambda channel: channel.send(file=discord.File(io.BytesIO(b"x" * TOO_BIG), "a.png")),
            "Request entity too large",
        ),
    ],
    ids=["blank", "too-large"],
)
async def test_a_stage_whose_bot_sent_a_post_refused_for_good_fails(
    tmp_path: Path, refused: Callable[[discord.TextChannel], Awaitable[Any]], error: str
) -> None:
    """The delivery drops any post Discord refuses for good (a 4xx), not only one past its
    limits: a message of blanks alone (400 50006) or a file over 10 MiB (413 40005) was
    dropped while the stage ended quietly. Regression: only 400 50035 failed it."""
    with pytest.raises(AssertionError, match=rf"POST /channels/\d+/messages.*{error}"):
        async with Stage(tmp_path, web=False) as stage:
            assert stage.bot is not None
            channel = await stage.bot.client.fetch_channel(stage.channel)
            assert isinstance(channel, discord.TextChannel)
            with pytest.raises(discord.HTTPException):
                await refused(channel)
