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


async def test_an_abort_that_can_no_longer_be_done_is_refused_before_its_confirmation(
    h: Harness,
) -> None:
    """ann and bob have played the first round of their ToriShogi match, so it can no
    longer be aborted. /tora-match abort still asks "Abort match 1 against bob? It ends
    without a result, unrated." with Abort/Keep buttons, and only the click is refused
    ("The first round is complete..."). rO's fix (``CONFIRMED_PHASES``: refused at once,
    saying what to do) looks at the phase alone; an abort the service will refuse should be
    refused at once too, without a button that can only fail."""
    from bot.app.actions import ChallengeOptions
    from bot.app.callers import Caller

    act = Actions(h.service, Threads())
    ann, bob = Caller(ANN, GUILD, 100), Caller(BOB, GUILD, 100)
    await act.challenge(ann, BOB, ChallengeOptions(game="torishogi"))
    await act.accept(bob, None)
    place = Place(GUILD, 100)
    for user, move in ((ANN, "e4e5"), (BOB, "d6e5")):
        await h.service.play(place, user, move)
        await h.service.end_turn(place, user)
    answer = await act.agree(ann, None, "abort")
    assert "first round is complete" in answer.text, answer.text
