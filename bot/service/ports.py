"""What the match service needs from the outside world, as small protocols: a delivery for
its posts and private messages, a renderer for board images, and a clock.

Tests and other front ends implement these; the service never imports discord.py.
"""

from __future__ import annotations

from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Protocol

from rules import GameView, Side


@dataclass(frozen=True)
class Attachment:
    name: str
    data: bytes


@dataclass(frozen=True)
class Stamp:
    """What a button (or a later command) was made for, in public terms only: the hosted
    match, its turn (finished turns plus one while the game is played, 0 before) and how
    many finished turns had been taken back (``back``: a turn taken back and played again
    has its number again, so that tells the two apart; None: not compared, a stamp kept
    without it). Never a version that staging or undoing moves on: a button's id is seen by
    whoever holds it, and must not let the opponent count hidden actions."""

    match: int
    turn: int
    back: int | None = None


@dataclass(frozen=True)
class Buttons:
    """The buttons a message carries: ``verbs`` (``accept``, ``decline``, ``end``, ``undo``,
    ``preview``...) for the match and turn of ``stamp``. Each verb is a shortcut for the
    command of that name; a front end without buttons may ignore them."""

    verbs: tuple[str, ...]
    stamp: Stamp


@dataclass(frozen=True)
class Link:
    """A link a message offers, to open in a browser: its ``label`` and ``url`` (the web
    board's pages)."""

    label: str
    url: str


@dataclass(frozen=True)
class Message:
    """A post or private message. ``mentions`` are the users it is addressed to (a front end
    notifies them, e.g. with a ping); ``heading`` names the match it is about (its number,
    players and, in a private message, a link to its channel), for a front end to show
    above the text. ``language`` (a ``bot.i18n`` code) is the one it was written in: a
    front end words what it adds (its buttons' labels) in it too."""

    text: str
    files: tuple[Attachment, ...] = ()
    mentions: tuple[int, ...] = ()
    buttons: Buttons | None = None
    heading: str = ""
    match: int | None = None  # the hosted match it is about, if any
    links: tuple[Link, ...] = ()
    language: str = "en"

    @property
    def full_text(self) -> str:
        """The heading (small, as Discord's subtext) over the text."""
        return f"-# {self.heading}\n{self.text}" if self.heading else self.text


class DirectMessagesClosed(Exception):
    """The user does not accept private messages from the bot (DMs closed): the service then
    falls back to a reply in the match's channel that only this user can see."""


class Undeliverable(Exception):
    """The message can never be delivered (the channel is gone, the user is unknown): the
    service drops it, logs why, and goes on with the next one."""


class ChannelGone(Undeliverable):
    """The channel does not exist (any more: an admin deleted it), so nothing can be opened
    or played there, where a plain Undeliverable thread may still leave the channel usable."""


class RetryAfter(Exception):
    """The front end was told to wait ``seconds`` before trying again (a rate limit longer
    than it waits out itself): the message is tried again then at the soonest, and the
    later ones to its destination wait behind it, as after any failure."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"try again in {seconds:.0f} s")
        self.seconds = seconds


class Shown(Protocol):
    """How far a fallback message got, kept with its outbox row: ``pieces`` of it are done
    with (a retry starts after them), and ``mark(n)`` records that durably. A front end
    marks a piece before it sends it and takes the mark back (``mark(n - 1)``) only when it
    is told that the piece was not shown: so no piece is ever shown twice."""

    pieces: int

    async def mark(self, pieces: int) -> None: ...


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
        self, channel_id: int, user_id: int, message: Message, key: str, shown: Shown
    ) -> None:
        """A message in ``channel_id`` that only ``user_id`` can see (the fallback when their
        direct messages are closed). Such a message cannot carry an idempotency key, so the
        front end skips the ``shown.pieces`` done before and marks each piece before it
        sends it (see ``Shown``). Raise any exception but Undeliverable if it cannot be
        shown right now (e.g. no open interaction of that user): it is retried later."""


class Linker(Protocol):
    """Where the web board shows a hosted match: its public page, and a player's private
    board (whoever holds that link plays the player's turns)."""

    def page_url(self, match: int) -> str:
        """The match's public page."""

    async def private_url(self, match: int, side: Side) -> str:
        """The current private link of ``side``'s player."""


class Threads(Protocol):
    """Where new matches are given a place of their own (a front end's threads)."""

    async def open_thread(self, channel_id: int, name: str) -> int:
        """Open a public thread called ``name`` in channel ``channel_id`` and return its id.
        Raise ChannelGone if there is no such channel, Undeliverable if that channel cannot
        have one."""


@dataclass(frozen=True)
class Status:
    """What a board image shows beside the View: the players' names and the deadline, as
    text (e.g. "due in 5 h"), so that an image never depends on the clock itself; and what
    to say in place of who is to act when nobody is (``headline``: a player's setup before
    the game, a match called off without an outcome)."""

    challenger: str
    opposition: str
    deadline: str = ""
    headline: str = ""


@dataclass(frozen=True)
class Pointing:
    """What a player's own picture points out while they choose an action: where the
    picked piece is (``rules.protocol.ChoiceGroup.origin``) and a letter on each square its
    actions go to (``Choice.spot``), as (square, letter)."""

    picked: str = ""
    letters: tuple[tuple[str, str], ...] = ()


class Renderer(Protocol):
    """Board images (PNG bytes). Drawn only from a View: the service hands ``board`` a
    spectator's view (``view_for(None)``) and ``private`` a player's own view (their hidden
    Assassin, and their staged actions when they are to act: the preview). ``language`` (a
    ``bot.i18n`` code) is the language of the image's own words: a drawing worker has no
    ``bot.i18n.current``, so it is told, and it is part of what a cached image is kept by."""

    def board(self, view: GameView, status: Status, language: str = "en") -> bytes:
        """The public board, for a channel."""

    def private(
        self, view: GameView, status: Status, marks: Pointing | None = None, language: str = "en"
    ) -> bytes:
        """A player's own board, sent only to that player, pointing out ``marks``."""


class Clock(Protocol):
    def now(self) -> float:
        """Unix seconds."""

    def sleep(self, seconds: float) -> Awaitable[None]:
        """Done once ``seconds`` have passed on this clock, counted from this call."""
