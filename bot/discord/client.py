"""The bot: a discord.py client whose ``setup_hook`` opens the store and starts the match
service with the Discord delivery, and registers the persistent buttons. The command tree is
built at construction and synced only on demand (``python -m bot sync``)."""

from __future__ import annotations

import logging
from typing import Any

import discord
import yarl
from discord import app_commands

from bot.ladder.desk import LadderDesk
from bot.ladder.rating import listen
from bot.ladder.runner import LadderRunner
from bot.pictures import PillowRenderer
from bot.service import Clock, MatchService, Settings
from bot.tournament.desk import TournamentDesk
from storage import Store

from .actions import Actions
from .buttons import LegacyButton, ToraButton
from .commands import build_group
from .config import Config
from .costly import Limits
from .delivery import DiscordDelivery
from .lookups import Lookups
from .panel import PanelButton, PanelSelect
from .playing import Playing
from .respond import NOBODY, Handled, report
from .setup_form import SetupButton, SetupForms, SetupSelect
from .sweeper import Sweeper
from .tournaments import Tournaments

log = logging.getLogger(__name__)
SHARED_POLL = 2.0  # seconds: how often a process sharing its database looks for others' work


def point_at(api_base: str, gateway: str | None) -> None:
    """Send discord.py's REST calls (interaction webhooks included: they share the Route
    class) to ``api_base`` and, if given, open the gateway at ``gateway`` (a plain Client
    does not ask the API where the gateway is)."""
    discord.http.Route.BASE = api_base
    if gateway is not None:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)


# The bot has no voice: discord.py's warnings that voice libraries are missing are noise.
discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False


def command_tree(client: discord.Client) -> app_commands.CommandTree[Any]:
    tree: app_commands.CommandTree[Any] = app_commands.CommandTree(client)
    tree.add_command(build_group())
    return tree


async def sync_commands(config: Config, guild_id: int | None) -> tuple[int, str]:
    """Upload the command tree to one server (at once: for testing) or everywhere (global
    commands, which Discord may take a while to show); how many went, and where."""
    client = discord.Client(intents=discord.Intents(guilds=True))
    tree = command_tree(client)
    async with client:
        await client.login(config.token)
        if guild_id is None:
            return len(await tree.sync()), "globally"
        guild = discord.Object(guild_id)
        tree.copy_global_to(guild=guild)
        return len(await tree.sync(guild=guild)), f"to server {guild_id}"


class ToraBot(discord.AutoShardedClient):
    """The bot, holding the shards its config names (all of them by default: one shard).
    Several processes may each hold some shards of one bot on one database
    (docs/DEPLOY.md): DMs arrive on shard 0, every process may act on any match."""

    def __init__(
        self,
        config: Config,
        *,
        settings: Settings | None = None,
        clock: Clock | None = None,
        dm_rate: float = 5.0,
        dm_burst: int = 20,
    ) -> None:
        # Slash commands and buttons need no privileged intents; guilds keeps channels known.
        super().__init__(
            intents=discord.Intents(guilds=True),
            max_messages=None,
            allowed_mentions=discord.AllowedMentions.none(),  # the default; posts name theirs
            shard_ids=None if config.shards is None else list(config.shards),
            shard_count=config.shard_count,
        )
        self.config = config
        self.settings = settings or Settings(
            ai_processes=config.ai_processes,
            poll_seconds=SHARED_POLL if config.shared else None,
            claim_seconds=config.claim_seconds,
        )
        self.clock = clock  # None: the system's (a test or the demo may bring its own)
        self._dm_pace = (dm_rate, dm_burst)
        self.tree = command_tree(self)
        self.tree.on_error = self._command_error
        self.handled = Handled()  # interactions acted on, each once
        self.store: Store | None = None
        self.service: MatchService | None = None
        self.sweeper: Sweeper | None = None
        self.ladder_runner: LadderRunner | None = None

    async def setup_hook(self) -> None:
        self.store = await Store.open(self.config.store)
        if self.config.shared:  # alone, the interactions taken are remembered in memory
            self.handled.sharing = self.store.sharing
        rate, burst = self._dm_pace
        self.sweeper = Sweeper(self.store, self)
        self.delivery = DiscordDelivery(self, sweeper=self.sweeper, dm_rate=rate, dm_burst=burst)
        self.service = MatchService(
            self.store, self.delivery, PillowRenderer(), settings=self.settings, clock=self.clock
        )
        listen(self.service, self.store, self.clock)  # the ladder rates what ends
        ladder = {"clock": self.clock, "settings": self.settings}
        desk = LadderDesk(self.service, self.store, self.delivery, **ladder)
        self.ladder_runner = LadderRunner(self.service, self.store, self.delivery, **ladder)
        limits = Limits()
        self.actions = Actions(self.service, self.store, self.delivery, limits)
        self.lookups = Lookups(self.actions, self.store, desk, limits)
        self.playing = Playing(self.actions)
        cups = TournamentDesk(self.store, self.service, self.delivery, **ladder)
        self.tournaments = Tournaments(cups, limits)
        self.delivery.forms = SetupForms(self.service).view
        self.add_dynamic_items(
            ToraButton, LegacyButton, PanelSelect, PanelButton, SetupButton, SetupSelect
        )
        await self.ladder_runner.start()  # before the service: see LadderRunner.start
        await self.service.start()
        await self.ladder_runner.resume_pairings()  # after the service: it opens matches
        await cups.start()  # after the service: listens to its endings, then catches up
        log.info(
            "service started",
            extra={"db": self.config.store.where(), "shards": self.config.shards or "all"},
        )

    async def on_ready(self) -> None:
        log.info("connected", extra={"user": str(self.user), "guilds": len(self.guilds)})

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.type in (
            discord.InteractionType.application_command,
            discord.InteractionType.component,
        ):
            self.delivery.seen(interaction)

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

    async def close(self) -> None:
        """Stop the ladder's and the service's background work, then the connection, then
        the store."""
        if self.ladder_runner is not None:
            await self.ladder_runner.stop()
        if self.service is not None:
            await self.service.stop()
        if self.sweeper is not None:
            await self.sweeper.close()
        await super().close()
        if self.store is not None:
            await self.store.close()
            self.store = None
        log.info("closed")
