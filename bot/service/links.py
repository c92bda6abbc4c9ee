"""The web board's links as the service words them (their labels, the warning that goes
with a private one), and what its private links keep in the store (``storage.hosting.links``)
for the application layer's ``bot.app.links``, which signs and checks them."""

from __future__ import annotations

from bot.i18n import N_, SOURCE, _, current, speaking
from rules import Side
from storage import LinkState, Store

from .ports import Link
from .terms import Settings

PAGE = N_("Match page")  # a match's public page
BOARD = N_("Open the board")  # a player's private board

# The labels and the warning are in English unless ``localized`` (then in the current
# language), as ``texts.duration``: the posts not yet converted give them too.


def page_link(url: str, localized: bool = False) -> Link:
    with speaking(current() if localized else SOURCE):
        return Link(_(PAGE), url)


def board_link(url: str, localized: bool = False) -> Link:
    with speaking(current() if localized else SOURCE):
        return Link(_(BOARD), url)


def holder_warning(settings: Settings, localized: bool = False) -> str:
    """The line that goes wherever a private link is given."""
    with speaking(current() if localized else SOURCE):
        return _(
            "-# {board} is your own link: whoever holds it can play your turns, so keep it to "
            "yourself. {command} replaces it.",
            board=_(BOARD),
            command=settings.cmd("board link:new", localized=True),
        )


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
