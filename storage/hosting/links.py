"""``Store.links``: what the web board's private links need kept (docs/WEB.md).

A player's link names a hosted match, a side and a *generation*, signed with a secret. Each
(match, side) has a generation, the first (1) until the player asks for a new link: that
bumps it, and every link of an older generation refuses. The secret is the operator's
(``TORA_WEB_SECRET``) or, when none is set, one made at first use and kept here, so that
every process sharing the database signs and checks alike.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules import Side

from ..backends.sql import Connection, ReadConnection, Reader, Writes, can_be_id
from .hosted import ENDED

FIRST_GENERATION = 1


@dataclass(frozen=True)
class LinkState:
    """What checking a link reads of its match: whether it has ended, and the side's current
    generation."""

    ended: bool
    generation: int


class Links:
    def __init__(self, writer: Writes, read: Reader) -> None:
        self._writer = writer
        self._read = read

    async def state(self, hosted_id: int, side: Side) -> LinkState | None:
        """The match's state for a link of ``side`` (None: there is no such hosted match)."""
        if not can_be_id(hosted_id):
            return None

        async def read(db: ReadConnection) -> LinkState | None:
            rows = list(
                await db.execute_fetchall(
                    "SELECT h.phase, w.generation FROM hosted_matches h"
                    " LEFT JOIN web_links w ON w.hosted_id = h.id AND w.side = ?"
                    " WHERE h.id = ?",
                    (side.letter, hosted_id),
                )
            )
            if not rows:
                return None
            phase, generation = rows[0]
            return LinkState(phase == ENDED, FIRST_GENERATION if generation is None else generation)

        return await self._read(read)

    async def renew(self, hosted_id: int, side: Side) -> int:
        """Move ``side``'s links of the match on by one generation: the new one."""

        def job(conn: Connection) -> int:
            row = conn.execute(
                "INSERT INTO web_links (hosted_id, side, generation) VALUES (?, ?, ?)"
                " ON CONFLICT (hosted_id, side) DO UPDATE"
                " SET generation = web_links.generation + 1 RETURNING generation",
                (hosted_id, side.letter, FIRST_GENERATION + 1),
            ).fetchone()
            return int(row[0])

        return await self._writer.run(job)

    async def secret(self, fresh: str) -> str:
        """PRIVATE: the kept secret; ``fresh`` becomes it if none is kept yet (the first
        process to ask wins, and every other gets the same)."""

        def job(conn: Connection) -> str:
            conn.execute(
                "INSERT INTO web_secret (id, secret) VALUES (1, ?) ON CONFLICT (id) DO NOTHING",
                (fresh,),
            )
            return str(conn.execute("SELECT secret FROM web_secret WHERE id = 1").fetchone()[0])

        return await self._writer.run(job)
