"""A soak test: the AI players play each other, every game in turn, through the whole host
(match service, SQLite, the real renderer, the Discord layer, the local emulator) for a
bounded time (``TORA_SOAK_SECONDS``, 15 s by default; a longer soak sets it). Every match ends
(TORA has no limit on turns, and engines this fast may circle for long, so a match still going
at ``TURN_CAP`` turns is called off by an admin and checked the same way), no turn an engine
chose is refused, and every record posted at the end replays, by the rules alone, to the
result stored for its match."""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
from pathlib import Path

import pytest

from bot.service import Place, Settings, Terms, User
from bot.service.robots import robot
from harness.stage import Stage
from rules import game_type
from rules.records import game_of

SOAK_SECONDS = float(os.environ.get("TORA_SOAK_SECONDS", "15"))
TURN_CAP = 120  # turns of a match before an admin calls it off
HOUR = 3600.0
MATCHES = itertools.cycle(
    [
        (Terms(game="torishogi", rated=False, turn_seconds=HOUR), "hard", "easy"),
        (Terms(game="torii", rated=False, turn_seconds=HOUR), "normal", "easy"),
        (Terms(options={"board": "short"}, rated=False, turn_seconds=HOUR), "hard", "easy"),
        (Terms(game="torii", options={"powers": False}, turn_seconds=HOUR), "easy", "hard"),
    ]
)
SETTINGS = Settings(burst=1000, every=0.001, ai_seconds=0.02, ai_processes=1)


@pytest.mark.slow
async def test_ai_players_play_every_game_through_the_whole_host(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    async with Stage(tmp_path, ("admin",), settings=SETTINGS, channels=3) as stage:
        assert stage.bot is not None and stage.bot.store is not None
        service, store = stage.bot.service, stage.bot.store
        admin = User(stage.user["admin"], "admin")
        loop = asyncio.get_running_loop()
        until = loop.time() + SOAK_SECONDS
        running: dict[int, int] = {}  # channel -> hosted match id
        checked: list[str] = []
        while running or loop.time() < until:
            for channel in stage.channels:
                live = await store.hosting.live_in_channel(channel)
                if live is not None and live.turn > TURN_CAP:
                    await service.cancel(Place(stage.guild, channel), admin, admin=True)
                    live = None
                if live is None and channel in running:
                    checked.append(await _check(stage, channel, running.pop(channel)))
                if live is None and loop.time() < until:
                    terms, first, second = next(MATCHES)
                    hosted = await service.open_match(
                        Place(stage.guild, channel), robot(first), robot(second), terms
                    )
                    running[channel] = hosted.id
            assert loop.time() < until + 120, f"matches still running: {running}"
            await asyncio.sleep(0.2)
        complaints = [r for r in caplog.records if r.name.startswith(("bot.", "storage."))]
        assert [r.getMessage() for r in complaints if r.levelno >= logging.WARNING] == []
        games = {line.split()[0] for line in checked}
        assert games >= {"tora", "torishogi", "torii"}, checked
        assert len(checked) >= 4, checked


async def _check(stage: Stage, channel: int, hosted_id: int) -> str:
    """The match's end as posted: its record replays to the stored result."""
    assert stage.bot is not None and stage.bot.store is not None
    store = stage.bot.store
    hosted = await store.hosting.latest_in_channel(channel, with_game=True)
    assert hosted is not None and hosted.id == hosted_id
    assert hosted.match_id is not None
    wanted = f"-match-{hosted.match_id}."
    text = await stage.emu.wait_until(
        lambda: next(
            (r for m in stage.emu.public_messages(channel) if (r := _record_of(m, wanted))), None
        ),
        30,
    )
    name = game_of(text, "tora")
    replayed = game_type(name).read_record(text)
    stored = (await store.load(hosted.match_id)).game
    assert replayed.outcome() == stored.outcome()
    assert len(replayed.turns) == len(stored.turns)
    return f"{name} {stored.outcome() or 'called off'}"


def _record_of(message: object, wanted: str) -> str | None:
    """The record attached to ``message`` whose file name holds ``wanted``."""
    for attached in getattr(message, "files", ()):
        if wanted in attached.name:
            return attached.data.decode()
    return None
