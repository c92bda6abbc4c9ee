"""The caps that count across channels (a player's and a server's waiting challenges, a
player's and a server's matches against the AI) hold where several processes share the
database: the check and the opening it allows are made by one process at a time. Each test
lets the first process pass the check, then sends the second in before it opens anything
(hooks, no sleeps): the second either waits for it or, before the fix, passed the check too."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
from ladder_fixtures import GUILD, desk_of, runner_of

from bot.ladder import runner as runner_module
from bot.service import (
    GuildSettings,
    Place,
    Refused,
    Settings,
    Terms,
    User,
    lobby,
    robots,
    save_guild,
)
from bot.service.testing import Harness, ManualClock
from storage import Config, DatabaseUnavailable
from storage.hosting.sharing import Sharing

ANN, BOB = User(1, "ann"), User(2, "bob")
HOUR = 3600.0
CAPS = ("server:", "player:")  # the leases of the caps' locks


@contextlib.asynccontextmanager
async def two_processes(db: Config, **caps: Any) -> AsyncIterator[tuple[Harness, Harness]]:
    """Two bot processes sharing one database and a clock, with the settings ``caps``."""
    clock = ManualClock()
    shared = Settings(
        burst=1000, every=0.001, ai_processes=0, ai_seconds=0.05, poll_seconds=1.0, **caps
    )
    first, second = (Harness(db, settings=shared, clock=clock) for _ in range(2))
    await first.open()
    await second.open()
    try:
        yield first, second
    finally:
        await first.close()
        await second.close()


class Overlap:
    """Holds the first caller of the checks ``checks`` (a module and a function's name
    each) once it passed, until a second caller has passed one too or found the check held
    by another process (a lease refused)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, *checks: tuple[object, str]) -> None:
        self.checked, self.second = asyncio.Event(), asyncio.Event()
        for module, name in checks:
            monkeypatch.setattr(module, name, self._holding_first(getattr(module, name)))
        claim = Sharing.claim

        async def claiming(sharing: Sharing, lease: str, now: float, seconds: float) -> bool:
            taken = await claim(sharing, lease, now, seconds)
            if not taken and self.checked.is_set() and lease.startswith(CAPS):
                self.second.set()
            return taken

        monkeypatch.setattr(Sharing, "claim", claiming)

    def _holding_first(self, check: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        async def holding_first(*args: Any, **kwargs: Any) -> Any:
            passed = await check(*args, **kwargs)
            if self.checked.is_set():
                self.second.set()
            else:
                self.checked.set()
                await self.second.wait()
            return passed

        return holding_first

    async def race(
        self, first: Callable[[], Awaitable[Any]], second: Callable[[], Awaitable[Any]]
    ) -> list[Any]:
        """``first`` held past its check, then ``second``; what each gave or raised."""
        one = asyncio.create_task(first())
        await self.checked.wait()
        two = asyncio.create_task(second())
        return list(await asyncio.gather(one, two, return_exceptions=True))


async def test_a_player_s_challenges_to_the_ai_through_two_processes_keep_within_their_cap(
    db: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: the player's lock was this process's alone, so ann, in two servers
    held by two processes, got two matches against the AI where one may have one."""
    overlap = Overlap(monkeypatch, (robots, "check_challenge"))
    terms = Terms(game="torishogi", turn_seconds=HOUR)
    async with two_processes(db, ai_matches=1) as (first, second):
        one, two = await overlap.race(
            lambda: first.running.challenge_ai(Place(1, 100), ANN, "easy", terms),
            lambda: second.running.challenge_ai(Place(2, 200), ANN, "easy", terms),
        )
        assert not isinstance(one, Exception), one
        assert isinstance(two, Refused), two
        assert "You already play 1 match against the AI" in str(two)
        assert len(await first.running.matches_of(ANN.id)) == 1


async def test_challenges_in_one_server_through_two_processes_keep_within_its_cap(
    db: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: the server's lock was this process's alone, so two challenges that
    reached two processes (a shard handed over while the first was under way) both passed
    the check of a server that may have one waiting."""
    overlap = Overlap(monkeypatch, (lobby, "check_challenge"))
    async with two_processes(db, guild_challenges=1) as (first, second):
        one, two = await overlap.race(
            lambda: first.running.challenge(Place(1, 100), ANN),
            lambda: second.running.challenge(Place(1, 101), BOB),
        )
        assert not isinstance(one, Exception), one
        assert isinstance(two, Refused), two
        assert "This server already has 1 challenge waiting" in str(two)
        mine, everyone = await first.store.hosting.in_phase(1, "challenge", ANN.id)
        assert (mine, everyone) == (1, 1)


async def test_the_ladder_s_ai_fill_and_a_challenge_to_the_ai_keep_within_the_server_s_cap(
    db: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: the ladder's AI fill read the server's room for matches against the AI
    and opened its pairings under no lock, so a challenge to the AI made meanwhile (here
    through the other process) took the same room: two matches where the server allows
    one."""
    overlap = Overlap(monkeypatch, (runner_module, "ai_room"), (robots, "check_challenge"))
    async with two_processes(db, guild_ai_matches=1) as (first, second):
        await save_guild(first.store, GUILD, GuildSettings(ai_fill_after=2 * HOUR))
        await desk_of(first).join_queue(Place(GUILD, 100), ANN, "torishogi")
        first.clock.advance(3 * HOUR)
        tick, challenge = await overlap.race(
            runner_of(first).tick,
            lambda: second.running.challenge_ai(
                Place(GUILD, 200), BOB, "easy", Terms(game="torishogi", turn_seconds=HOUR)
            ),
        )
        assert not isinstance(tick, Exception), tick
        assert isinstance(challenge, Refused), challenge
        assert await first.store.live_ai_matches(GUILD) == 1


async def test_a_challenge_made_is_answered_as_made_when_its_lease_cannot_be_given_back(
    db: Config, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: the database out of reach just after the challenge was saved, giving
    the server's lease back failed, and the player was answered with that error for a
    challenge that was posted (a second try then refused: the channel is busy). The lease
    runs out by itself."""

    async def unreachable(sharing: Sharing, name: str) -> None:
        raise DatabaseUnavailable("the database is out of reach (simulated)")

    async with two_processes(db) as (first, _second):
        monkeypatch.setattr(Sharing, "release", unreachable)
        reply = await first.running.challenge(Place(1, 100), ANN)
        assert reply.text.startswith("Your challenge is posted"), reply.text
        assert await first.store.hosting.live_in_channel(100) is not None
