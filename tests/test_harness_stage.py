"""The stage the end-to-end tests play on (``harness.stage``): what it checks for every
test by itself."""

from __future__ import annotations

from pathlib import Path

import discord
import pytest

from harness.stage import Stage


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
