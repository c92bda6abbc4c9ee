"""What every command of the match service runs on: the live matches in memory (one per
channel or thread), one lock per channel so that a match sees one request at a time, the
checks every command passes (its phase, a stale ``expect``), the clock and outbox loops, and
the AI players' turns given as commands of their own (``robots``). ``MatchService`` adds
the commands themselves."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import math
import random
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import TypeVar

from bot.i18n import N_, _
from storage import (
    CorruptMatch,
    DatabaseUnavailable,
    Hosted,
    Post,
    StaleHosted,
    StaleMatch,
    Store,
)

from . import deadlines, digest, lobby, reminders, robots, setup_phase
from .backoff import Backoff
from .busy import Counting, Held, Locks
from .clock import SystemClock
from .context import Context
from .errors import Refused, StaleRequest
from .fairy import fairy_of
from .languages import KeptLanguages
from .models import Place, Reply, User
from .offload import Offload
from .outbox import Deliverer, Destination
from .phases import CHALLENGE, ENDED, PLAYING, SETUP
from .ports import Clock, Delivery, Linker, Renderer, Stamp
from .ratelimit import RateLimit
from .records import Records
from .table import Table
from .terms import Settings, Terms

log = logging.getLogger(__name__)
LONGEST_NAP = 3600.0  # the loops look at the clock at least this often
SHORTEST_NAP = 1.0  # and at most this often while something overdue waits for a retry
RETRY_FAILED = 300  # seconds before a clock event that failed is tried again
RETRY_UNAVAILABLE = 5  # ...when it failed because the database could not be reached
Flow = Callable[[Table], Awaitable[Reply]]
Answered = TypeVar("Answered")  # what a command's flow gives back (a Reply, mostly)
EndedListener = Callable[[Hosted], Awaitable[None]]
ChangeListener = Callable[[int], None]


class Host:
    """The match service's machinery (see the module's docstring); its commands are
    ``MatchService``'s."""

    def __init__(
        self,
        store: Store,
        delivery: Delivery,
        renderer: Renderer,
        *,
        clock: Clock | None = None,
        settings: Settings | None = None,
        rng: random.Random | None = None,
    ) -> None:
        settings = settings or Settings()
        clock = clock or SystemClock()
        rng = rng or random.Random()
        self._ctx = Context(
            store,
            renderer,
            clock,
            settings,
            rng,
            self._changed,
            Offload(
                settings.rules_processes,
                settings.ai_processes,
                settings.draw_processes,
                renderer,
                fairy_of(settings),
            ),
            KeptLanguages(store, clock.now),
            self._touched,
            hidden=random.Random(rng.getrandbits(64)),  # one draw: a seed gives both
        )
        self._timers_changed = asyncio.Event()
        self._outbox_changed = asyncio.Event()
        # destinations of posts queued since the delivery loop woke (None: it looks at all)
        self._queued: set[Destination] | None = None
        self._outbox_looked = -math.inf  # when the delivery loop last looked at the outbox
        self._deliverer = Deliverer(store, delivery, clock, settings, self._outbox_changed.set)
        self._limit = RateLimit(settings.burst, settings.every)
        self._tables: dict[int, Table] = {}  # live hosted matches by channel
        self._locks = Locks()  # the channels' (``_lock``), counting the calls (``busy``)
        self._tasks: list[asyncio.Task[None]] = []
        self._listeners: list[EndedListener] = []
        self._watchers: list[ChangeListener] = []
        self._hinting: set[int] = set()  # players whose hint is being searched
        self._digests_at = float("-inf")  # when the daily digests were last looked for
        # the clock the timer loop sleeps until: a change setting a sooner one wakes it (inf:
        # it read none, or is reading; a change of any clock wakes it)
        self._timers_until = math.inf
        self._robots = robots.Robots(self._ctx, self._robot_job, self._robot_command)

    # ---- the clock and the outbox --------------------------------------------------------
    async def run_due(self, clocks: bool = True) -> None:
        """Handle every expiry, reminder and deadline that has come by now and that no other
        process is handling: each is claimed first (``storage.hosting.claims``), so that it fires
        once however many processes share the database; and the daily digests due (``digest``,
        at most once a minute). ``clocks`` False: the caller has just read that none is due
        (the timers' ``next_due``), and only the digests are looked at. Counted in ``busy``
        meanwhile: a collection then would hold up a turn's end at its deadline."""
        with self._locks.counting():
            await self._run_due(clocks)

    async def _run_due(self, clocks: bool) -> None:
        now = self._ctx.now()
        hosting = self._ctx.store.hosting
        if now - self._digests_at >= digest.EVERY:
            self._digests_at = now
            if await digest.send_due(self._ctx, now):
                self._changed()
        if not clocks:
            return
        # a day given before a start, or whose moving failed, moves the player's other
        # matches before their deadlines fire: one may have come in the middle of the day
        await self._days_given()
        async for hosted in self._claimed(now):
            async with self._lock(hosted.channel_id):
                try:
                    table = await self._table(hosted.channel_id)
                    if table is not None and table.hosted.id == hosted.id:
                        await self._fire(table, now)
                        self._settle(table)
                except Exception as exc:
                    retry = (
                        RETRY_UNAVAILABLE if isinstance(exc, DatabaseUnavailable) else RETRY_FAILED
                    )
                    log.exception(
                        "hosted match %d: handling its clock failed; trying again in %d s",
                        hosted.id,
                        retry,
                    )
                    self._tables.pop(hosted.channel_id, None)  # reloaded from the store
                    await hosting.let_go(hosted.id, until=now + retry)
                except BaseException:
                    # cancelled (the bot stopping): a turn end in a thread may still change
                    # the copy in memory, so the next command reads the match again
                    self._tables.pop(hosted.channel_id, None)
                    raise
                else:
                    await hosting.let_go(hosted.id)
            await self._days_given()
            await self._announce_endings()

    async def _claimed(self, now: float) -> AsyncIterator[Hosted]:
        """The clocks due by ``now`` that no other process holds, claimed (``claim_due``),
        one by one, each while this process still holds it: the claims of those not fired
        yet are renewed every third of their length, as a lease is (``Sharing.holding``). A
        long batch (the long board's turn ends) would otherwise outlast them, and another
        process fire the same clock: one of the two would fail on the stored versions, and
        its clock wait for the retry."""
        hosting, seconds = self._ctx.store.hosting, self._ctx.settings.claim_seconds
        claimed = await hosting.claim_due(now, seconds)
        renewed = now
        held = {hosted.id for hosted in claimed}
        for index, hosted in enumerate(claimed):
            at = self._ctx.now()
            if at - renewed >= seconds / 3:
                renewed = at
                held = await hosting.renew_claims([h.id for h in claimed[index:]], at, seconds)
            if hosted.id in held:
                yield hosted

    async def _fire(self, table: Table, now: float) -> None:
        hosted, ctx = table.hosted, self._ctx
        due = hosted.due_at is not None and hosted.due_at <= now
        remind = hosted.remind_at is not None and hosted.remind_at <= now
        if hosted.phase == CHALLENGE and due:
            await lobby.expire(ctx, table)
        elif hosted.phase == SETUP and due:
            await setup_phase.setup_lapsed(ctx, table)
        elif hosted.phase == SETUP and remind:
            await setup_phase.setup_reminder(ctx, table)
        elif hosted.phase == PLAYING and due:
            await deadlines.deadline(ctx, table)
        elif hosted.phase == PLAYING and remind:
            await reminders.reminder(ctx, table)

    async def _days_given(self) -> None:
        """Outside the match's lock, after a deadline that gave an automatic away day
        (``Context.unmoved``): the player's other matches in the server stand still through
        it too (``Absences``, which takes their locks)."""
        raise NotImplementedError

    async def deliver(self) -> int:
        """Deliver what is due in the outbox; returns how many messages went."""
        return await self._deliverer.deliver_due()

    async def deliver_written(self) -> None:
        """Deliver what another part of the bot (the ladder) wrote to the outbox itself, and
        have the background delivery look again, so that a row that fails now is retried
        on time rather than at its next scheduled look."""
        await self.deliver()
        self._changed()

    # ---- plumbing ------------------------------------------------------------------------
    async def _command(
        self,
        place: Place,
        user: User,
        expect: Stamp | None,
        phases: tuple[str, ...],
        flow: Callable[[Table], Awaitable[Answered]],
        *,
        limited: bool = True,
        saves: bool = False,
        unloaded: bool = False,
    ) -> Answered:
        """Run ``flow`` on the channel's match (see ``_locked_command``; ``saves``: a flow
        that writes the match whenever it succeeds; ``unloaded``: one that can act on a
        match whose game cannot be loaded, given its table without the game)."""
        if limited:
            self._limit.take(user.id, self._ctx.now())
        try:
            return await self._locked_command(
                place.channel_id, expect, phases, flow, saves, unloaded
            )
        finally:
            await self._announce_endings()

    async def _locked_command(
        self,
        channel_id: int,
        expect: Stamp | None,
        phases: tuple[str, ...],
        flow: Callable[[Table], Awaitable[Answered]],
        saves: bool = False,
        unloaded: bool = False,
    ) -> Answered:
        """``flow`` on the channel's match as the store holds it, under the channel's lock.
        A flow that ``saves`` whenever it succeeds runs on the copy in memory without reading
        the stored versions first (``_unchecked``); one that can act ``unloaded`` is given a
        match whose game cannot be loaded without the game (``_loaded``)."""
        async with self._lock(channel_id):
            held = self._tables.get(channel_id) if saves else None
            if held is not None:
                try:
                    return await self._unchecked(held, expect, phases, flow)
                except _Behind:
                    pass  # run again on the match as stored, as if the check had come first
            table = await self._loaded(channel_id, unloaded)
            return await self._run(table, expect, phases, flow)

    def busy(self) -> bool:
        """Whether a call holds or waits on a channel's lock, an ending is being announced,
        the clocks and digests are being looked after (``run_due``), the outbox is being
        delivered or other work counts itself (``at_work``): what a pause of this process (a
        garbage collection, ``bot.collector``) would hold up."""
        return self._locks.busy() or self._deliverer.busy()

    def at_work(self) -> Counting:
        """``with`` it: work beside the service's own that a pause would hold up too (the
        ladder's and the events' ticks, which open matches and post), counted in ``busy``."""
        return self._locks.counting()

    async def _unchecked(
        self,
        table: Table,
        expect: Stamp | None,
        phases: tuple[str, ...],
        flow: Callable[[Table], Awaitable[Answered]],
    ) -> Answered:
        """``_run`` on a copy in memory whose versions were not checked against the store's
        (one read a command). The flow writes the match whenever it succeeds, and a write
        refuses a copy behind the store (StaleMatch, StaleHosted): a success proves the copy
        was current, so it is the answer the check would have let through. A refusal before
        a write of it went through (one that read the copy, or the write's own) is checked
        then: raised as it is if the copy was current, else ``_Behind``, the copy dropped,
        for the caller to run the flow on the stored match. Any other failure is raised as
        it is: a write whose answer was lost may have gone through, and must not be played
        again."""
        before = table.versions
        try:
            return await self._run(table, expect, phases, flow)
        except Refused:
            if table.versions != before:  # its write went through: the copy was current
                raise
            if await self._ctx.store.hosting.versions(table.hosted.id) == before:
                raise
            if self._tables.get(table.channel_id) is table:
                del self._tables[table.channel_id]
            raise _Behind from None

    async def _run(
        self,
        table: Table | None,
        expect: Stamp | None,
        phases: tuple[str, ...],
        flow: Callable[[Table], Awaitable[Answered]],
    ) -> Answered:
        """``flow`` on ``table`` (None: no match in the channel) once the command's checks
        pass: its phase and a stale ``expect``."""
        if table is None and expect is not None:
            raise StaleRequest(_(OVER))
        if table is None:
            raise Refused(self._no_match())
        if table.hosted.phase not in phases:
            raise Refused(wrong_phase(table.hosted))
        if expect is not None:
            check_stamp(table, expect, *self._stale_commands())
        try:
            return await flow(table)
        except Refused:
            raise
        except (StaleMatch, StaleHosted):
            self._tables.pop(table.channel_id, None)
            raise StaleRequest(
                _(
                    "The match changed while your command was being handled (another came "
                    "first), so nothing was done. Look at it with {command} and retry.",
                    command=self._ctx.cmd("board", localized=True),
                )
            ) from None
        except BaseException as failure:
            self._tables.pop(table.channel_id, None)  # this copy may be ahead of the store
            self._changed()  # and its posts and clocks may be stored: the loops look again
            if isinstance(failure, Exception) and robots.robot_sides(table.hosted):
                self._robots.look(table.channel_id)  # and its AI may have a turn there now
            raise
        finally:
            self._settle(table)

    async def _announce_endings(self) -> None:
        while self._ctx.ended:
            hosted = self._ctx.ended.pop(0)
            with self._locks.counting():
                for listener in self._listeners:
                    try:
                        await listener(hosted)
                    except Exception:
                        log.exception("a listener failed on the end of hosted match %d", hosted.id)

    def _settle(self, table: Table) -> None:
        """After every change: forget an ended match, or let its AI players look at it."""
        if table.hosted.phase == ENDED:
            if self._tables.get(table.channel_id) is table:
                del self._tables[table.channel_id]
        elif self._tables.get(table.channel_id) is table:
            self._robots.consider(table)

    @functools.cached_property
    def records(self) -> Records:
        """What a front end reads and keeps beside the commands (see ``records``)."""
        return Records(self._ctx.store, self._ctx.clock, self._ctx.languages)

    async def _expected(self, place: Place, expect: Stamp | None) -> Table:
        """Under the channel's lock: its live match, for a request made for ``expect`` (a
        button's match and turn; None: a command, for whatever match is here). Refused if
        there is none, or the match or turn has moved on since."""
        table = await self._loaded(place.channel_id)
        if table is None:
            raise self.nothing_here(expect)
        if expect is not None:
            check_stamp(table, expect, *self._stale_commands())
        return table

    def _stale_commands(self) -> tuple[str, str]:
        """What a stale request's refusal points to (``check_stamp``): the board, the panel."""
        return self._ctx.cmd("board", localized=True), self._ctx.cmd("play", localized=True)

    def pace(self, user: User) -> None:
        """Count one request of ``user`` against the commands' allowance (``RateLimited``
        beyond it), for the writes other desks make on a user's word (a tournament's entry,
        a ladder's queue): a flood of them is refused as a flood of commands is."""
        self._limit.take(user.id, self._ctx.now())

    def nothing_here(self, expect: Stamp | None = None) -> Refused:
        """The refusal of a request where no match is (``expect``: a button's, whose match
        is over): also what a front end says of a match it will not show the caller, so that
        whether one is there is never told."""
        return StaleRequest(_(OVER)) if expect is not None else Refused(self._no_match())

    def _no_match(self) -> str:
        """The refusal of a command where no match is (in the caller's language)."""
        return _(
            "There is no match here. Start one with {command}.",
            command=self._ctx.cmd("challenge", localized=True),
        )

    def _lock(self, channel_id: int) -> Held:
        """The channel's lock (``async with``), counted in ``busy`` meanwhile."""
        return self._locks.hold(channel_id)

    def _server_lock(self, guild_id: int) -> contextlib.AbstractAsyncContextManager[None]:
        """The server's lock (``Locks.server``) in every process sharing the database."""
        return self._everywhere(self._locks.server(guild_id), f"server:{guild_id}")

    def _player_lock(self, user_id: int) -> contextlib.AbstractAsyncContextManager[None]:
        """The player's lock (``Locks.player``) in every process sharing the database."""
        return self._everywhere(self._locks.player(user_id), f"player:{user_id}")

    @contextlib.asynccontextmanager
    async def _everywhere(self, held: Held, lease: str) -> AsyncIterator[None]:
        """``held``, this process's lock, and where processes share the database the lease
        ``lease`` too: a cap that counts across channels is checked, and the change it
        allows is made, by one process at a time. A server's commands reach one process
        (its shard's), but a player's other servers and the ladder's AI fill may be others'."""
        async with held:
            if not self._ctx.settings.shared:
                yield
                return
            sharing, seconds = self._ctx.store.sharing, self._ctx.settings.claim_seconds
            async with sharing.holding(lease, self._ctx.now, seconds, sleep=self._ctx.clock.sleep):
                yield

    async def _loaded(self, channel_id: int, unloaded: bool = False) -> Table | None:
        """``_table`` for a command: a match that cannot be loaded is refused clearly, or,
        for a command that can act on it ``unloaded`` (an admin's cancel), given without
        its game (``table.match`` None)."""
        try:
            return await self._table(channel_id)
        except CorruptMatch:
            log.exception("the match in channel %d cannot be loaded", channel_id)
            if unloaded:
                return await self._unloaded(channel_id)
            raise Refused(
                _(
                    "The match in this channel cannot be loaded: its stored data is damaged. "
                    "Nothing was done; please tell a server admin."
                )
            ) from None

    async def _table(self, channel_id: int) -> Table | None:
        """The channel's live hosted match, from memory while the store holds the same
        versions of it (another process may have changed it), else from the store (under
        the channel's lock)."""
        store = self._ctx.store
        table = self._tables.pop(channel_id, None)
        if table is not None and await store.hosting.versions(table.hosted.id) == table.versions:
            self._tables[channel_id] = table
            return table
        table = await self._unloaded(channel_id)
        if table is None:
            return None
        if table.hosted.match_id is not None:
            table.match = await store.load(table.hosted.match_id)
        self._tables[channel_id] = table
        return table

    async def _unloaded(self, channel_id: int) -> Table | None:
        """The channel's live hosted match as stored, its game not loaded."""
        hosted = await self._ctx.store.hosting.live_in_channel(channel_id)
        if hosted is None:
            return None
        return Table(hosted, Terms.from_json(hosted.terms), await self._names(hosted))

    async def _names(self, hosted: Hosted) -> dict[int, str]:
        names = {}
        for user_id in (
            hosted.issuer_id,
            hosted.invitee_id,
            hosted.challenger_id,
            hosted.opposition_id,
        ):
            if user_id is not None and user_id not in names:
                player = await self._ctx.store.player(user_id)
                names[user_id] = player.name if player else f"player {user_id}"
        return names

    def _changed(
        self,
        posts: Sequence[Post] | None = None,
        timers: bool = True,
        soonest: float = -math.inf,
    ) -> None:
        """After a commit: the timers read the clocks again if it set one (``soonest``;
        -inf: not known) sooner than the one they sleep until (a turn's end sets a later
        one: no read), or the digests are due a look; the outbox's workers are set on the
        destinations of the ``posts`` it queued (None: not known, the whole outbox is looked
        at). A staged action wakes nothing: it changes no clock and posts nothing."""
        digests = self._ctx.now() - self._digests_at >= digest.EVERY
        if timers and (soonest < self._timers_until or digests):
            self._timers_changed.set()
        if posts is None:
            self._queued = None
            self._outbox_changed.set()
        elif posts:
            if self._queued is not None:
                self._queued.update(post.destination for post in posts)
            self._outbox_changed.set()

    def link_with(self, linker: Linker) -> None:
        """Give the messages delivered from now on the web board's links (its public page
        on the posts about a started match, a player's private board on their notices)."""
        self._deliverer.linker = linker

    def on_change(self, listener: ChangeListener) -> None:
        """Call ``listener`` with a hosted match's id each time a change of it is saved by
        this process (a staged action too: a listener shows only what its audience may
        see), at once and under the match's lock: it must only take note, never wait."""
        self._watchers.append(listener)

    def _touched(self, hosted_id: int) -> None:
        for listener in self._watchers:
            try:
                listener(hosted_id)
            except Exception:
                log.exception("a change listener failed on hosted match %d", hosted_id)

    async def look_after_robots(self) -> None:
        """Where processes share the database: take up the AI matches whose AI has a turn
        to play that no process is playing (the one that was died). Each is played by the
        process that holds its AI lease (``_robot_lease``)."""
        for hosted in await self._ctx.store.hosting.live():
            if not robots.robot_sides(hosted) or self._robots.busy(hosted.channel_id):
                continue
            async with self._lock(hosted.channel_id):
                try:
                    table = await self._table(hosted.channel_id)
                except CorruptMatch:
                    continue
            if table is not None:
                self._robots.consider(table)

    async def _timer_loop(self) -> None:
        """Fire what is due, then sleep until the next clock comes due or one changes. One
        read a wake-up when nothing is due (a turn's end moved a deadline on): when the next
        clock comes (``next_due``) says too whether one has come (then it is claimed). Awake,
        it counts in ``busy``: a collection then would hold up a deadline that has come."""
        looked = self._ctx.now()  # ``start`` has just looked after the AI matches
        settings, backoff = self._ctx.settings, Backoff()
        while True:
            self._timers_until = math.inf  # a change from now on wakes the next nap
            self._timers_changed.clear()
            try:
                with self._locks.counting():
                    now = self._ctx.now()
                    when = await self._ctx.store.hosting.next_due(now)
                    fired = when is not None and when <= now
                    await self._run_due(fired)  # counted already
                    if settings.shared and now - looked >= settings.claim_seconds:
                        looked = now
                        await self.look_after_robots()
                        self._ctx.unmoved = True  # a day another process left unmoved
                        await self._days_given()
            except Exception:
                await self._after_failure("the timers", backoff)
                continue
            backoff.reset()
            if when is not None and not fired:
                self._timers_until = when
            await self._nap(self._timers_changed, when)  # fired: briefly, then read again

    async def _delivery_loop(self) -> None:
        """Set the outbox's workers on what is due whenever something is queued or falls
        due, without waiting for them (each destination's worker delivers on its own)."""
        backoff = Backoff()
        while True:
            queued, self._queued = self._queued, set()
            self._outbox_changed.clear()
            now = self._ctx.now()
            try:
                if queued is None or self._outbox_look_due(now):
                    self._outbox_looked = now
                    await self._deliverer.start_due()
                else:
                    self._deliverer.start_for(queued)
            except Exception:
                self._queued = None  # the next try looks at the whole outbox
                await self._after_failure("delivering the outbox", backoff)
                continue
            backoff.reset()
            await self._nap(self._outbox_changed, self._deliverer.next_try)

    def _outbox_look_due(self, now: float) -> bool:
        """Whether the delivery loop looks at the whole outbox rather than only where posts
        were queued: a row waiting for a retry (or a destination held) is due, or the loop
        has not looked for as long as it naps at most (rows another process left)."""
        due = self._deliverer.next_try
        longest = self._ctx.settings.poll_seconds or LONGEST_NAP
        return (due is not None and due <= now) or now - self._outbox_looked >= longest

    async def _after_failure(self, what: str, backoff: Backoff) -> None:
        """Log a loop's failure and wait before it tries again: briefly at first (a lost
        database connection is back within a second or two), longer while it goes on."""
        seconds = backoff.failed()
        log.exception("%s failed; trying again in %.1f s", what, seconds)
        await self._ctx.clock.sleep(seconds)

    async def _nap(self, wake: asyncio.Event, until: float | None) -> None:
        """Wait for ``wake``, or until the clock reaches ``until``."""
        longest = self._ctx.settings.poll_seconds or LONGEST_NAP
        seconds = longest if until is None else min(longest, until - self._ctx.now())
        seconds = max(seconds, SHORTEST_NAP)
        sleeper = asyncio.ensure_future(self._ctx.clock.sleep(seconds))
        waiter = asyncio.ensure_future(wake.wait())
        try:
            await asyncio.wait((sleeper, waiter), return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (sleeper, waiter):
                task.cancel()

    # ---- the AI players' commands ----------------------------------------------------------
    async def _robot_job(self, channel_id: int) -> robots.Job | None:
        async with self._lock(channel_id):
            try:
                table = await self._table(channel_id)
            except CorruptMatch:
                return None
            if table is None:
                return None
            job = robots.job_of(table)
            if job is None and self._ctx.settings.shared:
                table = await self._robot_lease_back(table)
                job = None if table is None else robots.job_of(table)
            if table is None or job is None:
                return None
            if self._ctx.settings.shared and not await self._robot_lease(table):
                return None
            return robots.with_game(job, table)

    async def _robot_lease(self, table: Table) -> bool:
        """Whether this process plays the AI's turns of this match (it holds the match's AI
        lease): one process does, where several share the database (a lone one needs none)."""
        sharing, now = self._ctx.store.sharing, self._ctx.now()
        return await sharing.claim(f"ai:{table.hosted.id}", now, self._ctx.settings.claim_seconds)

    async def _robot_lease_back(self, table: Table) -> Table | None:
        """The AI has nothing left to do: give its lease back, so that the process handling
        the next change that gives it a turn plays it; then the match read again (a turn
        ended through another process that found the lease still held is seen here)."""
        await self._ctx.store.sharing.release(f"ai:{table.hosted.id}")
        return await self._table(table.channel_id)

    async def _robot_command(self, channel_id: int, stamp: Stamp, flow: Flow) -> Reply:
        try:
            return await self._locked_command(channel_id, stamp, (SETUP, PLAYING), flow)
        finally:
            await self._announce_endings()


OVER = N_("That match is over, so nothing was done.")  # shown as _(OVER)


class _Behind(Exception):
    """A copy of a match in memory was behind the store when a command ran on it unchecked
    (``Host._unchecked``): the command runs again on the match as stored."""


def check_stamp(table: Table, expect: Stamp, board: str, play: str) -> None:
    """Refuse a button (or command) made for another match in this channel, or for a turn
    that has ended since, or taken back since (and played again: its number is the same).
    Only public facts are compared: the match, its turn number and its takebacks."""
    if expect.match != table.hosted.id:
        raise StaleRequest(_(OVER))
    if expect.turn == table.turn and expect.back not in (None, table.rewinds):
        raise StaleRequest(
            _(
                "That was before a turn was taken back, so nothing was done. See the turn as "
                "it is now with {command}.",
                command=play,
            )
        )
    if expect.turn != table.turn:
        raise StaleRequest(
            _(
                "That turn has already ended, so nothing was done. See the match now with "
                "{command}.",
                command=board,
            )
        )


def wrong_phase(hosted: Hosted) -> str:
    """Why a command is refused in the match's phase."""
    if hosted.phase == CHALLENGE:
        return _("The match has not been accepted yet, so that cannot be done now.")
    if hosted.phase == SETUP:
        return _("The players are still choosing their setup, so that cannot be done now.")
    if hosted.phase == PLAYING:
        return _("The game is under way, so that cannot be done now.")
    return _("That cannot be done now.")
