"""Who gave a command, and where: what every front end reads from its own requests (a
Discord interaction, a web request) before it asks anything of the application layer."""

from __future__ import annotations

from dataclasses import dataclass

from bot.service import User


@dataclass(frozen=True)
class Caller:
    user: User
    guild_id: int | None  # None: a direct message with the bot
    channel_id: int
    admin: bool = False  # may manage the server (settings, cancel)
    text_channel: bool = False  # a server's text channel (not a thread): may hold threads
    thread: bool = False  # a thread: posting there takes Send Messages in Threads
    # what the bot may do in this channel, by ``permissions``' names (Discord's
    # app_permissions); None where the front end knows no such limits (the web, a DM)
    may: frozenset[str] | None = None
    locale: str | None = None  # the language the caller's client shows (Discord's code)
    guild_locale: str | None = None  # the server's preferred locale (Discord's code)

    @property
    def in_dm(self) -> bool:
        return self.guild_id is None
