"""The outbox delivers each destination's posts in order, several destinations at once: a
channel whose requests Discord holds (stalled in the emulator) delays none of the others, and
posts to one channel keep their order through failures, retries and interleaved deliveries,
each delivered once."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest
from service_helpers import until

from bot.service import Message, Place, Terms, User, outbox
from bot.service.testing import Harness, RecordingDelivery
from harness.stage import Stage
from storage import Post, Store

HOUR = 3600.0


@dataclass
class JitteryDelivery(RecordingDelivery):
    """Each delivery takes a random number of event-loop turns, and some fail (transient):
    deliveries to different destinations interleave, and retries come in between."""

    rng: random.Random = field(default_factory=lambda: random.Random(0))
    went: list[tuple[tuple[str, int], str]] = field(default_factory=list)  # every success

    async def post(self, channel_id: int, message: Message, key: str) -> None:
        await self._jitter(("channel", channel_id), key)
        await super().post(channel_id, message, key)

    async def send_private(self, user_id: int, channel_id: int, message: Message, key: str) -> None:
        await self._jitter(("user", user_id), key)
        await super().send_private(user_id, channel_id, message, key)

    async def _jitter(self, destination: tuple[str, int], key: str) -> None:
        for _ in range(self.rng.randrange(6)):
            await asyncio.sleep(0)
        if self.rng.random() < 0.25:
            raise ConnectionError("the front end is unreachable (simulated)")
        self.went.append((destination, key))


def outbox_id(key: str) -> int:
    return int(key.rsplit("-", 1)[1])


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_posts_keep_their_order_per_destination_through_failures(
    tmp_path: Path, seed: int
) -> None:
    players = [User(n, f"p{n}") for n in range(1, 9)]
    places = [Place(guild_id=1, channel_id=100 + n) for n in range(4)]
    delivery = JitteryDelivery(rng=random.Random(seed))
    async with Harness(tmp_path / "t.sqlite3", delivery=delivery) as h:
        service = h.service

        async def open_match(place: Place, first: User, second: User) -> None:
            await service.challenge(place, first, second, Terms(turn_seconds=10 * HOUR))
            await service.accept(place, second)
            await service.setup(place, first, {"strategy": "aggressive"})
            await service.setup(place, second, {"strategy": "defensive"})
            await service.end_turn(place, first)
            await service.end_turn(place, second)

        async def keep_delivering() -> None:
            for _ in range(40):
                await service.deliver()
                await asyncio.sleep(0)

        matches = (
            open_match(place, players[2 * n], players[2 * n + 1]) for n, place in enumerate(places)
        )
        await asyncio.gather(*matches, keep_delivering(), keep_delivering())
        for _ in range(12):  # past every retry (2 s, doubling)
            await h.advance(60)
    keys = [key for _to, key in delivery.went]
    assert len(keys) == len(set(keys))  # nothing delivered twice
    by_destination: dict[tuple[str, int], list[int]] = {}
    for destination, key in delivery.went:
        by_destination.setdefault(destination, []).append(outbox_id(key))
    assert {to for to in by_destination if to[0] == "channel"} == {
        ("channel", place.channel_id) for place in places
    }
    for ids in by_destination.values():
        assert ids == sorted(ids)  # in the order they were queued
    for place in places:  # and what the channel saw reads as the match went
        texts = h.delivery.texts(place.channel_id)
        assert "challenges" in texts[0] and "ended their turn" in texts[-1]
        assert [i for i, text in enumerate(texts) if "ended their turn" in text] == [4, 5]


async def test_a_stalled_channel_does_not_delay_another_channels_posts(tmp_path: Path) -> None:
    async with Stage(tmp_path, ("ann", "bob", "cid", "dee"), channels=2) as stage:
        emu, slow, quick = stage.emu, stage.channels[0], stage.channels[1]
        held = emu.stall("POST", rf"^/channels/{slow}/messages$")  # Discord holds it
        await stage.slash("ann", "challenge", opponent="bob", channel=slow)
        await asyncio.wait_for(held.reached.wait(), 30)
        await stage.slash("ann", "decline", channel=slow)  # queued behind the held post
        await stage.slash("cid", "challenge", opponent="dee", channel=quick)
        await stage.posted("cid challenges dee", channel=quick)
        assert emu.public_messages(slow) == []  # still held
        held.release()
        await stage.posted("takes the challenge back", channel=slow)
        texts = [m.text() for m in emu.public_messages(slow)]
        assert len(texts) == 2 and "ann challenges bob" in texts[0] and "back" in texts[1]


@pytest.mark.parametrize("shared", [False, True])
async def test_a_backlog_longer_than_a_read_goes_in_order_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shared: bool
) -> None:
    """A destination's rows are read a few at a time with their files (``outbox.BATCH``):
    a backlog of many reads' worth, with failures and retries between, still goes whole,
    in order, each row once; with processes sharing the database, under the lease."""
    monkeypatch.setattr(outbox, "BATCH", 3)
    delivery = JitteryDelivery(rng=random.Random(4))
    settings = Harness(tmp_path / "unused").settings
    settings = replace(settings, poll_seconds=30.0) if shared else settings
    place, ann, bob = Place(1, 100), User(1, "ann"), User(2, "bob")
    async with Harness(tmp_path / "t.sqlite3", delivery=delivery, settings=settings) as h:
        await h.service.challenge(place, ann, bob, Terms(turn_seconds=10 * HOUR))
        await h.service.accept(place, bob)
        await h.service.setup(place, ann, {"strategy": "aggressive"})
        await h.service.setup(place, bob, {"strategy": "defensive"})
        for _turn in range(5):  # queued before anything goes: a backlog of several reads
            await h.service.end_turn(place, ann)
            await h.service.end_turn(place, bob)
        queued = await h.store.hosting.private_queue()
        for _ in range(20):  # past every retry (2 s, doubling)
            await h.advance(60)
        assert await h.store.hosting.private_queue() == []
    went = [(to, outbox_id(key)) for to, key in delivery.went]
    assert sorted(row_id for _to, row_id in went) == sorted(row.id for row in queued)
    for destination in {to for to, _id in went}:
        ids = [row_id for to, row_id in went if to == destination]
        assert ids == sorted(ids)
    turns = [text for text in h.delivery.texts(place.channel_id) if "ended their turn" in text]
    assert [("ann" in turn.split("ended")[0]) for turn in turns] == [True, False] * 5


@dataclass
class GatedDelivery(RecordingDelivery):
    """Holds every post until ``gate`` is set: a worker stays at work on its rows
    (``in_flight``: the posts held or gone through)."""

    gate: asyncio.Event = field(default_factory=asyncio.Event)
    in_flight: int = 0

    async def post(self, channel_id: int, message: Message, key: str) -> None:
        self.in_flight += 1
        await self.gate.wait()
        await super().post(channel_id, message, key)


@pytest.mark.parametrize("shared", [False, True])
async def test_a_worker_reads_its_destination_again_only_for_rows_it_has_not_read(
    tmp_path: Path, shared: bool
) -> None:
    """A look at the queue while a destination's worker is at work (each commit that queues
    posts makes one) finds the rows that worker read: it does not read them again. A row
    queued after that read is read and delivered by the same worker, in order."""
    settings = Harness(tmp_path / "unused").settings
    settings = replace(settings, poll_seconds=30.0) if shared else settings
    place, ann, bob = Place(1, 100), User(1, "ann"), User(2, "bob")
    async with Harness(tmp_path / "t.sqlite3", settings=settings) as h:
        gated = GatedDelivery()
        deliverer = outbox.Deliverer(h.store, gated, h.clock, settings)
        reads: list[tuple[str, int]] = []
        outgoing = h.store.hosting.private_outgoing

        async def counted(destination: tuple[str, int], limit: int) -> list[outbox.Queued]:
            reads.append(destination)
            return await outgoing(destination, limit)

        h.store.hosting.private_outgoing = counted  # type: ignore[method-assign]
        await h.service.challenge(place, ann, bob, Terms(turn_seconds=10 * HOUR))
        [working] = await deliverer.start_due()
        while not reads:
            await asyncio.sleep(0)
        for _ in range(3):  # looks that find the rows it has in hand
            assert await deliverer.start_due() == [working]
        gated.gate.set()
        assert await working == 1
        assert reads == [("channel", 100)]  # read once
        gated.gate.clear()
        await h.store.queue_posts([Post(100, "first")])
        [working] = await deliverer.start_due()
        while len(reads) < 2:
            await asyncio.sleep(0)
        await h.store.queue_posts([Post(100, "second")])  # behind the rows it read
        assert await deliverer.start_due() == [working]
        gated.gate.set()
        assert await working == 2
        assert await h.store.hosting.private_queue() == []
    assert reads == [("channel", 100)] * 3  # the second read again for the row it had not
    texts = gated.texts(place.channel_id)
    assert len(texts) == 3 and "challenges" in texts[0] and texts[1:] == ["first", "second"]


async def test_a_destination_held_by_another_process_is_tried_again_soon(tmp_path: Path) -> None:
    """Where processes share the database, a post queued here while another process holds
    its destination's lease is left to that one, which may have read its rows before this
    post came: this process tries again within ``CLAIM_RETRY`` (the delivery loop's next
    look at the whole outbox), not only at its next poll (30 s here, an hour by default)."""
    settings = replace(Harness(tmp_path / "unused").settings, poll_seconds=30.0)
    async with Harness(tmp_path / "t.sqlite3", settings=settings) as h:
        deliverer = outbox.Deliverer(h.store, RecordingDelivery(), h.clock, settings)
        lease = "outbox:channel:100"
        async with await Store.open(h.store.config) as other:  # a second process
            assert await other.sharing.claim(lease, h.clock.now(), 30.0)
            await h.store.queue_posts([Post(100, "behind the other's read")])
            deliverer.start_for([("channel", 100)])
            [working] = deliverer._workers.values()
            assert await working == 0
            assert deliverer.next_try == h.clock.now() + outbox.CLAIM_RETRY
            await other.sharing.release(lease)  # the other is done
        h.clock.advance(outbox.CLAIM_RETRY)
        assert sum(await asyncio.gather(*await deliverer.start_due())) == 1


async def test_a_backlog_of_many_destinations_reads_and_leases_only_those_being_delivered(
    tmp_path: Path,
) -> None:
    """After an outage, more destinations wait than are delivered at once (``AT_ONCE``):
    only those being delivered hold a lease and their rows in memory; the others take
    theirs when a slot comes free, and every post goes once."""
    settings = replace(Harness(tmp_path / "unused").settings, poll_seconds=30.0)
    delivery = GatedDelivery()
    count = outbox.AT_ONCE + 5
    async with Harness(tmp_path / "t.sqlite3", settings=settings) as h:
        deliverer = outbox.Deliverer(h.store, delivery, h.clock, settings)
        await h.store.queue_posts([Post(100 + n, f"post {n}") for n in range(count)])
        workers = await deliverer.start_due()
        await until(lambda: delivery.in_flight == outbox.AT_ONCE)
        await asyncio.sleep(0.05)  # time for any other worker to (wrongly) read its rows
        with sqlite3.connect(h.store.config.path) as db:
            leases = db.execute("SELECT count(*) FROM leases WHERE name LIKE 'outbox:%'")
            assert leases.fetchone()[0] == outbox.AT_ONCE
        assert delivery.in_flight == outbox.AT_ONCE
        assert len(deliverer._reading) == outbox.AT_ONCE
        delivery.gate.set()
        assert sum(await asyncio.gather(*workers)) == count
        assert sorted(delivery.texts(100 + n)[0] for n in range(count)) == sorted(
            f"post {n}" for n in range(count)
        )


async def test_a_stopped_deliverer_starts_no_worker_and_leaves_the_posts_queued(
    tmp_path: Path,
) -> None:
    """Posts queued after the service stopped (a tournament command finishing as the bot
    closes) start no worker that would outlive the stop: they stay queued for the next
    start, as after a crash."""
    async with Harness(tmp_path / "t.sqlite3") as h:
        delivery = RecordingDelivery()
        deliverer = outbox.Deliverer(h.store, delivery, h.clock, h.settings)
        await deliverer.stop()
        await h.store.queue_posts([Post(100, "after the stop")])
        deliverer.start_for([("channel", 100)])
        assert await deliverer.start_due() == []
        assert not deliverer.busy() and delivery.log == []
        assert [row.post.text for row in await h.store.hosting.private_queue()] == [
            "after the stop"
        ]
