"""The bot, wired once: ``build(config)`` opens the store and makes the match service (with
render's images and the Discord delivery), the ladder's rating of what ends, its runner and
desk, the tournaments, the application layer over them, the Discord client acting
through it and the web board (unless ``TORA_WEB=off``). ``python -m bot``, the
emulator's stage (``harness``) and the benchmarks all run what it makes; ``Bot.run`` starts
the parts in their order, ``Bot.close`` stops them in the reverse one."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from bot.app import App
from bot.app.links import Links
from bot.app.pictures import PillowRenderer
from bot.config import Config, WebConfig
from bot.discord.buttons import buttons
from bot.discord.client import ToraBot
from bot.discord.delivery import DiscordDelivery
from bot.discord.event_sweeper import EventSweeper
from bot.discord.handlers import Handlers
from bot.discord.respond import Handled, Responder
from bot.discord.sweeper import Sweeper
from bot.i18n.catalogs import load_all
from bot.ladder.desk import LadderDesk
from bot.ladder.rating import listen
from bot.ladder.runner import LadderRunner
from bot.service import Clock, LinkRecords, MatchService, Settings
from bot.tournament.desk import TournamentDesk
from bot.web import WebBoard
from bot.web.discord_api import DiscordApi
from bot.web.forwarded import Proxies
from storage import Store

log = logging.getLogger("bot")
SHARED_POLL = 2.0  # seconds: how often a process sharing its database looks for others' work


@dataclass
class Bot:
    """Everything ``build`` made, for running it and for tests that look inside."""

    config: Config
    store: Store
    service: MatchService
    ladder: LadderRunner
    tournaments: TournamentDesk
    app: App
    client: ToraBot
    delivery: DiscordDelivery
    sweeper: Sweeper
    event_sweeper: EventSweeper
    links: Links
    web: WebBoard | None = None

    async def run(self) -> None:
        """Log in, start the match service and what listens to it, then hold the gateway
        connection until ``close`` (``TokenRefused`` when Discord refuses the token)."""
        await self.client.log_in(self.config.token)
        await self.start()
        await self.client.connect()

    async def start(self) -> None:
        await self.ladder.start()  # before the service: see LadderRunner.start
        await self.service.start()
        await self.ladder.resume_pairings()  # after the service: it opens matches
        await self.tournaments.start()  # after the service: listens to its endings, catches up
        if self.web is not None:
            await self.web.start()
            if self.config.web.url is None:  # the links name the address it is served on
                self.links.base_url = self.web.url
        log.info(
            "service started",
            extra={"db": self.config.store.where(), "shards": self.config.shards or "all"},
        )

    async def close(self) -> None:
        """Stop the ladder's and the service's background work, then the connection, then
        the store. The web board goes first: its streams end, no new action comes in."""
        if self.web is not None:
            await self.web.stop()
        await self.ladder.stop()
        await self.tournaments.stop()
        await self.service.stop()
        await self.sweeper.close()
        await self.event_sweeper.close()
        await self.client.close()
        await self.store.close()
        log.info("closed")


async def build(
    config: Config,
    *,
    settings: Settings | None = None,
    clock: Clock | None = None,
    dm_rate: float = 5.0,
    dm_burst: int = 20,
) -> Bot:
    """The bot of ``config``, its store open and nothing started. ``settings`` and ``clock``
    (the system's by default) are the service's, the ladder's and the tournaments'; a test or
    the demo may bring its own. ``dm_rate`` and ``dm_burst`` pace the opening of DMs."""
    load_all()  # the message catalogs, read once here (docs/TRANSLATING.md)
    settings = settings or Settings(
        ai_processes=config.ai_processes,
        poll_seconds=SHARED_POLL if config.shared else None,
        claim_seconds=config.claim_seconds,
        fairy_stockfish=config.fairy_stockfish,
    )
    store = await Store.open(config.store)
    client = ToraBot(config.shards, config.shard_count)
    delivery = DiscordDelivery(client, dm_rate=dm_rate, dm_burst=dm_burst)
    service = MatchService(store, delivery, PillowRenderer(), settings=settings, clock=clock)
    listen(service, store, clock)  # the ladder rates what ends
    desk = LadderDesk(service, store, delivery, clock=clock, settings=settings)
    runner = LadderRunner(service, store, delivery, clock=clock, settings=settings)
    cups = TournamentDesk(store, service, delivery, clock=clock, settings=settings)
    web = config.web
    if (warning := dead_links(web)) is not None:
        log.warning(warning)
    links = Links(LinkRecords(store), web.url or web_address(web), web.secret)
    if web.enabled:
        service.link_with(links)
    app = App(
        service,
        desk,
        cups,
        threads=delivery,
        links=links if web.enabled else None,
        activity=config.activity.enabled,
    )
    sweeper = Sweeper(app.sweeping, client)
    delivery.sweeper = sweeper
    delivery.forms = app.setup.current
    event_sweeper = EventSweeper(cups.events, client)
    cups.events.flow.watchers.append(event_sweeper.after)
    handled = Handled()
    if config.shared:  # alone, the interactions taken are remembered in memory
        handled.sharing = service.records.first_seen
    responder = Responder(buttons, handled, sweeper, app.languages, event_sweeper)
    client.install(Handlers(app, responder), delivery)
    proxies = Proxies.of(web.trusted_proxies)
    discord = activity_api(config)
    board = (
        WebBoard(service, links, web.host, web.port, proxies=proxies, discord=discord)
        if web.enabled
        else None
    )
    return Bot(
        config, store, service, runner, cups, app, client, delivery, sweeper, event_sweeper,
        links, board,
    )  # fmt: skip


def activity_api(config: Config) -> DiscordApi | None:
    """What the web board signs an Activity's users in with (None: TORA_ACTIVITY=off)."""
    activity = config.activity
    if not activity.enabled:
        return None
    return DiscordApi(config.api_base, activity.client_id, activity.client_secret, config.token)


def dead_links(web: WebConfig) -> str | None:
    """What to tell the admin when the web board's links would name an address no player can
    open: every address (``0.0.0.0``, ``::``, as in the Docker image) without TORA_WEB_URL."""
    if not web.enabled or web.url is not None or web.host not in ("0.0.0.0", "::"):
        return None
    return (
        f"the web board's links name {web_address(web)}, which no player can open: set "
        "TORA_WEB_URL to its public address (docs/DEPLOY.md)"
    )


def web_address(web: WebConfig) -> str:
    """Where the web board is served, as its links give it when TORA_WEB_URL is unset."""
    host = f"[{web.host}]" if ":" in web.host else web.host
    return f"http://{host}:{web.port}"
