"""``Store.sharing``: what lets several bot processes share one database (docs/DEPLOY.md).

- **Leases**: work one process does at a time for all (the ladders' matchmaking, the
  tournaments' catching up, delivering one destination's posts in order) is done by whoever
  holds its lease, until it runs out; a process that died stops renewing, and another takes
  over once it has run out.
- **Interactions**: the ids of the Discord interactions a process has taken, so that one
  delivered twice (to one process or two) has one effect.

Times are the caller's clock (the service's), like every other time the service stores.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass

from ..backends.sql import Connection, Statement, Writes
from ..errors import DatabaseUnavailable

INTERACTIONS_KEPT = 24 * 3600.0  # an interaction's token lives 15 minutes; kept far longer
PRUNE_EVERY = 1000  # interactions taken between two prunings
HOLD_POLL = 0.2  # seconds between two tries of a lease another process holds
log = logging.getLogger(__name__)


def process_name() -> str:
    """Who holds a lease: this host and process, and a nonce that tells restarts apart."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"


def claim(name: str, owner: str, now: float, seconds: float) -> Statement:
    """Take or renew the lease ``name`` for ``owner``: a row if it did (see ``Sharing.claim``)."""
    return (
        "INSERT INTO leases (name, owner, expires_at) VALUES (?, ?, ?)"
        " ON CONFLICT (name) DO UPDATE SET owner = excluded.owner,"
        " expires_at = excluded.expires_at"
        " WHERE leases.owner = excluded.owner OR leases.expires_at <= ?"
        " RETURNING owner",
        (name, owner, now + seconds, now),
    )


def release(name: str, owner: str) -> Statement:
    """Give the lease ``name`` back, if ``owner`` still holds it."""
    return "DELETE FROM leases WHERE name = ? AND owner = ?", (name, owner)


class LeaseHeld(TimeoutError):
    """Another process holds a lease this one waited for (``Sharing.holding``)."""


class LeaseLost(RuntimeError):
    """Another process took a lease this one held: it could not renew it in time (hung, or
    cut off from the database)."""


@dataclass
class Lease:
    """A lease held for a block (``Sharing.holding``), renewed in the background."""

    name: str
    lost: bool = False

    def check(self) -> None:
        """Before an effect outside the database: raise ``LeaseLost`` if it is no longer
        this process's, since the process that took it over does the same work."""
        if self.lost:
            raise LeaseLost(f"another process took {self.name!r}")


class Sharing:
    def __init__(self, writer: Writes) -> None:
        self._writer = writer
        self.owner = process_name()
        self._taken = 0

    async def claim(self, name: str, now: float, seconds: float) -> bool:
        """Take or renew the lease ``name`` for ``seconds``; False while another holds it.
        Taking it again is renewing it, to the same time: one statement that may run twice
        (``Writes.execute``)."""
        return bool(await self._writer.execute(*claim(name, self.owner, now, seconds)))

    @contextlib.asynccontextmanager
    async def holding(
        self,
        name: str,
        clock: Callable[[], float],
        seconds: float = 60.0,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        wait: float | None = None,
    ) -> AsyncIterator[Lease]:
        """Hold the lease ``name`` for the block, waiting (polling) while another process
        holds it: a lock across processes, which a process that dies lets go of once its
        lease runs out. ``LeaseHeld`` after ``wait`` seconds of waiting (None: ``seconds``;
        0: one try). The lease is renewed every third of ``seconds`` (``sleep`` on the
        caller's clock) while the block runs, however long; the block checks the ``Lease``
        before each effect."""
        waited, patience = 0.0, seconds if wait is None else wait
        while not await self.claim(name, clock(), seconds):
            if waited >= patience:
                raise LeaseHeld(f"another process holds {name!r}")
            await asyncio.sleep(HOLD_POLL)
            waited += HOLD_POLL
        lease = Lease(name)
        renewing = asyncio.create_task(self._renew(lease, clock, seconds, sleep))
        try:
            yield lease
        finally:
            renewing.cancel()
            await asyncio.gather(renewing, return_exceptions=True)
            await self._give_back(name)

    async def _renew(
        self,
        lease: Lease,
        clock: Callable[[], float],
        seconds: float,
        sleep: Callable[[float], Awaitable[None]],
    ) -> None:
        """Renew ``lease`` until cancelled, or until another process has taken it. A
        renewal that fails (the database away) is tried again at the next third: the
        lease lasts two more of them, and is lost only if another process takes it."""
        while not lease.lost:
            await sleep(seconds / 3)
            try:
                lease.lost = not await self.claim(lease.name, clock(), seconds)
            except Exception:
                log.warning("could not renew the lease %r; trying again", lease.name, exc_info=True)

    async def _give_back(self, name: str) -> None:
        """Give back a lease held for a block whose work is done: a failure (the database
        out of reach) is logged, not raised, since the work's result stands and the lease
        runs out by itself."""
        try:
            await self.release(name)
        except DatabaseUnavailable:
            log.warning("could not give %r back; it runs out by itself", name, exc_info=True)

    async def release(self, name: str) -> None:
        """Give a lease back before it runs out (only if this process still holds it)."""
        await self._writer.execute(*release(name, self.owner))

    async def release_all(self) -> None:
        """Give back every lease and clock this process holds: it is stopping cleanly, and
        the others need not wait for them to run out."""

        def job(conn: Connection) -> None:
            conn.execute("DELETE FROM leases WHERE owner = ?", (self.owner,))
            conn.execute(
                "UPDATE hosted_matches SET claimed_by = NULL, claimed_until = NULL"
                " WHERE claimed_by = ?",
                (self.owner,),
            )

        await self._writer.run(job)

    async def first_seen(self, interaction_id: int, now: float) -> bool:
        """Whether no process has taken this interaction before (it is taken now)."""
        self._taken += 1
        prune = self._taken % PRUNE_EVERY == 0

        def job(conn: Connection) -> bool:
            if prune:
                conn.execute(
                    "DELETE FROM interactions WHERE seen_at < ?", (now - INTERACTIONS_KEPT,)
                )
            row = conn.execute(
                "INSERT INTO interactions (id, seen_at) VALUES (?, ?)"
                " ON CONFLICT (id) DO NOTHING RETURNING id",
                (interaction_id, now),
            ).fetchone()
            return row is not None

        return await self._writer.run(job)
