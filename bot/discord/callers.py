"""Who gave a command, and where: the one place that reads these from a discord.py
interaction, so that the actions below never touch discord.py's objects."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord

from bot.service import User


@dataclass(frozen=True)
class Caller:
    user: User
    guild_id: int | None  # None: a direct message with the bot
    channel_id: int
    admin: bool = False  # may manage the server (settings, cancel)
    text_channel: bool = False  # a server's text channel (not a thread): may hold threads

    @property
    def in_dm(self) -> bool:
        return self.guild_id is None


def person(user: discord.abc.User) -> User:
    """The name messages call a user by: their server nickname or display name."""
    return User(user.id, user.display_name)


def caller_of(interaction: discord.Interaction[Any]) -> Caller:
    channel = interaction.channel
    guild_id = interaction.guild_id
    return Caller(
        person(interaction.user),
        guild_id,
        interaction.channel_id or 0,
        admin=guild_id is not None and interaction.permissions.manage_guild,
        text_channel=getattr(channel, "type", None) == discord.ChannelType.text,
    )
