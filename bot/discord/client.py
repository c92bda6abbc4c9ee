"""The Discord client: the gateway connection (the shards its process holds), the ``/tora``
command tree and the persistent components, all acting through the handlers the wiring gives
it (``install``; ``bot.build`` makes them). The command tree is synced only on demand
(``python -m bot sync``)."""

from __future__ import annotations

import logging
from typing import Any, Protocol, cast

import aiohttp
import discord
import yarl
from discord import app_commands

from .buttons import LegacyButton, ToraButton
from .commands import Tora
from .commands_admin import AdminCommands
from .commands_ladder import LadderCommands
from .commands_match import MatchCommands
from .commands_tournament import TournamentCommands
from .handlers import Handlers
from .notify_form import NotifyButton, NotifySelect
from .panel import PanelButton, PanelSelect
from .respond import NOBODY, report
from .setup_form import SetupButton, SetupSelect
from .translator import DESCRIPTION, CatalogTranslator, localisable, translated

log = logging.getLogger(__name__)


def point_at(api_base: str, gateway: str | None) -> None:
    """Send discord.py's REST calls (interaction webhooks included: they share the Route
    class) to ``api_base`` and, if given, open the gateway at ``gateway`` (a plain Client
    does not ask the API where the gateway is)."""
    discord.http.Route.BASE = api_base
    if gateway is not None:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)


# The bot has no voice: discord.py's warnings that voice libraries are missing are noise.
discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False


# The Activity's Entry Point command (PRIMARY_ENTRY_POINT, type 4) in the App Launcher. Its
# handler is DISCORD_LAUNCH_ACTIVITY (2): Discord launches the Activity itself, the bot is
# not asked; the Activity then finds the match by its channel (bot.app.activity).
ENTRY_POINT: dict[str, Any] = {
    "name": "launch",
    "type": 4,
    "handler": 2,
    "description": "Open the board of this channel's match inside Discord",
    "integration_types": [0],  # installed in servers, as the bot is
    "contexts": [0, 1],  # a server's channels and the bot's DMs
}


def entry_point_payload() -> dict[str, Any]:
    """``ENTRY_POINT`` as ``sync`` sends it: its description in every shipped language (the
    catalogs' ``command description``), Discord showing the English elsewhere."""
    description = ENTRY_POINT["description"]
    localized = {
        locale.value: text
        for locale in discord.Locale
        if (text := translated(description, locale.value, DESCRIPTION)) is not None
    }
    return ENTRY_POINT | {"description_localizations": localized}


def command_tree(client: discord.Client, handlers: Handlers) -> app_commands.CommandTree[Any]:
    tree: app_commands.CommandTree[Any] = app_commands.CommandTree(client)
    for command in (Tora, MatchCommands, LadderCommands, AdminCommands, TournamentCommands):
        tree.add_command(command(handlers))
    localisable(tree)
    return tree


def unbound_tree() -> app_commands.CommandTree[Any]:
    """The command tree as it is uploaded, bound to no handlers (its texts, for sync and
    the catalogs)."""
    return command_tree(discord.Client(intents=discord.Intents(guilds=True)), cast(Handlers, None))


async def sync_commands(
    token: str, guild_id: int | None, entry_point: bool = False
) -> tuple[int, str]:
    """Upload the command tree to one server (at once: for testing) or everywhere (global
    commands, which Discord may take a while to show); how many went, and where. Only the
    commands' names, options and descriptions go, in every shipped language (the catalogs'
    ``CatalogTranslator``): this client never runs them, so they are bound to no handlers.
    Globally, the Activity's Entry Point command goes too: ours (``ENTRY_POINT``) with
    ``entry_point`` (``TORA_ACTIVITY=on``), else the one Discord has, if any (Discord
    refuses a bulk overwrite that would drop it; turning Activities off in the Developer
    Portal removes it). It is global only.
    Refused or cut off: ``TokenRefused``, ``ServerRefused`` (a server the bot is not in),
    ``DiscordUnreachable``, each saying what to fix."""
    tree = unbound_tree()
    client = tree.client
    await tree.set_translator(CatalogTranslator())
    try:
        async with client:
            try:
                await client.login(token)
            except discord.LoginFailure:
                raise TokenRefused("Discord refused the token") from None
            if guild_id is not None:
                guild = discord.Object(guild_id)
                tree.copy_global_to(guild=guild)
                try:
                    synced = await tree.sync(guild=guild)
                except (discord.NotFound, discord.Forbidden) as exc:
                    raise ServerRefused(guild_id, exc.text or str(exc.status)) from None
                return len(synced), f"to server {guild_id}"
            app_id = client.application_id or 0  # login found it
            point = entry_point_payload() if entry_point else await entry_point_of(client, app_id)
            payload = await payload_of(tree) + ([point] if point else [])
            synced = await client.http.bulk_upsert_global_commands(app_id, payload=payload)
            return len(synced), "globally" + (", with the Activity's Entry Point" if point else "")
    except aiohttp.ClientConnectionError as exc:  # refused, no route, no such host
        raise DiscordUnreachable.of(exc) from None


