"""A started match for the service's tests: ann against bob in one channel; and a wait for
what the service's background work brings about."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from bot.service import MatchService, Place, User

HERE, ANN, BOB = Place(1, 100), User(1, "ann"), User(2, "bob")


async def started(service: MatchService) -> None:
    """A match between ann and bob, both setups made: ann to play."""
    await service.challenge(HERE, ANN, BOB)
    await service.accept(HERE, BOB)
    await service.setup(HERE, ANN, {"strategy": "aggressive"})
    await service.setup(HERE, BOB, {"strategy": "defensive"})


async def until(condition: Callable[[], object], seconds: float = 10.0) -> None:
    """Wait (10 ms at a time, ``seconds`` at most) until ``condition()`` holds."""

    async def wait() -> None:
        while not condition():
            await asyncio.sleep(0.01)

    await asyncio.wait_for(wait(), seconds)
