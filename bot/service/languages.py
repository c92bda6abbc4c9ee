"""Which language a text is made in, from what is stored: a player's choice (``/tora
settings``) over the Discord language their client last showed; a server's choice (its
admins') over its Discord "preferred locale". Both are kept in storage's settings rows
(``player_settings``, ``guild_settings``), the Discord ones as Discord spells them, so a
language added later applies at once to those who use it.

The service makes a public post inside ``speaking(await ctx.server_language(guild))`` and a
DM inside ``speaking(await ctx.player_language(user))`` (``bot.i18n``): both read through
the process's ``KeptLanguages``, which ``Records`` shares, so that a turn's posts do not
read storage each time and a choice made here is seen at once."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace

from bot.i18n import SOURCE, from_discord, known
from storage import Store

LANGUAGE, DISCORD_LOCALE = "language", "discord_locale"
LONGEST_LOCALE = 16  # Discord's are at most 5 ("es-419"); anything longer is not one
KEPT_CHOICES = 4096  # players (and, apart, servers) whose choice a process keeps in memory
CHOICE_SECONDS = 30.0  # how long a kept choice is trusted without reading storage again


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


class KeptChoices:
    """The language choices of the players (or servers) seen lately, so that answering an
    interaction does not read storage each time: at most ``KEPT_CHOICES``, the least
    recently used forgotten first. Every change this process makes goes through ``chose`` or ``saw``
    and is seen at once. Another process sharing the database (PostgreSQL) changes storage
    behind this one's back: a kept choice is read again once ``CHOICE_SECONDS`` old, which
    bounds how long such a change goes unseen here."""

    def __init__(self, now: Callable[[], float]) -> None:
        self._now = now
        self._kept: OrderedDict[int, tuple[float, LanguageChoice]] = OrderedDict()
        self._changes = 0  # a read that a change overtook is not kept

    async def get(self, key: int, read: Callable[[], Awaitable[LanguageChoice]]) -> LanguageChoice:
        """``key``'s choice: the kept one while fresh, else ``read`` from storage."""
        kept = self._kept.get(key)
        if kept is not None and self._now() - kept[0] < CHOICE_SECONDS:
            self._kept.move_to_end(key)
            return kept[1]
        changes, at = self._changes, self._now()
        choice = await read()
        if changes == self._changes:
            self._kept[key] = (at, choice)
            self._kept.move_to_end(key)
            while len(self._kept) > KEPT_CHOICES:
                self._kept.popitem(last=False)
        return choice

    def chose(self, key: int, code: str | None) -> None:
        """``key``'s choice ``code`` was just stored."""
        self._change(key, lambda choice: replace(choice, chosen=code))

    def saw(self, key: int, locale: str) -> None:
        """``key``'s Discord locale ``locale`` was just stored."""
        self._change(key, lambda choice: replace(choice, seen=locale))

    def _change(self, key: int, change: Callable[[LanguageChoice], LanguageChoice]) -> None:
        self._changes += 1
        if (kept := self._kept.get(key)) is not None:
            self._kept[key] = (kept[0], change(kept[1]))


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


class KeptLanguages:
    """A process's kept language choices (``KeptChoices``), the players' and the servers',
    read from ``store``: shared by the service's posts and by ``Records``, whose changes
    update them."""

    def __init__(self, store: Store, now: Callable[[], float]) -> None:
        self._store = store
        self.players = KeptChoices(now)
        self.servers = KeptChoices(now)

    async def player_choice(self, user_id: int) -> LanguageChoice:
        return await self.players.get(user_id, lambda: player_choice(self._store, user_id))

    async def server_choice(self, guild_id: int) -> LanguageChoice:
        return await self.servers.get(guild_id, lambda: server_choice(self._store, guild_id))

    async def player(self, user_id: int) -> str:
        """The language of a DM to ``user_id``."""
        return (await self.player_choice(user_id)).resolved()

    async def server(self, guild_id: int | None) -> str:
        """The language of a public post in ``guild_id`` (English in a DM channel: None)."""
        return SOURCE if guild_id is None else (await self.server_choice(guild_id)).resolved()
