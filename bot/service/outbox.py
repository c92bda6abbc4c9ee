"""Delivering the outbox: every queued post and private message, in order per destination,
with retries, and the fallback for private messages a user's closed DMs refuse.

A row is deleted only after its delivery returned, so a crash before that means it is
delivered again after the restart, with the same key: the front end's idempotency key keeps
it from showing twice (see ``Delivery``). A crash before the row was committed means the
change it announces was not committed either. Where several processes share the database, a
destination's rows are delivered under its lease (``Store.sharing``), renewed with every row
delivered: one process at a time, in order; a process that died leaves a lease that runs
out, and the others deliver what it left, with the same keys.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from bot.i18n import N_, SOURCE, _, speaking
from storage import Hosted, Post, Queued, Store

from .delivery_reads import DeliveryReads
from .links import board_link, holder_warning, page_link
from .notify import DMS_CLOSED, REMINDER, TURN, Notify, decide
from .ports import (
    Attachment,
    Buttons,
    Clock,
    Delivery,
    DirectMessagesClosed,
    Link,
    Linker,
    Message,
    RetryAfter,
    Stamp,
    Undeliverable,
)
from .showing import match_heading
from .terms import Settings
from .texts import escape

log = logging.getLogger(__name__)

# The private messages that carry their player's board link: the your-turn notice (its Play
# button) and the setup prompt (its form, ``setup_phase.FORM``).
LINKED = ("play", "setup")

DM_FALLBACK = N_(
    "(I could not send you this as a direct message because your direct messages are "
    "closed to me, so I am showing it here, to you only. To get these privately, allow direct "
    "messages from server members in this server's privacy settings.)"
)


Destination = tuple[str, int]  # ("channel", id) or ("user", id)
# Destinations delivered at once (each holding its slot while it reads and delivers its
# rows), channels and users apart: a private message may wait for its user's DM channel to
# open (the front end paces those), and posts never wait behind it.
AT_ONCE = 16
BATCH = 16  # a destination's rows read at once, with their files, as it is delivered
HELD_AFTER_FAILURE = 5.0  # seconds a destination waits after its worker failed (database down)
# seconds before a destination whose lease another process held is looked at again: that one
# may have read its rows before ours came, and the delivery loop looks at the whole outbox
# only when something is due (or at its poll)
CLAIM_RETRY = 1.0
# Tries of a private message shown in its channel for want of a DM (its player's DMs
# closed), which needs its player's recent command there: then it is dropped, logged, and
# their later private messages go (about 8 hours with the default retries).
FALLBACK_TRIES = 100


class Deliverer:
    """Each destination's rows are delivered by a worker of its own, in order, while other
    destinations' workers deliver theirs: a slow or stalled channel holds back only itself.
    At most ``AT_ONCE`` deliveries to channels are in flight, and as many to users (the front
    end keeps to the platform's rate limits within that)."""

    def __init__(
        self,
        store: Store,
        delivery: Delivery,
        clock: Clock,
        settings: Settings,
        wake: Callable[[], None] = lambda: None,
    ) -> None:
        self._store = store
        self._delivery = delivery
        self._clock = clock
        self._settings = settings
        self._wake = wake  # a worker stopped at a row to retry later: look again then
        self._slots = {kind: asyncio.Semaphore(AT_ONCE) for kind in ("channel", "user")}
        self._workers: dict[Destination, asyncio.Task[int]] = {}
        self._again: set[Destination] = set()  # new rows came while its worker was at work
        self._reading: dict[Destination, tuple[int, ...]] = {}  # its worker's batch's rows
        self._waiting: dict[Destination, float] = {}  # when a row waiting for a retry is due
        self._held: dict[Destination, float] = {}  # until when, after its worker failed
        self.linker: Linker | None = None  # the web board's, when it is on
        self._pass = DeliveryReads(store, clock.now())  # what the rows delivered now share
        self._stopped = False

    def busy(self) -> bool:
        """Whether a destination's worker is delivering."""
        return bool(self._workers)

    @property
    def next_try(self) -> float | None:
        """When a row that is not due yet becomes due, after a look at the queue."""
        return min((*self._waiting.values(), *self._held.values()), default=None)

    async def deliver_due(self) -> int:
        """Deliver every queued row that is due, each destination's in order (a row waiting
        for a retry holds back the later ones to its destination), and wait until they went.
        Returns how many went."""
        return sum(await asyncio.gather(*await self.start_due()))

    async def start_due(self) -> list[asyncio.Task[int]]:
        """Set a worker on each destination that has a row due (one already at work there
        takes the new rows too), without waiting for them; returns those workers (none once
        stopped)."""
        if self._stopped:
            return []
        firsts = {row.destination: row for row in await self._store.hosting.private_firsts()}
        if self._stopped:  # while the look was under way
            return []
        now = self._clock.now()
        self._pass = DeliveryReads(self._store, now)
        self._waiting = {to: row.next_try for to, row in firsts.items() if row.next_try > now}
        self._held = {to: at for to, at in self._held.items() if at > now}
        due = [
            row for to, row in firsts.items() if to not in self._waiting and to not in self._held
        ]
        return [self._worker(row) for row in due]

    def start_for(self, destinations: Iterable[Destination]) -> None:
        """``start_due`` for the destinations of rows just queued, without a look at the
        whole outbox: a worker is set on each unless its rows wait for a retry or it is held
        after a failure (the look when that time comes takes it up). None once stopped."""
        if self._stopped:
            return
        now = self._clock.now()
        self._pass = DeliveryReads(self._store, now)
        for destination in destinations:
            later = max(self._waiting.get(destination, now), self._held.get(destination, now))
            if later <= now:
                self._start(destination, again=True)

    async def stop(self) -> None:
        """Stop the workers, and start none after; what they had not delivered stays queued
        (delivered again with the same keys, as after a crash)."""
        self._stopped = True
        workers = list(self._workers.values())
        for task in workers:
            task.cancel()
        await asyncio.gather(*workers, return_exceptions=True)

    def _worker(self, first: Queued) -> asyncio.Task[int]:
        """The worker of ``first``'s destination (its oldest row), started if none is at
        work there; one at work is asked to look again unless it has the rows already."""
        return self._start(first.destination, again=not self._in_hand(first))

    def _start(self, destination: Destination, again: bool) -> asyncio.Task[int]:
        """The destination's worker, started if none is at work there; one at work is
        asked to look again after its batch if ``again``."""
        running = self._workers.get(destination)
        if running is not None and not running.done():
            if again:
                self._again.add(destination)
            return running
        task = asyncio.create_task(self._work(destination), name=f"tora-outbox-{destination}")
        self._workers[destination] = task
        task.add_done_callback(lambda done: self._finished(destination, done))
        return task

    async def _work(self, destination: Destination) -> int:
        """Deliver the destination's rows until none is due; how many went. Each look at
        them waits for one of the ``AT_ONCE`` slots of its kind of destination first, before
        its lease is taken and its rows read: however many destinations wait (after an
        outage, say), as many hold rows and files in memory, and leases, as are delivered."""
        went = 0
        while True:
            self._again.discard(destination)
            async with self._slots[destination[0]]:
                done, retry_at = await self._drain(destination)
            went += done
            if retry_at is not None:
                self._waiting[destination] = retry_at
                self._wake()
                return went
            if destination not in self._again:
                return went

    def _in_hand(self, first: Queued) -> bool:
        """Whether the rows a look found waiting for ``first``'s destination are all in the
        batch its worker read: the worker delivers that batch in order, so that the rows of
        it from ``first`` on were all still waiting; if they are as many as were found,
        none came after the worker read (each look after a commit would otherwise cost
        the worker a read and a lease for nothing)."""
        batch = self._reading.get(first.destination, ())
        return first.id in batch and sum(1 for n in batch if n >= first.id) == first.waiting

    def _finished(self, destination: Destination, task: asyncio.Task[int]) -> None:
        if self._workers.get(destination) is task:
            del self._workers[destination]
            self._reading.pop(destination, None)
        if task.cancelled() or task.exception() is None:
            return
        log.error("delivering to %s failed", destination, exc_info=task.exception())
        self._held[destination] = self._clock.now() + HELD_AFTER_FAILURE
        self._wake()

    async def _drain(self, destination: Destination) -> tuple[int, float | None]:
        """Deliver one destination's rows in order until one is not due or fails: how many
        went, and when the first one left is due. Where processes share the database, under
        the destination's lease (another holding it is delivering them: they are looked at
        again ``CLAIM_RETRY`` later, in case that one read them before the last came)."""
        now = self._clock.now()
        if not self._settings.shared:
            return await self._batches(destination, now, None)
        name, seconds = f"outbox:{destination[0]}:{destination[1]}", self._settings.claim_seconds
        if not await self._store.sharing.claim(name, now, seconds):
            return 0, now + CLAIM_RETRY
        lease = _Lease(name, now + seconds)
        try:  # the rows as they are now that this process holds them
            return await self._batches(destination, now, lease)
        finally:
            if lease.held:  # else the last row's deletion gave it back
                await self._store.sharing.release(lease.name)

    async def _batches(
        self, destination: Destination, now: float, lease: _Lease | None
    ) -> tuple[int, float | None]:
        """``_in_order`` on the destination's rows, read ``BATCH`` at a time with their
        files (one read for a turn's post and its image, however many rows wait)."""
        went = 0
        while True:
            rows = await self._store.hosting.private_outgoing(destination, BATCH)
            self._reading[destination] = tuple(row.id for row in rows)
            done, retry_at = await self._in_order(rows, now, lease, more=len(rows) == BATCH)
            went += done
            if retry_at is not None or len(rows) < BATCH:
                return went, retry_at

    async def _in_order(
        self, rows: list[Queued], now: float, lease: _Lease | None, more: bool
    ) -> tuple[int, float | None]:
        """Deliver ``rows`` in order until one is not due or fails, deleting each once it
        went; under ``lease``, renewed with each deletion while any row is left (``more``:
        others wait after these), and given back with the last one's. Should this one's have
        run out (a slow send) or another process have taken it over, the rest are left:
        read again under a lease taken again, or delivered by that process, none twice."""
        for done, row in enumerate(rows):
            if row.next_try > now:
                return done, row.next_try
            if lease is not None and not await self._kept(lease):
                return done, self._clock.now() + CLAIM_RETRY
            retry_at = await self._one(row, self._clock.now())
            if retry_at is not None:
                return done, retry_at
            if not await self._gone(row, lease, still=more or done + 1 < len(rows)):
                return done + 1, self._clock.now() + CLAIM_RETRY
        return len(rows), None

    async def _kept(self, lease: _Lease) -> bool:
        """Whether the rows read under ``lease`` may still be sent: renewed first where less
        than half of it is left. False once it ran out (another process may have taken the
        destination over and delivered them since: they are read again) or another process
        holds it."""
        now, seconds = self._clock.now(), self._settings.claim_seconds
        if lease.until - now > seconds / 2:
            return True
        if lease.until > now and await self._store.sharing.claim(lease.name, now, seconds):
            lease.until = now + seconds
            return True
        return False  # given back by ``_drain`` if it is still this process's

    async def _gone(self, row: Queued, lease: _Lease | None, still: bool) -> bool:
        """Delete a row that went, and renew or give back the lease with it (``still``: more
        rows are left to deliver under it): one statement. False if the rest may not be
        sent: another process holds the lease now, or took the destination over and
        delivered this row already."""
        hosting = self._store.hosting
        if lease is None:
            await hosting.delivered(row.id)
        elif still:
            now, seconds = self._clock.now(), self._settings.claim_seconds
            if not await hosting.delivered(row.id, lease.name, (now, seconds)):
                return False  # given back by ``_drain`` if it is still this process's
            lease.until = now + seconds
        else:  # given back with the deletion; if that fails, ``_work`` gives it back alone
            await hosting.delivered(row.id, lease.name)
            lease.held = False
        return True

    async def _one(self, row: Queued, now: float) -> float | None:
        """Deliver one row; None once it is done with (to be deleted), else when to try it
        again."""
        post = row.post
        if not self._pass.fresh(now):
            self._pass = DeliveryReads(self._store, now)
        reads = self._pass
        hosted, names = (None, {}) if row.hosted_id is None else await reads.hosted(row.hosted_id)
        guild = None if hosted is None else hosted.guild_id
        wanted = await decide(
            notice_of(row), post.user_id, post.mentions, now, lambda user: reads.wants(user, guild)
        )
        if wanted.drop:  # a notice its player does not want (``notify``)
            return None
        if wanted.hold is not None:  # their quiet hours: it goes when they end
            await self._store.hosting.retry_later(row.id, row.attempts, wanted.hold, row.fallback)
            return wanted.hold
        wants = None if post.user_id is None else await reads.wants(post.user_id, guild)
        if wants is not None and outlived(row, hosted, wants):
            return None  # held past its turn: its deadline and buttons would mislead
        attached = tuple(Attachment(n, d) for n, d in post.files)  # read with the row
        buttons = decode_buttons(row)
        language, text = language_of(row), post.text
        with speaking(language):  # what is added to the text, in the text's language
            heading = "" if hosted is None else self._heading(row, hosted, names)
            links = () if hosted is None else await self._links(row, hosted, buttons)
            if links and post.user_id is not None:
                text += "\n" + holder_warning(self._settings, localized=True)
        message = Message(
            text, attached, wanted.mentions, buttons, heading, row.hosted_id, links, language
        )
        key = f"tora-outbox-{row.id}"
        shown = _Shown(self._store, row.id, row.shown)
        fallback = row.fallback
        try:
            if post.user_id is None:
                await self._delivery.post(post.channel_id, message, key)
            elif not row.shown:  # by DM, again for a fallback none of which was shown yet
                try:
                    await self._delivery.send_private(post.user_id, post.channel_id, message, key)
                except DirectMessagesClosed:
                    await self._dms_closed(post.user_id, wants, True)
                    if not fallback:
                        fallback = True
                        await self._store.hosting.retry_later(row.id, row.attempts, now, True)
                    await self._ephemeral(post.channel_id, post.user_id, message, key, shown)
                else:
                    await self._dms_closed(post.user_id, wants, False)
            else:
                await self._ephemeral(post.channel_id, post.user_id, message, key, shown)
        except Undeliverable as exc:
            log.error("outbox %d can never be delivered, dropped: %s", row.id, exc)
        except Exception as exc:
            if fallback and row.attempts + 1 >= FALLBACK_TRIES:
                log.error(
                    "outbox %d could not be shown to user %s in %d tries, dropped: %r",
                    row.id,
                    post.user_id,
                    FALLBACK_TRIES,
                    exc,
                )
                return None
            attempts = row.attempts + 1
            wait = min(
                self._settings.retry_most, self._settings.retry_first * 2.0 ** (attempts - 1)
            )
            if isinstance(exc, RetryAfter):  # sooner, it would be refused again
                wait = max(wait, exc.seconds)
            log.warning(
                "outbox %d: delivery failed (%r); retry %d in %.0f s", row.id, exc, attempts, wait
            )
            await self._store.hosting.retry_later(row.id, attempts, now + wait, fallback)
            return now + wait
        return None

    def _heading(self, row: Queued, hosted: Hosted, known: dict[int, str]) -> str:
        """A line naming the row's match: its number, game and players (``known``: their
        names, by id), and for a private message (read away from the match) a link to the
        match's channel. In the current language (the message's)."""
        players = (hosted.issuer_id, hosted.invitee_id)
        names = [escape(known[user]) if user in known else _("anyone") for user in players]
        players_line = _("{first} vs {second}", first=names[0], second=names[1])
        heading = match_heading(hosted, players_line, localized=True)
        if row.post.user_id is not None:
            heading += " \u00b7 " + self._settings.link(hosted.guild_id, hosted.channel_id)
        return heading

    async def _links(
        self, row: Queued, hosted: Hosted, buttons: Buttons | None
    ) -> tuple[Link, ...]:
        """With the web board on: a post about a started match links to its public page; a
        "your turn" notice (the message offering Play) and a setup prompt (the message with
        the setup form) to its player's private board, made as the message goes, so that it
        is the player's current link."""
        if self.linker is None:
            return ()
        user_id = row.post.user_id
        if user_id is None:
            started = hosted.match_id is not None
            return (page_link(self.linker.page_url(hosted.id), localized=True),) if started else ()
        side = hosted.side_of(user_id)
        linked = buttons is not None and any(verb in LINKED for verb in buttons.verbs)
        if not linked or side is None or not hosted.live:
            return ()
        return (board_link(await self.linker.private_url(hosted.id, side), localized=True),)

    async def _dms_closed(self, user_id: int, wants: Notify | None, closed: bool) -> None:
        """Keep whether ``user_id``'s DMs are closed (``notify.DMS_CLOSED``: their turn posts
        mention them in place of the DMs), written only when it changes (``wants``: as this
        pass read it)."""
        if wants is not None and wants.dms_closed != closed:
            await self._store.set_player_setting(user_id, DMS_CLOSED, "on" if closed else None)

    async def _ephemeral(
        self, channel_id: int, user_id: int, message: Message, key: str, shown: _Shown
    ) -> None:
        """The private message, shown in the match's channel to its user alone (the reason
        why in the message's language)."""
        with speaking(message.language):
            why = _(DM_FALLBACK)
        only_you = replace(message, text=f"{message.text}\n\n{why}", mentions=())
        await self._delivery.send_ephemeral(channel_id, user_id, only_you, key + "-only-you", shown)


@dataclass
class _Lease:
    """A destination's lease while its rows are delivered: ``held`` until given back with
    the last row's deletion; ``until``: when it runs out, as last taken or renewed."""

    name: str
    until: float
    held: bool = True


@dataclass
class _Shown:
    """A fallback's progress, kept in its outbox row (see ``ports.Shown``)."""

    store: Store
    row_id: int
    pieces: int

    async def mark(self, pieces: int) -> None:
        self.pieces = pieces
        await self.store.hosting.shown(self.row_id, pieces)


def encode_buttons(
    verbs: tuple[str, ...],
    turn: int,
    notice: str = "",
    language: str = SOURCE,
    back: int | None = None,
) -> str:
    """How a post's buttons are kept in its outbox row (the match is the row's): for turn
    ``turn`` with ``back`` turns taken back before it (``Stamp.back``; None: not compared),
    with what the message is about (``notify``: a turn, a reminder, a proposal) and the
    language it is written in, which its buttons are labelled in too (English: left out)."""
    if not verbs and not notice and language == SOURCE:
        return ""
    kept: dict[str, object] = {"verbs": list(verbs), "turn": turn}
    if back is not None:
        kept["back"] = back
    if notice:
        kept["notice"] = notice
    if language != SOURCE:
        kept["language"] = language
    return json.dumps(kept)


def private_post(channel_id: int, text: str, user_id: int, language: str) -> Post:
    """A DM made outside any match (a ladder's or a tournament's notice), written in
    ``language``: what the outbox adds to it (why it shows in ``channel_id`` when the
    player's DMs are closed) is in that language too."""
    return Post(channel_id, text, user_id, buttons=encode_buttons((), 0, language=language))


def decode_buttons(row: Queued) -> Buttons | None:
    if not row.post.buttons or row.hosted_id is None:
        return None
    data = json.loads(row.post.buttons)
    if not data["verbs"]:
        return None
    back = data.get("back")  # a row queued before the takebacks were kept has none
    stamp = Stamp(row.hosted_id, int(data["turn"]), None if back is None else int(back))
    return Buttons(tuple(data["verbs"]), stamp)


def notice_of(row: Queued) -> str:
    """What a queued message is about (``notify``), "" when nothing in particular."""
    if not row.post.buttons:
        return ""
    return str(json.loads(row.post.buttons).get("notice", ""))


def outlived(row: Queued, hosted: Hosted | None, wants: Notify) -> bool:
    """Whether ``row`` is a DM about a player's turn (``notify``: "your turn", a reminder)
    held through their quiet hours (``wants``: a held row falls due as they end) whose turn
    is over: its match (``hosted``, as read) has gone on to a later turn, or ended, since
    it was queued. A row that was not held goes as ever (a backlog goes whole, in order). A
    match read before the row was queued is never ahead of it, so a read that a delivery
    pass shares (``DeliveryReads``) cannot drop the DM of a turn still running."""
    if hosted is None or notice_of(row) not in (TURN, REMINDER):
        return False
    if wants.quiet_until(row.next_try - 1.0) != row.next_try:
        return False
    turn = int(json.loads(row.post.buttons).get("turn", 0))
    return turn > 0 and (hosted.turn > turn or not hosted.live)


def language_of(row: Queued) -> str:
    """The language a queued message was written in (English when it says none)."""
    if not row.post.buttons:
        return SOURCE
    return str(json.loads(row.post.buttons).get("language", SOURCE))
