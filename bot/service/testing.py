"""Stand-ins for the outside world, for tests, benchmarks and front ends under development:
a delivery that records what every channel and user received, and a renderer whose image
bytes are a digest of exactly what it was given (so equal bytes mean equal views)."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rules import GameView
from storage import Config, Store

from .clock import ManualClock
from .ports import (
    DirectMessagesClosed,
    Message,
    Pointing,
    Renderer,
    Shown,
    Status,
    Undeliverable,
)
from .service import MatchService
from .terms import Settings

POST, PRIVATE, ONLY_YOU = "post", "private", "only-you"
# What a harness wires to its service, as the bot does where it is assembled (the ladder's
# rating: ``bot.ladder.rating.listen``): called with the service, its store and the clock at
# every open, a restart's too, before the service starts.
Wiring = Callable[[MatchService, Store, ManualClock], object]


@dataclass(frozen=True)
class Delivered:
    kind: str  # POST, PRIVATE or ONLY_YOU (the fallback shown to one user in a channel)
    channel_id: int
    user_id: int | None
    message: Message
    key: str


@dataclass
class RecordingDelivery:
    """Records every message it is given, once per key (as a front end that honours the key
    does), and fails on demand: users in ``closed_dms`` have their DMs closed, and the next
    ``fail_next`` calls raise ConnectionError (a transient failure). ``after_delivery`` runs
    after each message is recorded (e.g. to simulate a crash right then)."""

    log: list[Delivered] = field(default_factory=list)
    closed_dms: set[int] = field(default_factory=set)
    fail_next: int = 0
    after_delivery: Callable[[Delivered], None] | None = None
    attempts: int = 0

    async def post(self, channel_id: int, message: Message, key: str) -> None:
        self._deliver(Delivered(POST, channel_id, None, message, key))

    async def send_private(self, user_id: int, channel_id: int, message: Message, key: str) -> None:
        self._check()
        if user_id in self.closed_dms:
            raise DirectMessagesClosed(f"user {user_id} does not accept direct messages")
        self._record(Delivered(PRIVATE, channel_id, user_id, message, key))

    async def send_ephemeral(
        self, channel_id: int, user_id: int, message: Message, key: str, shown: Shown
    ) -> None:
        """Shown in one piece, marked before it goes (the mark taken back if it fails):
        never shown twice."""
        if shown.pieces:
            return
        await shown.mark(1)
        try:
            self._deliver(Delivered(ONLY_YOU, channel_id, user_id, message, key))
        except ConnectionError:
            await shown.mark(0)
            raise

    def _deliver(self, item: Delivered) -> None:
        self._check()
        self._record(item)

    def _check(self) -> None:
        self.attempts += 1
        if self.fail_next:
            self.fail_next -= 1
            raise ConnectionError("the front end is unreachable (simulated)")

    def _record(self, item: Delivered) -> None:
        if any(seen.key == item.key for seen in self.log):
            return
        self.log.append(item)
        if self.after_delivery is not None:
            self.after_delivery(item)

    # ---- transcripts -----------------------------------------------------------------------
    def channel(self, channel_id: int) -> list[Message]:
        """What everyone in the channel saw."""
        return [d.message for d in self.log if d.kind == POST and d.channel_id == channel_id]

    def user(self, user_id: int) -> list[Delivered]:
        """What only this user saw: private messages and fallbacks shown to them alone."""
        return [d for d in self.log if d.user_id == user_id]

    def texts(self, channel_id: int) -> list[str]:
        return [message.text for message in self.channel(channel_id)]


@dataclass
class RecordingThreads:
    """Opens threads as new channel ids (from 900_000 up) and remembers their parent and
    name; channels in ``no_threads`` cannot have any."""

    opened: dict[int, tuple[int, str]] = field(default_factory=dict)
    no_threads: set[int] = field(default_factory=set)

    async def open_thread(self, channel_id: int, name: str) -> int:
        if channel_id in self.no_threads:
            raise Undeliverable(f"channel {channel_id} cannot have threads")
        thread_id = 900_000 + len(self.opened)
        self.opened[thread_id] = (channel_id, name)
        return thread_id


class DigestRenderer:
    """Images as ``<kind>:<digest of the view and status>``: deterministic, fast, and equal
    exactly when what was drawn from is equal."""

    def board(self, view: GameView, status: Status, language: str = "en") -> bytes:
        if view.viewer is not None:
            raise ValueError("the public board is drawn from a spectator's view")
        return self._digest("board", language, view, status)

    def private(
        self, view: GameView, status: Status, marks: Pointing | None = None, language: str = "en"
    ) -> bytes:
        if view.viewer is None:
            raise ValueError("a private board is drawn from a player's view")
        return self._digest("private", language, view, status, marks)

    @staticmethod
    def _digest(
        kind: str, language: str, view: GameView, status: Status, marks: Pointing | None = None
    ) -> bytes:
        """``<kind>:<digest>``, and ``<kind>@<language>:<digest>`` in a language but English."""
        drawn = (view, status) if marks is None else (view, status, marks)
        digest = hashlib.sha256(repr(drawn).encode()).hexdigest()[:32]
        return f"{kind}{'' if language == 'en' else '@' + language}:{digest}".encode()


class Harness:
    """A service on a real database (a SQLite file, or a PostgreSQL ``Config``), with a
    manual clock, a recording delivery and the digest renderer, run without background
    tasks: ``settle`` does their work on demand
    (AI players search in threads, 50 ms a turn). ``wiring`` subscribes what listens to the
    service (the ladder, which the service knows nothing of).
    ``crash`` drops the service and store without delivering anything or closing cleanly
    in between, and opens new ones on the same file, as a restart after a crash would."""

    def __init__(
        self,
        database: Path | Config,
        *,
        settings: Settings | None = None,
        clock: ManualClock | None = None,
        delivery: RecordingDelivery | None = None,
        renderer: Renderer | None = None,
        seed: int = 0,
        wiring: Sequence[Wiring] = (),
    ) -> None:
        self.config = database if isinstance(database, Config) else Config(path=database)
        self.settings = settings or Settings(
            burst=1000,
            every=0.001,
            rules_processes=0,  # turn ends in threads: no worker starts with each test's service
            ai_processes=0,
            draw_processes=0,
            ai_seconds=0.05,
            auto_away=False,
        )
        self.clock = clock or ManualClock()
        self.delivery = delivery or RecordingDelivery()
        self.renderer = renderer or DigestRenderer()
        self.threads = RecordingThreads()
        self.seed = seed
        self.wiring = list(wiring)
        self.store: Store | None = None
        self.service: MatchService | None = None

    async def open(self) -> MatchService:
        self.store = await Store.open(self.config)
        self.service = MatchService(
            self.store,
            self.delivery,
            self.renderer,
            clock=self.clock,
            settings=self.settings,
            rng=random.Random(self.seed),
        )
        for wire in self.wiring:
            wire(self.service, self.store, self.clock)
        await self.service.start(background=False)
        return self.service

    @property
    def running(self) -> MatchService:
        """The service of an open harness."""
        if self.service is None:
            raise RuntimeError("the harness is not open: use it in `async with`")
        return self.service

    async def __aenter__(self) -> Harness:
        await self.open()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        if self.service is not None:
            await self.service.stop()
        if self.store is not None:
            await self.store.close()
        self.store = self.service = None

    async def crash(self) -> MatchService:
        """Forget the running service (nothing more is delivered) and start a new one."""
        await self.close()
        return await self.open()

    async def settle(self) -> None:
        """What the background tasks would do now: the AI players' turns and the clock's
        work, then the outbox."""
        assert self.service is not None
        await self.service.robots_idle()
        await self.service.run_due()
        await self.service.robots_idle()
        while await self.service.deliver():
            pass

    async def advance(self, seconds: float) -> None:
        self.clock.advance(seconds)
        await self.settle()
