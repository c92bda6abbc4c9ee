"""Who gave a command, and where, read from a discord.py interaction: the one place that
does, so that the application layer never touches discord.py's objects."""

from __future__ import annotations

from typing import Any

import discord

from bot.app import permissions
from bot.app.callers import Caller
from bot.service import User


def person(user: discord.abc.User) -> User:
    """The name messages call a user by: their server nickname or display name."""
    return User(user.id, user.display_name)


FLAGS = {  # the application layer's names of the permissions it asks about: discord.py's
    permissions.VIEW: "view_channel",
    permissions.SEND: "send_messages",
    permissions.ATTACH: "attach_files",
    permissions.CREATE_THREADS: "create_public_threads",
    permissions.SEND_IN_THREADS: "send_messages_in_threads",
}
THREADS = (
    discord.ChannelType.public_thread,
    discord.ChannelType.private_thread,
    discord.ChannelType.news_thread,
)


def bot_may(interaction: discord.Interaction[Any]) -> frozenset[str] | None:
    """What the bot may do in the interaction's channel (its ``app_permissions``); None in
    a DM."""
    if interaction.guild_id is None:
        return None
    allowed = interaction.app_permissions
    return frozenset(name for name, flag in FLAGS.items() if getattr(allowed, flag))


def caller_of(interaction: discord.Interaction[Any]) -> Caller:
    channel = interaction.channel
    guild_id = interaction.guild_id
    kind = getattr(channel, "type", None)
    return Caller(
        person(interaction.user),
        guild_id,
        interaction.channel_id or 0,
        admin=guild_id is not None and interaction.permissions.manage_guild,
        text_channel=kind == discord.ChannelType.text,
        thread=kind in THREADS,
        may=bot_may(interaction),
        locale=interaction.locale.value,
        guild_locale=interaction.guild_locale.value if interaction.guild_locale else None,
    )
