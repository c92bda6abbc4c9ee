"""Live updates: Server-Sent Events for the pages that watch a match. Each open stream has
an audience (anyone, or one player of the match); when a match changes, the state each of
its audiences sees is worked out once and a ``state`` event with its version goes to their
streams only if that state changed, so a change hidden from an audience (the opponent's
staged action) sends it nothing at all. The page then fetches the state.

A change is heard at once when this process saved it (the service's change hook); a
change another process saved (PostgreSQL, several processes) is found by reading the
versions of every watched match in one query each ``poll`` seconds."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from aiohttp import web

from bot.app.board_memo import Kept
from bot.service import MatchService, Refused
from rules import Side

from .guard import CSP, HEADERS

log = logging.getLogger("bot.web")

HEARTBEAT = 15.0  # seconds between comments that keep a quiet stream open
RETRY = 2000  # milliseconds a browser waits before it reconnects
POLL = 1.0  # seconds between reads of the watched matches' versions
LOOK = 0.5  # seconds between looks at whether a quiet stream's page is still there
POLLED = 500  # matches whose versions one query reads
CLOSED = "closed"  # the version a stream's last event gives when its audience is gone
STOP = ""  # what ends a stream without an event: the server stops (the page reconnects)
BEAT = "\n"  # what has a quiet stream send a heartbeat comment

Audience = tuple[int, Side | None]  # a match, and whose eyes (None: anyone)
Versioner = Callable[[int, Side | None], Awaitable[str]]
Holds = Callable[[], Awaitable[bool]]  # whether a stream's reader may still see its audience's


@dataclass(eq=False)
class Stream:
    """One open stream: the versions to send it, newest last (``HEARTBEAT`` and ``STOP``
    among them), its page's request, when it was last sent anything, and what says whether
    its reader still may follow it (a player's link: None for the public's)."""

    audience: Audience
    request: web.Request
    quiet_since: float
    holds: Holds | None = None
    queue: asyncio.Queue[str] = field(default_factory=asyncio.Queue)


class Hub:
    """The open streams by match, and what tells them of changes. ``version`` gives the
    version of the state an audience sees (``CLOSED`` once it may see it no more)."""

    def __init__(
        self,
        service: MatchService,
        version: Versioner,
        *,
        poll: float = POLL,
        heartbeat: float = HEARTBEAT,
    ) -> None:
        self.service = service
        self.version = version
        self.poll = poll
        self.heartbeat = heartbeat
        self._streams: dict[int, set[Stream]] = {}
        self._sent: dict[Audience, str] = {}
        self._stored: dict[int, tuple[int, int | None]] = {}
        self._dirty: set[int] = set()  # changed here (the service's hook)
        self._polled: set[int] = set()  # found moved on by the poll (any process)
        self._worked: dict[int, tuple[int, int | None]] = {}  # versions last worked out
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._closing = False
        service.on_change(self.changed)

    # ---- life ------------------------------------------------------------------------------
    def start(self) -> None:
        self._tasks = [
            asyncio.create_task(self._refresher(), name="web-refresh"),
            asyncio.create_task(self._poller(), name="web-poll"),
            asyncio.create_task(self._sweeper(), name="web-sweep"),
        ]

    async def stop(self) -> None:
        """End every stream (each answer finishes), then the background tasks."""
        self._closing = True
        for streams in self._streams.values():
            for stream in streams:
                stream.queue.put_nowait(STOP)
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks = []

    @property
    def watched(self) -> int:
        """How many streams are open."""
        return sum(len(streams) for streams in self._streams.values())

    # ---- changes ---------------------------------------------------------------------------
    def changed(self, match: int) -> None:
        """The service saved a change of ``match`` (called under its lock: note it only)."""
        if match in self._streams:
            self._dirty.add(match)
            self._wake.set()

    async def _refresher(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            await self.refresh_pending()

    async def refresh_pending(self) -> None:
        """Refresh the matches the service said it changed, then those the poll found
        moved on (each unless a refresh has already worked out the versions it found)."""
        dirty, self._dirty = self._dirty, set()
        polled, self._polled = self._polled - dirty, set()
        for match, seen in [(m, False) for m in dirty] + [(m, True) for m in polled]:
            try:
                await self.refresh(match, unless_seen=seen)
            except Exception:
                log.exception("the live state of match %d could not be worked out", match)

    async def refresh(self, match: int, unless_seen: bool = False) -> None:
        """Work out each audience's version of ``match`` once, and tell its streams if it
        moved on. The match's stored versions are read first and kept for the poll, so
        that the poll does not work out again a change this refresh has seen (and one saved
        after that read is newer than what it keeps, so the poll still finds it); with
        ``unless_seen`` (the poll found it), not at all when a refresh already worked out
        these versions (the poll read them while that refresh was reading)."""
        if match in self._streams:
            stored = await self.service.watched_versions([match])
            if match in stored and match in self._streams:
                if unless_seen and self._worked.get(match) == stored[match]:
                    return
                self._stored[match] = self._worked[match] = stored[match]
        audiences = {stream.audience for stream in self._streams.get(match, ())}
        for audience in audiences:
            version = await self.version(*audience)
            if not self._watching(audience):  # its last page closed during the read
                continue
            if self._sent.get(audience) == version:
                continue
            self._sent[audience] = version
            for stream in self._streams.get(match, ()):
                if stream.audience == audience:
                    stream.queue.put_nowait(version)

    async def _poller(self) -> None:
        while True:
            await asyncio.sleep(self.poll)
            try:
                await self.look_for_changes()
            except Exception:
                log.exception("reading the watched matches' versions failed")

    async def look_for_changes(self) -> None:
        """Read the versions of every watched match in one query; refresh those that moved
        on since the last read (changed by any process)."""
        watched = sorted(self._streams)
        if not watched:
            return
        stored: dict[int, tuple[int, int | None]] = {}
        for start in range(0, len(watched), POLLED):
            stored |= await self.service.watched_versions(watched[start : start + POLLED])
        for match, versions in stored.items():
            if match not in self._streams:  # its last page closed during the read
                continue
            if self._stored.get(match) != versions:  # a match new to the poll too
                self._polled.add(match)
            self._stored[match] = versions
        if self._polled:
            self._wake.set()

    async def _sweeper(self) -> None:
        """Every ``LOOK`` seconds (or ``heartbeat``, if shorter): end the streams whose page
        is gone, and have those quiet for ``heartbeat`` seconds send a heartbeat. The
        server does not cancel a handler whose client left (a cancelled action could stop
        half-way), so this is how a closed or reloaded page frees its place among the
        address's streams at once, not at the next heartbeat. One task looks at every
        stream, rather than each stream waking on its own."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(min(LOOK, self.heartbeat))
            now = loop.time()
            for streams in self._streams.values():
                for stream in streams:
                    if gone(stream.request):
                        stream.queue.put_nowait(STOP)
                    elif now - stream.quiet_since >= self.heartbeat and stream.queue.empty():
                        stream.quiet_since = now
                        stream.queue.put_nowait(BEAT)

    # ---- streams ---------------------------------------------------------------------------
    async def serve(
        self, request: web.Request, audience: Audience, holds: Holds | None = None
    ) -> web.StreamResponse:
        """Hold an event stream open for ``audience``: the version now, then each new one,
        with a heartbeat comment when nothing happens for a while; while ``holds`` says its
        reader may still follow it (``_follow``)."""
        first = await self.version(*audience)
        stream = Stream(audience, request, asyncio.get_running_loop().time(), holds)
        self._streams.setdefault(audience[0], set()).add(stream)
        self._sent.setdefault(audience, first)
        answer = web.StreamResponse(
            headers={
                "Content-Type": "text/event-stream",
                "Cache-Control": "no-store",
                "X-Accel-Buffering": "no",  # a reverse proxy passes each event on at once
                "Content-Security-Policy": CSP,
            }
            | HEADERS
        )
        try:
            await answer.prepare(request)
            await answer.write(f"retry: {RETRY}\n\n".encode())
            await answer.write(event(first))
            await self._follow(answer, stream, first)
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            self._drop(stream)
        return answer

    async def _follow(self, answer: web.StreamResponse, stream: Stream, last: str) -> None:
        """Send each new version until the audience's state closes, the page goes or the
        server stops; a heartbeat when the sweeper says the stream is quiet. Before sending
        anything, a stream whose reader may follow it no more (a player's link was
        replaced: the link is checked only when a stream opens) is closed instead, so it
        tells them nothing of what happened since."""
        loop = asyncio.get_running_loop()
        while last != CLOSED and not self._closing:
            version = await stream.queue.get()
            if version == STOP:
                return
            if stream.holds is not None and not await stream.holds():
                await answer.write(event(CLOSED))
                return
            if version == BEAT:
                await answer.write(b": heartbeat\n\n")
            elif version != last:
                await answer.write(event(version))
                last = version
                stream.quiet_since = loop.time()

    def _watching(self, audience: Audience) -> bool:
        """Whether a stream of ``audience`` is open: after an await, what is noted of an
        audience (or its match) whose last page closed meanwhile would stay for good, and a
        version noted as sent would keep a page of it opened later from being told."""
        return any(s.audience == audience for s in self._streams.get(audience[0], ()))

    def _drop(self, stream: Stream) -> None:
        match = stream.audience[0]
        streams = self._streams.get(match)
        if streams is None:
            return
        streams.discard(stream)
        if not self._watching(stream.audience):
            self._sent.pop(stream.audience, None)
        if not streams:
            del self._streams[match]
            self._stored.pop(match, None)
            self._worked.pop(match, None)


def gone(request: web.Request) -> bool:
    """Whether the client of ``request`` has closed its connection."""
    transport = request.transport
    return transport is None or transport.is_closing()


def event(version: str) -> bytes:
    return f"event: state\ndata: {json.dumps({'version': version})}\n\n".encode()


async def version_or_closed(get: Callable[[], Awaitable[Kept]]) -> str:
    """The version of the state ``get`` reads; ``CLOSED`` when it refuses (the match has
    ended for a player's stream, or is gone)."""
    try:
        return str((await get()).state["version"])
    except Refused:
        return CLOSED
