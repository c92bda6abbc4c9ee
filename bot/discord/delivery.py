"""The service's Delivery (and Threads) on Discord: public posts, direct messages, messages
only one user sees, and a thread per match.

- Posts carry the outbox key as their nonce, which discord.py sends with ``enforce_nonce``:
  Discord then answers a retried post with the message it already created (for a few
  minutes), so a post delivered just before a crash is not shown twice. Only the users a
  message is addressed to are mentioned, and only they are pinged (AllowedMentions).
- Opening a DM channel is paced (``Pace``): the first private message to a user since the
  start asks Discord for the channel, which is where bots that message many people at once
  get limited; later ones go to the known channel unpaced, like any message. A refusal (403,
  code 50007) marks the user's DMs closed for a while (``Closed``): DirectMessagesClosed
  sends the service to its fallback at once, without asking Discord again and again.
- The fallback, a message only that user sees in the match's channel, can only be a
  follow-up of one of their interactions there, made in the last 14 minutes (a token lasts
  15) and already answered: a command's once its answer is shown, a pick in a menu or form
  once its message is edited (a follow-up of a deferred command would take the place of its
  "thinking" message, and be as public as it). The newest such one of the user's latest few
  is taken (``Latest``). Without one it raises NoOpenInteraction and
  the service retries later; their next command there opens one. A follow-up cannot carry
  a nonce, so each piece is marked in the message's outbox row *before* it is sent, and the
  mark taken back only when Discord answers that it showed nothing (an HTTP error): a retry
  or a restart skips what was sent, so a piece is never shown twice, even when the bot dies
  while Discord shows it. The price: a piece sent as the bot dies, that Discord never
  received, is not shown (the player's board and panel show the same state on demand).
- A message's buttons are the ones the service gave it (``Message.buttons``), labelled in
  the language its text is written in (``Message.language``); a setup
  prompt's (the ``setup`` verb) are the player's setup form as it is when the message goes
  out (``forms``: the application layer's; ``setup_form.py`` builds them).
- An unknown or forbidden channel is Undeliverable: the service drops that message. A
  thread Discord refuses for good (see ``open_thread``) is Undeliverable too.
- discord.py waits out a rate limit of up to ``RATE_LIMIT_WAIT`` (``client``) itself; a
  longer one goes back to the outbox with Discord's wait (RetryAfter), so no delivery
  worker sleeps through it holding its slot and its destination's lease, which another
  process takes over after ``Settings.claim_seconds``.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Final, Protocol

import discord

from bot.app.buttons import presses
from bot.app.pacing import Pace
from bot.app.setup_form import ROWS, layout
from bot.app.setup_form import VERB as SETUP_FORM
from bot.i18n import speaking
from bot.service import (
    ChannelGone,
    DirectMessagesClosed,
    Message,
    RetryAfter,
    Shown,
    Stamp,
    Undeliverable,
)
from bot.service.questions import SetupForm

from .buttons import buttons
from .links import with_links
from .memories import Closed, Latest
from .respond import answered, files_of, split
from .setup_form import view_of

Forms = Callable[[int, int], Awaitable[SetupForm | None]]  # (channel, user) -> their form


class Sweeping(Protocol):
    """Who keeps the messages sent with buttons, and disables them once they stop applying."""

    async def sent(self, message: discord.Message, verbs: tuple[str, ...], stamp: Stamp) -> None:
        """``message`` went out with buttons for ``stamp``'s match and turn."""

    def shown_privately(
        self,
        interaction: discord.Interaction[Any],
        message: discord.WebhookMessage,
        verbs: tuple[str, ...],
        stamp: Stamp,
    ) -> None:
        """``message``, a follow-up of ``interaction`` only its user sees, went out with
        buttons for ``stamp``'s match and turn."""

    def after(self, match_id: int | None) -> None:
        """A message about ``match_id`` went out."""


log = logging.getLogger(__name__)
DMS_CLOSED = 50007  # Discord's "Cannot send messages to this user"
NONCE_LENGTH = 25  # Discord's limit for a message nonce
WEEK_MINUTES: Final = 10080  # threads archive after a week without messages (any post reopens them)
INTERACTION_AGE = 14 * 60.0


class NoOpenInteraction(Exception):
    """The user has no recent interaction in that channel to show a private message on."""


def nonce(key: str, piece: int = 0) -> str:
    """A message nonce from an outbox key (the same for every retry of that message)."""
    return hashlib.sha256(f"{key}#{piece}".encode()).hexdigest()[:NONCE_LENGTH]


def mentioning(message: Message) -> tuple[str, discord.AllowedMentions]:
    """The text with its addressees' mentions in front, and permission to ping them alone."""
    if not message.mentions:
        return message.full_text, discord.AllowedMentions.none()
    pings = " ".join(f"<@{user_id}>" for user_id in message.mentions)
    heading = f"-# {message.heading}\n" if message.heading else ""
    allowed = discord.AllowedMentions(
        everyone=False,
        roles=False,
        replied_user=False,
        users=[discord.Object(user_id) for user_id in message.mentions],
    )
    return f"{heading}{pings} {message.text}", allowed


