"""The checks that a copy in memory is current (``Hosting.versions``), read together when
they come while one is being read (``storage.hosting.checks``): each answered exactly (by a
query that started after it was asked), errors and cancellations kept to their own."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest

from storage.hosting.checks import VersionChecks, Versions


class Table:
    """Stored versions, read by a query the test lets finish (``go``)."""

    def __init__(self) -> None:
        self.stored: dict[int, Versions] = {1: (1, 1), 2: (2, None), 3: (3, 3)}
        self.queries: list[list[int]] = []
        self.go = asyncio.Event()
        self.error: Exception | None = None

    async def read_many(self, hosted_ids: Sequence[int]) -> dict[int, Versions]:
        self.queries.append(list(hosted_ids))
        snapshot = {key: self.stored[key] for key in hosted_ids if key in self.stored}
        await self.go.wait()
        if self.error is not None:
            raise self.error
        return snapshot


async def _begun(table: Table, queries: int) -> None:
    """Until ``queries`` queries have begun."""
    while len(table.queries) < queries:
        await asyncio.sleep(0)


async def test_a_check_alone_is_read_at_once_alone() -> None:
    table = Table()
    table.go.set()
    checks = VersionChecks(table.read_many)
    assert await checks.check(1) == (1, 1)
    assert await checks.check(9) is None  # gone
    assert table.queries == [[1], [9]]


async def test_checks_asked_together_are_one_query() -> None:
    table = Table()
    table.go.set()
    checks = VersionChecks(table.read_many)
    found = await asyncio.gather(*(checks.check(n) for n in (1, 2, 3, 1, 9)))
    assert found == [(1, 1), (2, None), (3, 3), (1, 1), None]
    assert table.queries == [[1, 2, 3, 9]]


async def test_a_check_asked_while_a_query_is_under_way_waits_for_the_next() -> None:
    """A change committed after a query began, before a check was asked: the check sees it
    (the query under way might not)."""
    table = Table()
    checks = VersionChecks(table.read_many)
    first = asyncio.create_task(checks.check(1))
    await _begun(table, 1)
    assert table.queries == [[1]]
    table.stored[1] = (2, 2)  # committed meanwhile
    second = asyncio.create_task(checks.check(1))
    third = asyncio.create_task(checks.check(2))
    await asyncio.sleep(0)
    table.go.set()
    assert await first == (1, 1)
    assert await second == (2, 2)
    assert await third == (2, None)
    assert table.queries == [[1], [1, 2]]


async def test_an_error_reaches_the_checks_of_its_query_only() -> None:
    table = Table()
    checks = VersionChecks(table.read_many)
    first = asyncio.create_task(checks.check(1))
    await _begun(table, 1)
    table.error = RuntimeError("the server is gone")
    table.go.set()
    with pytest.raises(RuntimeError):
        await first
    table.error = None
    assert await checks.check(3) == (3, 3)


async def test_a_cancelled_check_leaves_the_others_answered() -> None:
    table = Table()
    checks = VersionChecks(table.read_many)
    first = asyncio.create_task(checks.check(1))
    other = asyncio.create_task(checks.check(2))
    await _begun(table, 1)
    first.cancel()
    table.go.set()
    with pytest.raises(asyncio.CancelledError):
        await first
    assert await other == (2, None)
