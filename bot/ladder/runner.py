"""The ladder's background work, for a front end to start beside the match service: rate
finished matches left unrated (a crash between a match's end and its rating), pair waiting
players whose allowed rating gap has widened with time, opening their matches, and, where
a server lets it, pair whoever has waited long enough with an AI player; then expire the
stale queue entries left (their players are told privately); and open the matches of
stored pairings whose opener died (its claim run out).

``start`` catches up at once, then ``tick`` runs every ``every`` seconds on the clock;
tests call ``tick`` themselves."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from dataclasses import dataclass
from functools import partial

from bot.i18n import SOURCE, speaking
from bot.service import Clock, MatchService, Settings, SystemClock, Threads, load_guild
from bot.service.languages import player_language
from bot.service.outbox import private_post
from bot.service.robots import ai_room, at_ai_cap
from storage import Post, Store

from . import texts
from .opening import Opened, Opener
from .queue import EXPIRE_AFTER, Expired, Matchmaking, Pairing
from .results import Recorded, Results

log = logging.getLogger(__name__)
EVERY = 60.0  # seconds between ticks: the gap widens by under a point a minute

LEASE = "ladder"  # who pairs, rates and expires for every process


@dataclass(frozen=True)
class Tick:
    """What one tick did."""

    rated: list[Recorded]
    expired: list[Expired]
    opened: list[Opened]


class LadderRunner:
    def __init__(
        self,
        service: MatchService,
        store: Store,
        threads: Threads,
        *,
        clock: Clock | None = None,
        settings: Settings | None = None,
        rng: random.Random | None = None,
        every: float = EVERY,
    ) -> None:
        self._service = service
        self._clock = clock or SystemClock()
        self._settings = settings or Settings()
        self._store = store
        self._results = Results(store, self._clock.now)
        self._queue = Matchmaking(store, self._clock.now, grace=every)  # paired till it ticks
        self._opener = Opener(
            service, store, threads, self._clock.now, self._settings, rng or random.Random()
        )
        self._every = every
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> list[Recorded]:
        """Rate what a crash left unrated (returned), then tick in the background. Start it
        before ``MatchService.start`` so that those results go on the ladder before any
        match that ends as the service catches up with its own deadlines. Where processes
        share the database, the one holding the ladder's lease does this work for all; a
        process alone drops what its earlier life held first (as ``MatchService.start``
        does, which comes after this), so that a quick restart, within that life's lease,
        still catches up here."""
        if not self._settings.shared:
            await self._store.hosting.forget_claims()
        rated = await self._results.catch_up() if await self._lead() else []
        self._task = asyncio.create_task(self._loop(), name="tora-ladder")
        return rated

    async def resume_pairings(self) -> list[Opened]:
        """Open the matches of pairings a crash left unopened (their players were taken off
        the queue already): call it once the match service has started. Each tick does it
        too, for a process that takes the lease over later."""
        opened = await self._resume() if await self._lead() else []
        await self._opener.point(opened)
        return opened

    async def _resume(self) -> list[Opened]:
        """Open the stored pairings that nobody is opening (``Opener.resume`` claims each
        first: one a desk or another process is opening now is left to it)."""
        opened = []
        for pairing in await self._store.ladders.pairings():
            result = await self._opener.resume(pairing)
            if isinstance(result, Opened):
                opened.append(result)
        return opened

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self._task = None

    async def tick(self) -> Tick:
        """Catch up on unrated matches, expire stale entries, pair whom the gaps allow and
        open their matches, then the matches of stored pairings left unopened by an opener
        that died (counted in the service's ``busy`` meanwhile)."""
        with self._service.at_work():
            return await self._tick()

    async def _tick(self) -> Tick:
        rated = await self._results.catch_up()
        languages = await self._expiring_languages()

        def notice(entry: Expired) -> Post:
            language = languages.get(entry.player_id, SOURCE)
            with speaking(language):
                text = texts.expired(entry.board, self._settings)
            return private_post(entry.channel_id, text, entry.player_id, language)

        opened = []
        for guild_id, board in await self._store.ladders.waiting_ladders():
            opened += await self._open(await self._queue.pair(guild_id, board))
            opened += await self._fill(guild_id, board)
        # after pairing: a server's AI may fill the queue at its very bound (`ai_fill:24h`);
        # pairing skips entries that waited longer than that and a tick (the bot was down)
        expired = await self._queue.expire(notice)
        if expired:
            await self._service.deliver_written()
        opened += await self._resume()
        await self._opener.point(opened)
        return Tick(rated, expired, opened)

    async def _fill(self, guild_id: int, board: str) -> list[Opened]:
        """Where the server lets the AI fill its queue, pair whoever waited long enough with
        the AI and open their matches, within the caps on matches against the AI: under
        their locks in every process (``MatchService.ai_caps``, the waiting players' and the
        server's) from the check of the room left to the openings, so that a challenge to
        the AI made meanwhile, in any process, cannot take the same room."""
        wait = (await load_guild(self._store, guild_id)).ai_fill_after
        if wait is None:
            return []
        now = self._clock.now()
        waiting = await self._queue.waiting(guild_id, board)
        waited = [entry.player_id for entry in waiting if now - entry.joined_at >= wait]
        if not waited:
            return []
        async with self._service.ai_caps(guild_id, waited):
            room = await ai_room(self._store, self._settings, guild_id)  # the server's cap
            full = partial(at_ai_cap, self._store, self._settings)  # each player's
            return await self._open(
                await self._queue.pair_with_ai(guild_id, board, wait, waited, room, full)
            )

    async def _open(self, pairings: list[Pairing]) -> list[Opened]:
        """The matches of ``pairings`` opened (those that could be)."""
        results = [await self._opener.open(pairing) for pairing in pairings]
        return [result for result in results if isinstance(result, Opened)]

    async def _expiring_languages(self) -> dict[int, str]:
        """The language of each player whose wait is over (their notice is a DM in it),
        read before the transaction that takes them off the queue."""
        cutoff = self._clock.now() - EXPIRE_AFTER
        found: dict[int, str] = {}
        for guild_id, board in await self._store.ladders.waiting_ladders():
            for entry in await self._store.ladders.queue(guild_id, board):
                if entry.joined_at <= cutoff and entry.player_id not in found:
                    found[entry.player_id] = await player_language(self._store, entry.player_id)
        return found

    async def _lead(self) -> bool:
        """Whether this process does the ladder's work now (it holds or renews the lease;
        another takes over when a holder that died lets it run out: TORA_CLAIM_SECONDS
        after the tick it missed, the lease being renewed at each tick)."""
        seconds = self._every + self._settings.claim_seconds
        return await self._store.sharing.claim(LEASE, self._clock.now(), seconds)

    async def _loop(self) -> None:
        while True:
            await self._clock.sleep(self._every)
            try:
                if await self._lead():
                    await self.tick()
            except Exception:
                log.exception("the ladder's tick failed; trying again in %.0f s", self._every)
