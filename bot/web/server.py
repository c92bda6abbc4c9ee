"""The web board's server: an ``aiohttp`` application on the bot's own event loop, started
after the match service and stopped before it (``bot.build``'s wiring), serving the match
pages, the player pages and their API (docs/WEB.md)."""

from __future__ import annotations

import logging
from typing import Any

from aiohttp import web, web_response
from aiohttp.http_exceptions import HttpProcessingError

from bot.app.boards import Boards
from bot.app.links import Links
from bot.app.seats import Seats
from bot.service import MatchService
from rules import Side

from .activity import Activity
from .discord_api import DiscordApi
from .events import Hub, version_or_closed
from .forwarded import NO_PROXIES, Proxies
from .guard import HEADERS, MOST_BODY, NOWHERE, PROXIES, AccessLog, Limits, guard
from .passes import Passes
from .player import Player
from .public import Public
from .site import Site

log = logging.getLogger("bot.web")
access = logging.getLogger("bot.web.access")
http = logging.getLogger("bot.web.http")  # aiohttp's connections' (a request it cannot read)
SHUTDOWN_SECONDS = 5.0  # how long a stop waits for requests under way
# How long an idle connection (between requests) is kept: aiohttp's own 3630 s let every
# connection a page or a script opened and left hold a socket for an hour. A live stream is
# a request under way, not idle (its heartbeats come every 15 s).
IDLE_SECONDS = 75.0


class ClientsJunk(logging.Filter):
    """aiohttp logs a request it could not parse (a scanner's junk, a header of control
    bytes) as an error, with its traceback and the bytes sent, one for each at the network's
    pace: the client's doing, nothing for the operator to fix, and it buried the bot's own
    errors. Such a record becomes one debug line, without the bytes: kept only where the
    logger logs at debug level (the logger's level was checked for an error's)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not (record.exc_info and isinstance(record.exc_info[1], HttpProcessingError)):
            return True
        record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        record.exc_info = record.exc_text = None
        return logging.getLogger(record.name).isEnabledFor(logging.DEBUG)


http.addFilter(ClientsJunk())
# The Server header of the answers aiohttp makes alone, before any middleware sets the
# guard's (a request it could not parse: a scanner's junk), named Python's and aiohttp's
# versions to whoever sent junk to learn them; it is the guard's name too (a name aiohttp
# imports, and does not export: hence the ignore).
web_response.SERVER_SOFTWARE = HEADERS["Server"]  # type: ignore[attr-defined]


class CannotListen(RuntimeError):
    """The host and port cannot be listened on; the message says what to change."""


class WebBoard:
    """The server for ``service``'s matches, its links checked by ``links``. ``start``
    binds ``host`` and ``port`` (port 0: a free one; ``port`` says which then); the client
    addresses its limits count by come from ``X-Forwarded-For`` when the peer is one of
    ``proxies``; its pictures are drawn by the service's drawing workers. With ``discord``
    (the application's API credentials) it serves the Activity's page and sign-in too, and
    counts the requests of a signed-in Activity's page per Discord user (``passes``)."""

    def __init__(
        self,
        service: MatchService,
        links: Links,
        host: str,
        port: int,
        *,
        limits: Limits | None = None,
        poll: float | None = None,
        heartbeat: float | None = None,
        proxies: Proxies = NO_PROXIES,
        discord: DiscordApi | None = None,
    ) -> None:
        self.host = host
        self.proxies = proxies
        boards = Boards(service)
        timing: dict[str, Any] = {"poll": poll, "heartbeat": heartbeat}
        hub = Hub(service, self._version, **{k: v for k, v in timing.items() if v is not None})
        passes = None if discord is None else Passes(discord.client_secret)
        self.site = Site(boards, Seats(service, boards), links, hub, limits or Limits(), passes)
        self.port = port
        self.discord = discord  # None: no Activity (TORA_ACTIVITY=off)
        self._records = service.records
        self._runner: web.AppRunner | None = None

    async def _version(self, match: int, side: Side | None) -> str:
        boards = self.site.boards
        if side is None:
            return await version_or_closed(lambda: boards.public_kept(match))
        # a stream's check, not the player looking: it holds back no reminder
        return await version_or_closed(lambda: boards.mine_kept(match, side, seen=False))

    def application(self) -> web.Application:
        """The aiohttp application (tests serve it with aiohttp's test client)."""
        app = web.Application(middlewares=[guard], client_max_size=MOST_BODY)
        app[PROXIES] = self.proxies
        app[NOWHERE] = self.site.missing
        app.add_routes(Public(self.site).routes())
        app.add_routes(Player(self.site).routes())
        if self.discord is not None and self.site.passes is not None:
            activity = Activity(self.site, self.discord, self._records, self.site.passes)
            app.add_routes(activity.routes())
        else:  # the Activity's page is at ``/``, where Discord opens it
            app.add_routes([web.get("/", self.site.front)])
        app.add_routes([web.get("/static/{name}", self.site.file)])
        app.add_routes([web.get("/static/{build}/{name}", self.site.file)])
        app.add_routes([web.get("/api/words/{language}", self.site.words)])
        app.on_startup.append(self._started)
        app.on_shutdown.append(self._stopping)
        return app

    async def _started(self, _app: web.Application) -> None:
        self.site.hub.start()

    async def _stopping(self, _app: web.Application) -> None:
        await self.site.hub.stop()

    @property
    def url(self) -> str:
        """Where its pages are served (the links' own address may differ: TORA_WEB_URL)."""
        host = self.host
        return f"http://{'[' + host + ']' if ':' in host else host}:{self.port}"

    async def start(self) -> None:
        runner = web.AppRunner(
            self.application(),
            access_log_class=AccessLog,
            access_log=access,
            logger=http,
            shutdown_timeout=SHUTDOWN_SECONDS,
            keepalive_timeout=IDLE_SECONDS,
        )
        await runner.setup()
        try:
            await web.TCPSite(runner, self.host, self.port).start()
        except OSError as exc:
            await runner.cleanup()
            raise CannotListen(
                f"The web board cannot listen on {self.host}:{self.port} ({exc.strerror}). Set "
                "TORA_WEB_PORT to a free port (TORA_WEB_HOST to this machine's address), or "
                "TORA_WEB=off to run without it."
            ) from None
        self._runner = runner
        self.port = runner.addresses[0][1]  # the port a port 0 was given
        log.info("web board serving", extra={"url": self.url})

    async def stop(self) -> None:
        """End the live streams, then the requests under way, then the listening socket."""
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
