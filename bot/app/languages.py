"""The language of an answer (``bot.i18n``): the caller's ``/tora settings`` choice, else the
language their Discord client shows. Each answer notes what Discord showed (the player's
locale, their server's preferred locale), so that a DM or a public post the service makes
later, outside any command, is in the language its readers use."""

from __future__ import annotations

from collections import OrderedDict

from bot.service import MatchService

from .callers import Caller

NOTED_SERVERS = 10_000  # servers whose Discord locale this process knows it has kept


class Languages:
    def __init__(self, service: MatchService) -> None:
        self.records = service.records
        self._servers: OrderedDict[int, str] = OrderedDict()

    async def of(self, caller: Caller) -> str:
        """The language to answer ``caller`` in (their settings as ``records`` keeps them)."""
        choice = await self.records.player_language(caller.user.id)
        if caller.locale and caller.locale != choice.seen:
            await self.records.note_player_locale(caller.user, caller.locale)
        if caller.guild_id and caller.guild_locale:
            await self._note_server(caller.guild_id, caller.guild_locale)
        return choice.resolved(caller.locale)

    async def of_server(self, caller: Caller) -> str:
        """The language of a public answer to ``caller``: their server's (its admins'
        choice, else its Discord preferred locale); in a DM, the caller's own."""
        if not caller.guild_id:
            return await self.of(caller)
        if caller.locale:
            await self._note_player(caller)
        if caller.guild_locale:
            await self._note_server(caller.guild_id, caller.guild_locale)
        return (await self.records.server_language(caller.guild_id)).resolved(caller.guild_locale)

    async def _note_player(self, caller: Caller) -> None:
        if (await self.records.player_language(caller.user.id)).seen != caller.locale:
            await self.records.note_player_locale(caller.user, caller.locale or "")

    async def _note_server(self, guild_id: int, locale: str) -> None:
        """Keep a server's preferred locale when it is new to this process or changed."""
        if self._servers.get(guild_id) == locale:
            self._servers.move_to_end(guild_id)
            return
        if (await self.records.server_language(guild_id)).seen != locale:
            await self.records.note_server_locale(guild_id, locale)
        self._servers[guild_id] = locale
        while len(self._servers) > NOTED_SERVERS:
            self._servers.popitem(last=False)
