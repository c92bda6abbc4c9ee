"""What the web board's private links keep in the store (``storage.hosting.links``), for
the application layer's ``bot.app.links``, which signs and checks them."""

from __future__ import annotations

from rules import Side
from storage import LinkState, Store


class LinkRecords:
    """Per (hosted match, side) the links' generation, and the kept signing secret."""

    def __init__(self, store: Store) -> None:
        self._store = store

    async def state(self, hosted_id: int, side: Side) -> LinkState | None:
        """Whether the match has ended and ``side``'s current generation (None: no such
        hosted match)."""
        return await self._store.links.state(hosted_id, side)

    async def renew(self, hosted_id: int, side: Side) -> int:
        """The next generation of ``side``'s links: the older ones stop working."""
        return await self._store.links.renew(hosted_id, side)

    async def secret(self, fresh: str) -> str:
        """The secret every process signs with: ``fresh`` if none was kept before."""
        return await self._store.links.secret(fresh)
