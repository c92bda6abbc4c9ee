"""A match service with its web board, for the web API's tests: a harness (manual clock,
recording delivery) on a SQLite file, the private links, and the web application served
by aiohttp's test client. Helpers start matches and act as the pages do."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient, TestServer

from bot.app.links import Links
from bot.service import LinkRecords, MatchService, Place, Settings, Terms, User
from bot.service.testing import Harness
from bot.web import Limits, WebBoard
from bot.web.discord_api import DiscordApi
from rules import Side
from storage import Config

HERE = Place(guild_id=1, channel_id=100)
ANN, BOB = User(1, "ann"), User(2, "bob")
SECRET = "s" * 32


class World:
    """``async with World(tmp_path) as w``: ``w.client`` is the web board's test client."""

    def __init__(
        self,
        where: Path | Config,
        *,
        limits: Limits | None = None,
        heartbeat: float = 30.0,
        poll: float = 0.02,
        settings: Settings | None = None,
        discord: DiscordApi | None = None,
    ) -> None:
        config = where if isinstance(where, Config) else Config(path=where)
        self.h = Harness(config, settings=settings)
        self.limits = limits
        self.heartbeat, self.poll = heartbeat, poll
        self.discord = discord  # an Activity's sign-in asks it (None: no Activity)
        self.client: TestClient | None = None

    async def __aenter__(self) -> World:
        service = await self.h.open()
        assert self.h.store is not None
        self.links = Links(LinkRecords(self.h.store), "http://board.test", SECRET)
        self.web = WebBoard(
            service,
            self.links,
            "127.0.0.1",
            0,
            limits=self.limits,
            poll=self.poll,
            heartbeat=self.heartbeat,
            discord=self.discord,
        )
        self.client = TestClient(TestServer(self.web.application()))
        await self.client.start_server()
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self.client is not None:
            await self.client.close()
        await self.h.close()

    @property
    def service(self) -> MatchService:
        assert self.h.service is not None
        return self.h.service

    # ---- matches ---------------------------------------------------------------------------
    async def playing(self, terms: Terms | None = None, place: Place = HERE) -> int:
        """A match of ``terms`` (TORA's short board by default) under way: its number."""
        reply = await self.service.challenge(place, ANN, BOB, terms or Terms())
        await self.service.accept(place, BOB)
        assert reply.stamp is not None
        hosted = await self.service.records.hosted(reply.stamp.match)
        if hosted is not None and hosted.phase == "setup":  # TORA's: a strategy each
            for user in (ANN, BOB):
                await self.service.setup(place, user, {"strategy": "aggressive"})
        return reply.stamp.match

    async def token(self, match: int, side: Side) -> str:
        return await self.links.link_for(match, side)

    async def me(self, match: int, side: Side) -> dict[str, Any]:
        answer = await self.get("/api/me", await self.token(match, side))
        assert answer[0] == 200, answer
        return answer[1]

    # ---- requests --------------------------------------------------------------------------
    async def get(self, path: str, token: str | None = None) -> tuple[int, Any]:
        assert self.client is not None
        headers = {} if token is None else {"Authorization": f"Bearer {token}"}
        async with self.client.get(path, headers=headers) as answer:
            if answer.content_type == "application/json":
                return answer.status, await answer.json()
            return answer.status, await answer.read()

    async def post(
        self, verb: str, token: str | None, body: Any, raw: bytes | None = None
    ) -> tuple[int, dict[str, Any], dict[str, str]]:
        assert self.client is not None
        headers = {"Content-Type": "application/json"}
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        async with self.client.post(
            f"/api/me/{verb}", json=None if raw is not None else body, data=raw, headers=headers
        ) as answer:
            return answer.status, await answer.json(), dict(answer.headers)

    async def first_action(self, match: int, side: Side) -> str:
        """The first legal action the player's page offers (not a search: never refused)."""
        state = await self.me(match, side)
        return next(
            action["notation"]
            for group in state["choices"]
            for action in group["actions"]
            if not action["label"].startswith("search")
        )

    async def quiet(self) -> None:
        await self.h.settle()
        await asyncio.sleep(0)
