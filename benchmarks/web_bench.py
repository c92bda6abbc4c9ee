"""Web board figures: the aiohttp server (``bot.web``) on a real SQLite file, the match
service behind it in the same process (as ``python -m bot`` runs them), HTTP through
aiohttp's client on the loopback.

- **Page load**: a spectator opening a match page: the HTML, the first state JSON, the
  board picture, one after the other (p99 of repeated loads of different matches).
- **Click to staged**: 50 live short-board matches, each watched by its acting player's,
  its opponent's and a spectator's open event stream, a Poisson stream of 25 requests/s
  over them from their players' pages (``POST /api/me/act`` of a legal action read from
  the player's state, the new board picture it names fetched as the page does, then its
  undo, so that every match always has one to stage); the latency of each act's POST,
  under that load. The pages are a second process, as browsers are. Target <= 100 ms p99.
- **Turn end to 200 spectators**: 200 open event streams on one match; a turn is ended
  through the service (as a Discord command does), and each stream's latency runs from the
  call to its ``state`` event. Target <= 500 ms p99.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import random
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp

from bot.app.links import Links
from bot.service import LinkRecords, MatchService, Place, Settings, Terms, User
from bot.service.testing import DigestRenderer
from bot.web import WebBoard
from bot.web.guard import Allowance, Limits
from rules import Side
from storage import Config, Store

from .common import Figure, poisson_arrivals
from .service_bench import DroppingDelivery

MATCHES = 50
RATE = 25.0
SECONDS = 12.0
LOADS = 200
STREAMS = 200
TURNS = 8
CLICK_TARGET_MS = 100.0
STREAM_TARGET_MS = 500.0
OPEN = Allowance(10**9, 1e-9)  # the rate limits out of the way: one client sends it all


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


class World:
    """The service, its store and the web board, with ``MATCHES`` matches under way."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.places: list[Place] = []
        self.players: list[tuple[User, User]] = []
        self.hosted: list[int] = []

    async def open(self) -> None:
        self.store = await Store.open(Config(path=self.workdir / "web.sqlite3"))
        settings = Settings(burst=10**6, every=1e-6, ai_processes=0)
        self.service = MatchService(
            self.store, DroppingDelivery(), DigestRenderer(), settings=settings
        )
        await self.service.start()
        self.links = Links(LinkRecords(self.store), "http://127.0.0.1")
        limits = Limits(reads=OPEN, actions=OPEN, streams=10**6)
        self.web = WebBoard(self.service, self.links, "127.0.0.1", 0, limits=limits)
        await self.web.start()
        for n in range(MATCHES):
            await self._start(n)

    async def _start(self, n: int) -> None:
        place = Place(1, 1000 + n)
        first, second = User(10 + 2 * n, f"p{2 * n}"), User(11 + 2 * n, f"p{2 * n + 1}")
        await self.store.save_player(second.id, second.name)
        await self.service.challenge(place, first, second, Terms(options={"board": "short"}))
        await self.service.accept(place, second)
        await self.service.setup(place, first, {"strategy": "aggressive"})
        await self.service.setup(place, second, {"strategy": "defensive"})
        live = await self.service.records.live_in_channel(place.channel_id)
        assert live is not None
        self.places.append(place)
        self.players.append((first, second))
        self.hosted.append(live.id)

    async def close(self) -> None:
        await self.web.stop()
        await self.service.stop()
        await self.store.close()


async def _page_load(world: World, http: aiohttp.ClientSession) -> list[float]:
    base = world.web.url
    out = []
    for n in range(LOADS):
        match = world.hosted[n % MATCHES]
        start = time.perf_counter()
        async with http.get(f"{base}/m/{match}") as page:
            await page.read()
        async with http.get(f"{base}/api/m/{match}") as state:
            board = (await state.json())["board"]["url"]
        async with http.get(base + board if board.startswith("/") else board) as png:
            await png.read()
        out.append((time.perf_counter() - start) * 1000)
    return out


async def _me(http: aiohttp.ClientSession, base: str, token: str) -> dict[str, Any]:
    async with http.get(f"{base}/api/me", headers={"Authorization": f"Bearer {token}"}) as r:
        state: dict[str, Any] = await r.json()
        return state


@dataclass(frozen=True)
class Pages:
    """What the click load's process needs: the server's address, each match's acting
    player's link and its opponent's."""

    base: str
    acting: list[str]
    waiting: list[str]
    matches: list[int]


async def _clicks(world: World) -> list[float]:
    """The click load, from its own process as browsers are: the server's loop pays for
    serving the pages, not for being them."""
    acting, waiting = [], []
    for match in world.hosted:  # the challenger is to act in each
        acting.append(await world.links.link_for(match, Side.CHALLENGER))
        waiting.append(await world.links.link_for(match, Side.OPPOSITION))
    pages = Pages(world.web.url, acting, waiting, world.hosted)
    loop = asyncio.get_running_loop()
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        return await loop.run_in_executor(pool, _click_load, pages)


