"""What the match service needs from the outside world, as small protocols: a delivery for
its posts and private messages, a renderer for board images, and a clock.

Tests and other front ends implement these; the service never imports discord.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from rules.view import View


@dataclass(frozen=True)
class Attachment:
    name: str
    data: bytes


@dataclass(frozen=True)
class Message:
    """A post or private message. ``mentions`` are the users it is addressed to (a front end
    notifies them, e.g. with a ping)."""

    text: str
    files: tuple[Attachment, ...] = ()
    mentions: tuple[int, ...] = ()


class DirectMessagesClosed(Exception):
    """The user does not accept private messages from the bot (DMs closed): the service then
    falls back to a reply in the match's channel that only this user can see."""


class Undeliverable(Exception):
    """The message can never be delivered (the channel is gone, the user is unknown): the
    service drops it, logs why, and goes on with the next one."""


class Delivery(Protocol):
    """Where the service's messages go.

    ``key`` identifies one message and is the same every time its delivery is retried (after
    a failure or a restart): a front end passes it on as an idempotency key (on Discord the
    message nonce with ``enforce_nonce``), so that a message delivered just before a crash is
    not shown twice when it is retried. Raise DirectMessagesClosed or Undeliverable as
    described; any other exception means "try again later" and the service retries with
    backoff, keeping each destination's messages in order.
    """

    async def post(self, channel_id: int, message: Message, key: str) -> None:
        """A public post in a channel or thread."""

    async def send_private(self, user_id: int, channel_id: int, message: Message, key: str) -> None:
        """A private (direct) message to a user about the match in ``channel_id``."""

    async def send_ephemeral(
        self, channel_id: int, user_id: int, message: Message, key: str
    ) -> None:
        """A message in ``channel_id`` that only ``user_id`` can see (the fallback when their
        direct messages are closed). Raise any exception but Undeliverable if it cannot be
        shown right now (e.g. no open interaction of that user): it is retried later."""


class Threads(Protocol):
    """Where new matches are given a place of their own (a front end's threads)."""

    async def open_thread(self, channel_id: int, name: str) -> int:
        """Open a public thread called ``name`` in channel ``channel_id`` and return its id.
        Raise Undeliverable if that channel cannot have one."""


@dataclass(frozen=True)
class Status:
    """What a board image shows beside the View: the players' names and the deadline, as
    text (e.g. "due in 5 h"), so that an image never depends on the clock itself."""

    challenger: str
    opposition: str
    deadline: str = ""


class Renderer(Protocol):
    """Board images (PNG bytes). Drawn only from a View: the service hands ``board`` a
    spectator's view (``view_for(None)``) and ``private`` a player's own view (their hidden
    Assassin, and their staged actions when they are to act: the preview)."""

    def board(self, view: View, status: Status) -> bytes:
        """The public board, for a channel."""

    def private(self, view: View, status: Status) -> bytes:
        """A player's own board, sent only to that player."""


class Clock(Protocol):
    def now(self) -> float:
        """Unix seconds."""

    async def sleep(self, seconds: float) -> None:
        """Return once ``seconds`` have passed on this clock."""
