"""A started match for the service's tests: ann against bob in one channel; a wait for what
the service's background work brings about; a check that work held up midway counts in
the service's ``busy``; a count of a function's calls; and pictures drawn in a worker."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Iterator
from types import ModuleType
from typing import Any, TypeVar

import pytest

from bot.service import MatchService, Place, User

HERE, ANN, BOB = Place(1, 100), User(1, "ann"), User(2, "bob")
T = TypeVar("T")


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


def gated(
    read: Callable[..., Awaitable[T]], reading: asyncio.Event, going_on: asyncio.Event
) -> Callable[..., Awaitable[T]]:
    """``read``, which says it began (``reading``) and waits for ``going_on``."""

    async def held(*args: object) -> T:
        reading.set()
        await going_on.wait()
        return await read(*args)

    return held


async def busy_while(
    service: MatchService,
    work: Awaitable[object],
    begun: Callable[[], bool],
    go_on: Callable[[], None],
    why: str,
) -> None:
    """``work`` run until ``begun()`` says it is held up: the service is busy then (``why``),
    and no longer once ``go_on()`` has let it finish."""
    under_way = asyncio.ensure_future(work)
    try:
        await until(begun)
        assert service.busy(), why
    finally:
        go_on()
    await under_way
    assert not service.busy()


def calls_counted(monkeypatch: pytest.MonkeyPatch, owner: object, name: str) -> list[int]:
    """A list that grows by one at each call of ``owner.name`` from now on (the function
    still runs): how often work is done, where a test must not time it."""
    calls: list[int] = []
    real = getattr(owner, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, name, counted)
    return calls


@contextlib.contextmanager
def drawn_here(
    monkeypatch: pytest.MonkeyPatch, service: MatchService, *modules: ModuleType
) -> Iterator[list[str]]:
    """Inside, ``service`` draws its pictures in a drawing worker of its own; the list
    names each of ``modules`` whose ``png_bytes`` ran in this process all the same."""
    from bot.service.offload import Offload

    here: list[str] = []
    for module in modules:

        def counted(
            *args: object, _png: Any = module.png_bytes, _name: str = module.__name__
        ) -> bytes:
            here.append(_name)
            return _png(*args)

        monkeypatch.setattr(module, "png_bytes", counted)
    offload = Offload(0, 0, draw_processes=1)
    monkeypatch.setattr(service, "paint", offload.paint)
    try:
        yield here
    finally:
        offload.close()
