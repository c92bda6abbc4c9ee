"""Which language a text is made in, from what is stored: a player's choice (``/tora
settings``) over the Discord language their client last showed; a server's choice (its
admins') over its Discord "preferred locale". Both are kept in storage's settings rows
(``player_settings``, ``guild_settings``), the Discord ones as Discord spells them, so a
language added later applies at once to those who use it.

The service makes a public post inside ``speaking(await server_language(store, guild))``
and a DM inside ``speaking(await player_language(store, user))`` (``bot.i18n``)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.i18n import SOURCE, from_discord, known
from storage import Store

LANGUAGE, DISCORD_LOCALE = "language", "discord_locale"
LONGEST_LOCALE = 16  # Discord's are at most 5 ("es-419"); anything longer is not one


@dataclass(frozen=True)
class LanguageChoice:
    """A player's or server's language: ``chosen`` (None: follow Discord) and the Discord
    locale last seen (None: never seen)."""

    chosen: str | None = None
    seen: str | None = None

    def resolved(self, discord_now: str | None = None) -> str:
        """The language to use: the choice, else Discord's (as it is now, else as last
        seen), else English."""
        return known(self.chosen) or from_discord(discord_now or self.seen) or SOURCE


def _choice(rows: dict[str, str]) -> LanguageChoice:
    return LanguageChoice(known(rows.get(LANGUAGE)), rows.get(DISCORD_LOCALE))


def checked_language(code: str | None) -> str | None:
    """A stored choice: a shipped language, or None (follow Discord). ValueError else."""
    if code is not None and known(code) is None:
        raise ValueError(f"no language {code!r}")
    return code


def discord_locale(text: str | None) -> str | None:
    """A Discord locale as kept: short and plain, or None."""
    if not text or len(text) > LONGEST_LOCALE or not text.replace("-", "").isalnum():
        return None
    return text


async def player_choice(store: Store, user_id: int) -> LanguageChoice:
    return _choice(await store.player_settings(user_id))


async def server_choice(store: Store, guild_id: int) -> LanguageChoice:
    return _choice(await store.guild_settings(guild_id))


async def player_language(store: Store, user_id: int) -> str:
    """The language of a DM to ``user_id``."""
    return (await player_choice(store, user_id)).resolved()


async def server_language(store: Store, guild_id: int | None) -> str:
    """The language of a public post in ``guild_id`` (English in a DM channel: None)."""
    return SOURCE if guild_id is None else (await server_choice(store, guild_id)).resolved()