class DiscordDelivery:
    def __init__(
        self,
        client: discord.Client,
        *,
        sweeper: Sweeping | None = None,
        dm_rate: float = 5.0,
        dm_burst: int = 20,
        closed_seconds: float = 3600.0,
    ) -> None:
        self.client = client
        self.sweeper = sweeper
        self.pace = Pace(dm_rate, dm_burst)
        self.closed = Closed(closed_seconds)
        self.latest: Latest[discord.Interaction[Any]] = Latest(INTERACTION_AGE)
        self._dm_channels: dict[int, int] = {}  # user -> their DM channel with the bot
        self.forms: Forms | None = None  # a setup prompt's form, once the service runs

    def seen(self, interaction: discord.Interaction[Any]) -> None:
        """Remember the user's latest interactions in its channel (for ``send_ephemeral``,
        which takes the newest one answered); one given in a DM shows that their DMs are
        open."""
        if interaction.channel_id is not None:
            self.latest.remember(interaction.channel_id, interaction.user.id, interaction)
        if interaction.guild_id is None:
            self.closed.forget(interaction.user.id)

    # ---- Delivery ----------------------------------------------------------------------
    async def post(self, channel_id: int, message: Message, key: str) -> None:
        channel = self.client.get_partial_messageable(channel_id)
        text, allowed = mentioning(message)
        with speaking(message.language):
            view = _view(channel_id, message)
        try:
            sent = await self._send(channel, text, message, key, allowed, view)
        except discord.RateLimited as exc:
            raise RetryAfter(exc.retry_after) from None
        except discord.HTTPException as exc:
            if not refused_for_good(exc):
                raise
            raise Undeliverable(f"channel {channel_id}: {exc}") from None
        await self._swept(sent, message)

    async def send_private(self, user_id: int, channel_id: int, message: Message, key: str) -> None:
        if user_id in self.closed:
            raise DirectMessagesClosed(f"user {user_id}'s DMs were closed a moment ago")
        view = await self._private_view(channel_id, user_id, message)
        try:
            dm = await self._dm(user_id)
            sent = await self._send(
                dm, message.full_text, message, key, discord.AllowedMentions.none(), view
            )
        except discord.Forbidden as exc:
            if exc.code == DMS_CLOSED:
                self.closed.mark(user_id)
                log.info("DMs closed", extra={"user": user_id})
                raise DirectMessagesClosed(f"user {user_id} does not accept DMs") from None
            raise  # another refusal of a DM may pass later: tried again
        except discord.RateLimited as exc:
            raise RetryAfter(exc.retry_after) from None
        except discord.HTTPException as exc:
            if not refused_for_good(exc):
                raise
            raise Undeliverable(f"user {user_id}: {exc}") from None
        await self._swept(sent, message)

    async def send_ephemeral(
        self, channel_id: int, user_id: int, message: Message, key: str, shown: Shown
    ) -> None:
        interaction = self.latest.get(channel_id, user_id, answered)
        if interaction is None:
            raise NoOpenInteraction(
                f"user {user_id} has no recent, answered interaction in channel {channel_id}"
            )
        pieces = split(message.full_text)
        view = await self._private_view(channel_id, user_id, message)
        last = None
        for i, piece in enumerate(pieces):
            if i < shown.pieces:
                continue
            extra: dict[str, Any] = {}
            if i == len(pieces) - 1:
                extra["files"] = files_of(message.files)
                if view is not None:
                    extra["view"] = view
            await shown.mark(i + 1)  # before it goes: from here on it never goes again
            try:
                last = await interaction.followup.send(
                    piece,
                    ephemeral=True,
                    allowed_mentions=discord.AllowedMentions.none(),
                    wait=True,
                    **extra,
                )
            except (discord.HTTPException, discord.RateLimited) as exc:  # it showed nothing
                await shown.mark(i)
                if isinstance(exc, discord.RateLimited):  # not even sent, or refused (429)
                    raise RetryAfter(exc.retry_after) from None
                if isinstance(exc, discord.NotFound):  # the token expired early
                    raise NoOpenInteraction(f"user {user_id}'s interaction is gone") from None
                raise
            except Exception:
                log.warning(  # no answer: it may have been shown, so it is not sent again
                    "a message only one user sees got no answer; counted as shown",
                    extra={"channel": channel_id, "user": user_id},
                )
                raise
        self._swept_privately(interaction, last, message)

    # ---- Threads -----------------------------------------------------------------------
    async def open_thread(self, channel_id: int, name: str) -> int:
        """A public thread of the channel; Undeliverable when Discord would refuse it again
        (no such channel, no permission, a thread's own thread: 400 50024, the server's
        1,000 active threads: 400 160006), so the caller plays in the channel instead;
        ChannelGone when the channel itself is unknown (404: deleted), so it plays elsewhere."""
        try:
            data = await self.client.http.start_thread_without_message(
                channel_id,
                name=name[:100],
                auto_archive_duration=WEEK_MINUTES,
                type=discord.ChannelType.public_thread.value,
            )
        except discord.HTTPException as exc:
            if not refused_for_good(exc):
                raise
            if exc.status == 404:
                raise ChannelGone(f"no channel {channel_id}: {exc}") from None
            raise Undeliverable(f"no thread in channel {channel_id}: {exc}") from None
        return int(data["id"])

    async def drop_thread(self, thread_id: int) -> None:
        """Delete a thread opened for a challenge the service then refused."""
        try:
            await self.client.http.delete_channel(thread_id)
        except discord.HTTPException:
            log.warning("could not delete an unused thread", extra={"thread_id": thread_id})

    async def notice(self, channel_id: int, text: str) -> None:
        """A pointer in a channel (where a match went), pinging nobody. Not through the
        outbox: it announces nothing the match needs, so losing it to a crash is harmless."""
        channel = self.client.get_partial_messageable(channel_id)
        try:
            await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            log.warning("could not post a notice", extra={"channel": channel_id})

    # ---- plumbing ----------------------------------------------------------------------
    async def _private_view(
        self, channel_id: int, user_id: int, message: Message
    ) -> discord.ui.View | None:
        """A private message's components, in its language: the player's setup form for a
        setup prompt, with its links (the player's board) in a row the form leaves free."""
        with speaking(message.language):
            return await self._private_components(channel_id, user_id, message)

    async def _private_components(
        self, channel_id: int, user_id: int, message: Message
    ) -> discord.ui.View | None:
        given = message.buttons
        if given is not None and SETUP_FORM in given.verbs:
            form = None if self.forms is None else await self.forms(channel_id, user_id)
            if form is None:
                return with_links(None, message.links)
            view, rows = view_of(channel_id, form), len(layout(form))
            return with_links(view, message.links, rows) if rows < ROWS else view
        return _view(channel_id, message)

    async def _swept(self, sent: discord.Message | None, message: Message) -> None:
        """Remember the buttons ``sent`` carries, and sweep its match's stale ones."""
        if self.sweeper is None:
            return
        given = message.buttons
        if sent is not None and given is not None:
            await self.sweeper.sent(sent, given.verbs, given.stamp)
        self.sweeper.after(message.match)

    def _swept_privately(
        self,
        interaction: discord.Interaction[Any],
        sent: discord.WebhookMessage | None,
        message: Message,
    ) -> None:
        """``_swept`` for a follow-up only one user sees (kept in memory: only
        ``interaction``'s token can edit it)."""
        if self.sweeper is None:
            return
        given = message.buttons
        if sent is not None and given is not None:
            self.sweeper.shown_privately(interaction, sent, given.verbs, given.stamp)
        self.sweeper.after(message.match)

    async def _dm(self, user_id: int) -> discord.abc.Messageable:
        """The user's DM channel: opened once (paced), then known."""
        known = self._dm_channels.get(user_id)
        if known is not None:
            return self.client.get_partial_messageable(known)
        await self.pace.wait()
        channel = await self.client.create_dm(discord.Object(user_id))
        self._dm_channels[user_id] = channel.id
        return channel

    @staticmethod
    async def _send(
        channel: discord.abc.Messageable,
        text: str,
        message: Message,
        key: str,
        allowed: discord.AllowedMentions,
        view: discord.ui.View | None,
    ) -> discord.Message | None:
        """``text`` in as many messages as it takes; the files and buttons on the last,
        which is returned."""
        pieces = split(text)
        last = None
        for i, piece in enumerate(pieces):
            extra: dict[str, Any] = {}
            if i == len(pieces) - 1:
                if message.files:
                    extra["files"] = files_of(message.files)
                if view is not None:
                    extra["view"] = view
            last = await channel.send(piece, nonce=nonce(key, i), allowed_mentions=allowed, **extra)
        return last


def refused_for_good(exc: discord.HTTPException) -> bool:
    """Whether Discord would refuse the same request again: a 4xx (an unknown channel, no
    access, an invalid form body, a file too large), but a rate limit (429) and the bot's
    own token refused (401), which hold up every post alike until they pass."""
    return 400 <= exc.status < 500 and exc.status not in (401, 429)


def _view(channel_id: int, message: Message) -> discord.ui.View | None:
    """The message's buttons and links, if the service gave it any."""
    given = message.buttons
    view = None if given is None else buttons(presses(given.verbs, channel_id, given.stamp))
    return with_links(view, message.links)
