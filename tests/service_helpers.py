"""A started match for the service's tests: ann against bob in one channel."""

from __future__ import annotations

from bot.service import MatchService, Place, User

HERE, ANN, BOB = Place(1, 100), User(1, "ann"), User(2, "bob")


async def started(service: MatchService) -> None:
    """A match between ann and bob, both setups made: ann to play."""
    await service.challenge(HERE, ANN, BOB)
    await service.accept(HERE, BOB)
    await service.setup(HERE, ANN, {"strategy": "aggressive"})
    await service.setup(HERE, BOB, {"strategy": "defensive"})