def _click_load(pages: Pages) -> list[float]:
    return asyncio.run(_click_pages(pages))


async def _click_pages(pages: Pages) -> list[float]:
    """Every match watched by both players' pages and a spectator's; act-then-undo on
    random matches at ``RATE``, each staged action's picture fetched as the page does; the
    latency of each act's POST."""
    base = pages.base
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as http:
        watching = []
        for n, match in enumerate(pages.matches):
            await _me(http, base, pages.acting[n])
            for token in (pages.acting[n], pages.waiting[n], None):
                url = f"{base}/api/me/events" if token else f"{base}/api/m/{match}/events"
                ready = asyncio.Event()
                watching.append(asyncio.create_task(_stream(http, url, [], ready, token)))
                await ready.wait()
        latencies = await _act_and_undo(http, pages)
        for task in watching:
            task.cancel()
        await asyncio.gather(*watching, return_exceptions=True)
    return latencies


async def _act_and_undo(http: aiohttp.ClientSession, pages: Pages) -> list[float]:
    base, tokens = pages.base, pages.acting
    locks = [asyncio.Lock() for _ in tokens]
    staged = [False] * len(tokens)
    rng = random.Random(5)
    latencies: list[float] = []
    loop = asyncio.get_running_loop()

    async def request(n: int) -> None:
        async with locks[n]:
            head = {"Authorization": f"Bearer {tokens[n]}"}
            state = await _me(http, base, tokens[n])
            if staged[n]:
                async with http.post(
                    f"{base}/api/me/undo", json={"stamp": state["turn"]}, headers=head
                ) as r:
                    await r.read()
                staged[n] = False
                return
            actions = [a for c in state.get("choices") or [] for a in c["actions"]]
            body = {"stamp": state["turn"], "notation": rng.choice(actions)["notation"]}
            sent = loop.time()
            async with http.post(f"{base}/api/me/act", json=body, headers=head) as r:
                answer = await r.json()
            if r.status != 200:
                return
            staged[n] = True
            latencies.append((loop.time() - sent) * 1000)
            async with http.get(base + answer["board"]["url"], headers=head) as picture:
                await picture.read()  # what the page loads next, as part of the load

    tasks = []
    async for _at in poisson_arrivals(RATE, SECONDS, random.Random(9)):
        tasks.append(asyncio.create_task(request(rng.randrange(len(tokens)))))
    await asyncio.gather(*tasks)
    return latencies


async def _stream(
    http: aiohttp.ClientSession,
    url: str,
    seen: list[float],
    ready: asyncio.Event,
    token: str | None = None,
) -> None:
    head = {} if token is None else {"Authorization": f"Bearer {token}"}
    timeout = aiohttp.ClientTimeout(total=None)
    async with http.get(url, headers=head, timeout=timeout) as response:
        ready.set()
        async for line in response.content:
            if line.startswith(b"event: state"):
                seen.append(time.perf_counter())


async def _spectators(world: World, http: aiohttp.ClientSession) -> list[float]:
    """End turns through the service; each open stream's delay to its ``state`` event."""
    match, place, players = world.hosted[0], world.places[0], world.players[0]
    url = f"{world.web.url}/api/m/{match}/events"
    seen: list[list[float]] = [[] for _ in range(STREAMS)]
    readies = [asyncio.Event() for _ in range(STREAMS)]
    tasks = [asyncio.create_task(_stream(http, url, seen[i], readies[i])) for i in range(STREAMS)]
    await asyncio.gather(*(ready.wait() for ready in readies))
    await asyncio.sleep(0.5)  # any first event sent on connecting has arrived
    latencies: list[float] = []
    try:
        for turn in range(TURNS):
            for got in seen:
                got.clear()
            start = time.perf_counter()
            await world.service.end_turn(place, players[turn % 2])
            until = start + 5.0
            while any(not got for got in seen) and time.perf_counter() < until:
                await asyncio.sleep(0.002)
            latencies += [((got[0] if got else until) - start) * 1000 for got in seen]
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return latencies


async def _measure() -> list[Figure]:
    with tempfile.TemporaryDirectory(prefix="tora-web-bench-") as workdir:
        world = World(Path(workdir))
        await world.open()
        connector = aiohttp.TCPConnector(limit=0)
        try:
            async with aiohttp.ClientSession(connector=connector) as http:
                loads = await _page_load(world, http)
                clicks = await _clicks(world)
                streams = await _spectators(world, http)
        finally:
            await world.close()
    return [
        Figure("web: page load (HTML, state JSON, board PNG) p99", p99(loads), "ms"),
        Figure(
            f"web: click to staged p99, {MATCHES} watched matches at {RATE:g}/s",
            p99(clicks),
            "ms",
            CLICK_TARGET_MS,
        ),
        Figure(
            f"web: turn end to {STREAMS} spectator streams p99",
            p99(streams),
            "ms",
            STREAM_TARGET_MS,
        ),
    ]


def run() -> list[Figure]:
    return asyncio.run(_measure())
