"""What a front end reads and keeps beside the commands (``MatchService.records``): the
hosted matches of a channel or a player, a match's public summary, record and final
position, a player's name, a server's settings, the messages it showed buttons on, and the
interactions it took. None of it is locked or rate limited: each is one read or write of
the store. Everything read here is public, except ``record`` for a side, which only that
player may be shown."""

from __future__ import annotations

from collections.abc import Callable, Collection

from rules import GameView, Outcome, Side
from storage import ButtonMessage, Hosted, HostedNotFound, MatchInfo, MatchNotFound, Store

from . import digest
from .guild import ClockChoice, GuildSettings, load_guild, save_guild
from .languages import (
    DISCORD_LOCALE,
    LANGUAGE,
    KeptLanguages,
    LanguageChoice,
    checked_language,
    discord_locale,
)
from .models import User
from .notify import OFF, SERVER_KEYS, Notify, checked, defaults, notify_of
from .people import PlayerSettings, load_player, save_player
from .ports import Clock


class Records:
    def __init__(self, store: Store, clock: Clock, languages: KeptLanguages | None = None) -> None:
        """``languages``: the kept choices the service's posts read (its own, else)."""
        self._store = store
        self._clock = clock
        self._languages = languages or KeptLanguages(store, clock.now)
        self._players = self._languages.players
        self._servers = self._languages.servers

    def now(self) -> float:
        """The service's time (a test's manual clock)."""
        return self._clock.now()

    # ---- hosted matches --------------------------------------------------------------------
    async def live_in_channel(self, channel_id: int) -> Hosted | None:
        """The channel's live (not ended) hosted match, if any."""
        return await self._store.hosting.live_in_channel(channel_id)

    async def latest_in_channel(self, channel_id: int, with_game: bool = False) -> Hosted | None:
        """The channel's most recent hosted match, live or ended (``with_game``: whose game
        started)."""
        return await self._store.hosting.latest_in_channel(channel_id, with_game=with_game)

    async def any_in_guild(self, guild_id: int) -> bool:
        """Whether the server ever hosted a match (a challenge at least), live or ended."""
        return await self._store.hosting.any_in_guild(guild_id)

    async def hosted(self, hosted_id: int) -> Hosted | None:
        """A hosted match by its number, live or ended (None: there is none)."""
        try:
            return await self._store.hosting.get(hosted_id)
        except HostedNotFound:
            return None

    async def of_user(self, user_id: int, most: int = 50) -> list[Hosted]:
        """The user's hosted matches: every live one and the newest ``most`` ended ones, the
        newest first."""
        return await self._store.hosting.of_user(user_id, most)

    # ---- matches and players ---------------------------------------------------------------
    async def match_info(self, match_id: int) -> MatchInfo | None:
        """A match's public summary (None: there is no such match)."""
        try:
            return await self._store.match_info(match_id)
        except MatchNotFound:
            return None

    async def record(self, match_id: int, side: Side | None = None) -> str:
        """The match's record (R50): the public one, or as ``side``'s player may see it (their
        own hidden actions in full), for that player alone."""
        if side is None:
            return await self._store.export_record(match_id)
        return await self._store.private_export_record(match_id, side)

    async def public_position(self, match_id: int) -> tuple[GameView, Outcome | None]:
        """The match's position as everyone may see it (``view_for(None)``), and its outcome
        if it is over."""
        game = (await self._store.load(match_id)).game
        return game.view_for(None), game.outcome()

    async def player_name(self, user_id: int) -> str | None:
        """The name a player was last seen by (None: never seen)."""
        player = await self._store.player(user_id)
        return None if player is None else player.name

    async def player_names(self, user_ids: Collection[int]) -> dict[int, str]:
        """The names players were last seen by, in one read, by id (never seen: missing)."""
        return await self._store.names(list(user_ids)) if user_ids else {}

    # ---- servers -------------------------------------------------------------------------
    async def guild(self, guild_id: int) -> GuildSettings:
        return await load_guild(self._store, guild_id)

    async def save_guild(
        self,
        guild_id: int,
        settings: GuildSettings,
        before: GuildSettings | None = None,
        clock: Callable[[ClockChoice], ClockChoice] | None = None,
    ) -> GuildSettings:
        """Keep a server's settings (``guild.save_guild``: with ``before``, those changed;
        with ``clock``, the clock made over the one stored); the settings kept."""
        return await save_guild(self._store, guild_id, settings, before, clock)

    # ---- players ----------------------------------------------------------------------------
    async def player_settings(self, user_id: int) -> PlayerSettings:
        """A player's own settings (their time zone, automatic away days...)."""
        return await load_player(self._store, user_id)

    async def save_player_settings(self, user: User, settings: PlayerSettings) -> None:
        await self._store.save_player(user.id, user.name)
        await save_player(self._store, user.id, settings)

    # ---- languages (``languages``) ----------------------------------------------------------
    # Read for every interaction (the language of its answer) and post, so kept in memory
    # (``KeptLanguages``, the service's); every change below updates what is kept.
    async def player_language(self, user_id: int) -> LanguageChoice:
        return await self._languages.player_choice(user_id)

    async def server_language(self, guild_id: int) -> LanguageChoice:
        return await self._languages.server_choice(guild_id)

    async def choose_player_language(self, user: User, code: str | None) -> None:
        """A player's language (None: their Discord's); ValueError for one not shipped."""
        await self._store.save_player(user.id, user.name)
        await self._store.set_player_setting(user.id, LANGUAGE, checked_language(code))
        self._players.chose(user.id, code)

    async def choose_server_language(self, guild_id: int, code: str | None) -> None:
        """A server's language (None: its Discord preferred locale)."""
        await self._store.set_guild_setting(guild_id, LANGUAGE, checked_language(code))
        self._servers.chose(guild_id, code)

    async def note_player_locale(self, user: User, locale: str) -> None:
        """The Discord locale a player's client showed (for DMs sent outside a command)."""
        if (kept := discord_locale(locale)) is not None:
            await self._store.save_player(user.id, user.name)
            await self._store.set_player_setting(user.id, DISCORD_LOCALE, kept)
            self._players.saw(user.id, kept)

    async def note_server_locale(self, guild_id: int, locale: str) -> None:
        """A server's Discord preferred locale, as an interaction showed it."""
        if (kept := discord_locale(locale)) is not None:
            await self._store.set_guild_setting(guild_id, DISCORD_LOCALE, kept)
            self._servers.saw(guild_id, kept)

    async def notify_of(self, user_id: int, guild_id: int | None) -> Notify:
        """A player's notifications in a server: their own settings over its defaults."""
        return await notify_of(self._store, user_id, guild_id)

    async def server_notify(self, guild_id: int) -> Notify:
        """A server's default notifications (the bot's under what its admins chose)."""
        return Notify(defaults(await self._store.guild_settings(guild_id)))

    async def set_notify(self, user: User, key: str, value: str) -> None:
        """One of a player's notifications (ValueError for one that is not): a digest
        turned on counts today's as sent, so the first comes at its next hour, and one
        moved to a later hour the day its digest went brings no second that day."""
        name, value = checked(key, value)
        await self._store.save_player(user.id, user.name)
        await self._store.set_player_setting(user.id, name, value)
        if key == "digest" and value != OFF:
            own = await self._store.player_settings(user.id)
            zone_name = (await load_player(self._store, user.id)).timezone
            now, before = self._clock.now(), own.get(digest.SENT)
            slot = digest.sent_mark(int(value), zone_name, now, before)
            await self._store.set_player_setting(user.id, digest.SENT, repr(slot))

    async def set_server_notify(self, guild_id: int, key: str, value: str) -> None:
        """One of a server's default notifications (ValueError for one that is not)."""
        name, value = checked(key, value)
        if key not in SERVER_KEYS:
            raise ValueError(f"{key} is each player's own")
        await self._store.set_guild_setting(guild_id, name, value)

    async def away_now(self, guild_id: int, user_ids: list[int]) -> dict[int, float]:
        """Which of the players are away in a server now, and until when."""
        now = self._clock.now()
        times = await self._store.aways(guild_id, user_ids, now)
        return {a.user_id: a.ends_at for a in times if a.starts_at <= now}

    # ---- what a front end showed ---------------------------------------------------------
    async def remember_buttons(self, sent: ButtonMessage) -> None:
        """A message went out with buttons for a hosted match's turn."""
        await self._store.hosting.remember_buttons(sent)

    async def button_messages(self, hosted_id: int) -> list[ButtonMessage]:
        return await self._store.hosting.button_messages(hosted_id)

    async def channel_button_messages(self, channel_id: int) -> list[ButtonMessage]:
        """The messages kept with buttons in a channel, whichever match they are about."""
        return await self._store.hosting.channel_button_messages(channel_id)

    async def forget_buttons(self, channel_id: int, message_id: int) -> None:
        await self._store.hosting.forget_buttons(channel_id, message_id)

    async def first_seen(self, interaction_id: int) -> bool:
        """Whether no process sharing the database has taken this interaction before (it is
        taken now)."""
        return await self._store.sharing.first_seen(interaction_id, self._clock.now())