# What a sync with the Activity off sends back of the Entry Point Discord has.
KEPT = (
    "id",
    "name",
    "type",
    "handler",
    "description",
    "description_localizations",
    "integration_types",
    "contexts",
)


async def entry_point_of(client: discord.Client, app_id: int) -> dict[str, Any] | None:
    """The Entry Point command Discord has for the application (None: none)."""
    for command in await client.http.get_global_commands(app_id):
        found: dict[str, Any] = dict(command)
        if found.get("type") == ENTRY_POINT["type"]:
            return {key: found[key] for key in KEPT if key in found}
    return None


async def payload_of(tree: app_commands.CommandTree[Any]) -> list[dict[str, Any]]:
    """The global commands as ``tree.sync`` sends them (translated, if it has a translator)."""
    translator = tree.translator
    commands = tree.get_commands()
    if translator is not None:
        return [await command.get_translated_payload(tree, translator) for command in commands]
    return [command.to_dict(tree) for command in commands]


# Seconds of a rate limit discord.py waits out itself (its least): a longer one raises
# RateLimited, and the outbox tries the post again after it (``delivery``).
RATE_LIMIT_WAIT = 30.0


class TokenRefused(Exception):
    """Discord refused the bot's token."""


class ServerRefused(Exception):
    """Discord refused a server's commands: the bot is not in it, or there is no such server."""

    def __init__(self, guild_id: int, why: str) -> None:
        super().__init__(
            f"Discord refused the commands for server {guild_id} ({why}): "
            "invite the bot there, or check the id"
        )


class DiscordUnreachable(Exception):
    """Discord's API could not be reached (its message says why)."""

    @classmethod
    def of(cls, cut_off: aiohttp.ClientConnectionError) -> DiscordUnreachable:
        return cls(str(cut_off) or type(cut_off).__name__)


class Seeing(Protocol):
    """Who remembers each user's latest interaction (the delivery)."""

    def seen(self, interaction: discord.Interaction[Any]) -> None:
        """``interaction`` arrived."""


class ToraBot(discord.AutoShardedClient):
    """The bot's connection to Discord, holding the shards its process holds (all of them
    by default: one shard). Several processes may each hold some shards of one bot on one
    database (docs/DEPLOY.md): DMs arrive on shard 0, every process may act on any match."""

    def __init__(self, shards: tuple[int, ...] | None = None, shard_count: int = 1) -> None:
        # Slash commands and buttons need no privileged intents; guilds keeps channels known.
        super().__init__(
            intents=discord.Intents(guilds=True),
            max_messages=None,
            allowed_mentions=discord.AllowedMentions.none(),  # the default; posts name theirs
            # discord.py documents shard_ids as Optional (None: all), its typed options not
            shard_ids=None if shards is None else list(shards),  # type: ignore[arg-type]
            shard_count=shard_count,
            max_ratelimit_timeout=RATE_LIMIT_WAIT,  # longer: RateLimited, back to the outbox
        )
        self.handlers: Handlers | None = None
        self._seeing: Seeing | None = None

    def install(self, handlers: Handlers, seeing: Seeing) -> None:
        """Act through ``handlers``: the command tree and the persistent components; tell
        ``seeing`` of every command and component interaction."""
        self.handlers = handlers
        self._seeing = seeing
        self.tree = command_tree(self, handlers)
        self.tree.error(self._command_error)
        self.add_dynamic_items(
            ToraButton,
            LegacyButton,
            PanelSelect,
            PanelButton,
            SetupButton,
            SetupSelect,
            NotifyButton,
            NotifySelect,
        )

    async def log_in(self, token: str) -> None:
        """Log in to Discord's API (before ``connect``); ``TokenRefused`` if it refuses,
        ``DiscordUnreachable`` if it cannot be reached."""
        try:
            await self.login(token)
        except discord.LoginFailure:
            raise TokenRefused("Discord refused the token") from None
        except aiohttp.ClientConnectionError as exc:  # refused, no route, no such host
            raise DiscordUnreachable.of(exc) from None

    async def on_ready(self) -> None:
        log.info("connected", extra={"user": str(self.user), "guilds": len(self.guilds)})

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        if self._seeing is not None and interaction.type in (
            discord.InteractionType.application_command,
            discord.InteractionType.component,
        ):
            self._seeing.seen(interaction)

    async def _command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """What escaped a handler (a handler answers its own refusals and failures): an
        option Discord sent that could not be read, say. Logged; the caller told privately."""
        text = report(interaction, error)
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True, allowed_mentions=NOBODY)
            else:
                await interaction.response.send_message(
                    text, ephemeral=True, allowed_mentions=NOBODY
                )
        except discord.HTTPException:
            log.exception("could not tell a user about a failure")
