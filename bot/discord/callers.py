"""Who gave a command, and where, read from a discord.py interaction: the one place that
does, so that the application layer never touches discord.py's objects."""

from __future__ import annotations

from typing import Any

import discord

from bot.app.callers import Caller
from bot.service import User


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
        locale=interaction.locale.value,
        guild_locale=interaction.guild_locale.value if interaction.guild_locale else None,
    )
