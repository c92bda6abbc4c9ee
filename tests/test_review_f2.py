"""Review f2: regressions and half-fixes in today's merges (app, web, render, docs)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from test_frontend_actions import GUILD, Threads, here
from tournament_helpers import ADMIN, HERE, desk_for
from web_world import ANN as WEB_ANN
from web_world import BOB as WEB_BOB
from web_world import HERE as WEB_HERE
from web_world import World

from bot.app.actions import Actions, ClockOptions
from bot.app.boards import Boards
from bot.app.listing import Listing
from bot.app.lookups import Lookups
from bot.ladder.desk import LadderDesk
from bot.service import Place, Terms, User
from bot.service.guild import load_guild
from bot.service.testing import Harness, RecordingThreads

ANN, BOB = User(1, "ann"), User(2, "bob")


@pytest.fixture
async def w(tmp_path: Path):
    async with World(tmp_path / "web.sqlite3") as world:
        yield world


async def _cup(h: Harness) -> Place:
    desk = await desk_for(h)
    await desk.create(HERE, ADMIN, "Cup", "short", 49, admin=True)
    for player in (ANN, BOB):
        await desk.register(HERE, player, "cup")
    await desk.begin(HERE, ADMIN, "Cup", admin=True)
    await h.settle()
    for thread, (_parent, name) in h.threads.opened.items():
        if "ann v bob" in name:
            return Place(HERE.guild_id, thread)
    raise AssertionError(h.threads.opened)
