"""Delivery through the transactional outbox (issue 6): DMs closed fall back to a message only
that player sees, failures are retried in order, and a crash between commit and delivery, or
between delivery and its bookkeeping, still delivers every post exactly once. On start the
service reloads live matches, their staged turns, clocks and undelivered outbox."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from service_helpers import until

from bot.service import Message, Place, Settings, Terms, Undeliverable, User, outbox
from bot.service.outbox import private_post
from bot.service.ports import RetryAfter, Shown
from bot.service.testing import ONLY_YOU, PRIVATE, Harness, ManualClock, RecordingDelivery
from storage import Config, Post

ROOT = Path(__file__).resolve().parents[1]
HERE = Place(guild_id=1, channel_id=100)
ANN, BOB = User(1, "ann"), User(2, "bob")
HOUR = 3600.0


async def play_a_turn(h: Harness) -> None:
    """A challenge, its acceptance, both setups and ann's first turn: about a dozen posts."""
    service = h.service
    await service.challenge(HERE, ANN, BOB, Terms(turn_seconds=10 * HOUR))
    await service.accept(HERE, BOB)
    await service.setup(HERE, ANN, {"strategy": "aggressive"})
    await service.setup(HERE, BOB, {"strategy": "defensive"})
    await service.play(HERE, ANN, "G v5h9-v4h9")
    await service.end_turn(HERE, ANN)


def transcript(delivery: RecordingDelivery) -> list[tuple[str, int | None, str, list[bytes]]]:
    return [
        (d.kind, d.user_id, d.message.text, [f.data for f in d.message.files]) for d in delivery.log
    ]


# ---- DMs closed, failures, order ----------------------------------------------------------
async def test_closed_dms_fall_back_to_a_message_only_that_player_sees(tmp_path: Path) -> None:
    async with Harness(
        tmp_path / "t.sqlite3", delivery=RecordingDelivery(closed_dms={BOB.id})
    ) as h:
        await play_a_turn(h)
        await h.settle()
        to_bob = h.delivery.user(BOB.id)
        assert to_bob and {d.kind for d in to_bob} == {ONLY_YOU}
        assert all(d.channel_id == HERE.channel_id for d in to_bob)
        assert "your direct messages are closed to me" in to_bob[-1].message.text
        assert "\nYour turn against ann (Challenger)" in to_bob[-1].message.text
        assert to_bob[-1].message.files[0].data.startswith(b"private:")
        public = " ".join(h.delivery.texts(HERE.channel_id))
        assert "direct messages" not in public and "Your turn" not in public
        assert {d.kind for d in h.delivery.user(ANN.id)} == {PRIVATE}  # ann's DMs are open


async def test_failed_deliveries_are_retried_in_order(tmp_path: Path) -> None:
    async with Harness(tmp_path / "t.sqlite3") as h:
        service = h.service
        await service.challenge(HERE, ANN, BOB)
        await service.decline(HERE, BOB)
        h.delivery.fail_next = 2
        await h.settle()  # the first post fails: nothing to that channel goes before it
        assert h.delivery.log == []
        await h.advance(1.9)
        assert h.delivery.log == []
        await h.advance(0.1)  # the retry after 2 s fails too; the next waits 4 s
        assert h.delivery.log == []
        await h.advance(4)
        assert [t.split(" ")[1] for t in h.delivery.texts(HERE.channel_id)] == [
            "challenges",
            "declines",
        ]


class RateLimited(RecordingDelivery):
    """Discord says, once, to try the channel's next post again in ten minutes."""

    limited = True

    async def post(self, channel_id: int, message: Message, key: str) -> None:
        if self.limited:
            self.limited = False
            raise RetryAfter(600.0)
        await super().post(channel_id, message, key)


async def test_a_post_rate_limited_for_long_is_tried_again_when_discord_said(
    tmp_path: Path,
) -> None:
    """A rate limit longer than the front end waits out itself comes back with its wait:
    the post (and the channel's later ones behind it) goes then, not at the usual 2, 4,
    8... seconds, each of which Discord would refuse again."""
    async with Harness(tmp_path / "t.sqlite3", delivery=RateLimited()) as h:
        await h.service.challenge(HERE, ANN, BOB)
        await h.service.decline(HERE, BOB)
        await h.settle()
        assert h.delivery.attempts == 0
        await h.advance(599.0)
        assert h.delivery.log == [] and h.delivery.attempts == 0
        await h.advance(1.0)
        assert [t.split(" ")[1] for t in h.delivery.texts(HERE.channel_id)] == [
            "challenges",
            "declines",
        ]


class LostChannel(RecordingDelivery):
    async def post(self, channel_id: int, message: Message, key: str) -> None:
        if channel_id == 666:
            raise Undeliverable("the channel was deleted")
        await super().post(channel_id, message, key)


async def test_an_undeliverable_post_is_dropped_and_the_rest_goes_on(tmp_path: Path) -> None:
    async with Harness(tmp_path / "t.sqlite3", delivery=LostChannel()) as h:
        service = h.service
        await service.challenge(Place(1, 666), ANN, BOB)
        await service.decline(Place(1, 666), BOB)
        await service.challenge(HERE, ANN, BOB)
        await h.settle()
        assert len(h.delivery.texts(HERE.channel_id)) == 1
        assert await h.store.hosting.private_queue() == []


# ---- crashes ------------------------------------------------------------------------------
class FileDelivery(RecordingDelivery):
    """Delivers by appending to a file, as a front end outside the process would; a key is
    delivered once (the front end's idempotency key)."""

    def __init__(self, path: Path, die: str = "") -> None:
        super().__init__()
        self.path = path
        self.die = die
        for line in path.read_text().splitlines() if path.exists() else []:
            self.log.append(_delivered(json.loads(line)))

    def _check(self) -> None:
        if self.die == "before":
            os.kill(os.getpid(), signal.SIGKILL)
        super()._check()

    def _record(self, item) -> None:
        if any(seen.key == item.key for seen in self.log):
            return
        self.log.append(item)
        with self.path.open("a") as out:
            out.write(json.dumps(_line(item)) + "\n")
            out.flush()
            os.fsync(out.fileno())
        if self.die == "after":
            os.kill(os.getpid(), signal.SIGKILL)


def _line(item) -> dict:
    files = [f.data.decode() for f in item.message.files if not f.name.endswith(".tora")]
    return {
        "kind": item.kind,
        "channel": item.channel_id,
        "user": item.user_id,
        "text": item.message.text,
        "files": files,
        "key": item.key,
    }


def _delivered(line: dict):
    from bot.service import Attachment
    from bot.service.testing import Delivered

    files = tuple(Attachment("f", data.encode()) for data in line["files"])
    message = Message(line["text"], files)
    return Delivered(line["kind"], line["channel"], line["user"], message, line["key"])


def _killed_child(db: Path, out: Path, how: str) -> None:
    """Run this file as a child process (``how``: its kill point) and see it killed."""
    child = subprocess.run(
        [sys.executable, __file__, str(db), str(out), how],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert child.returncode == -signal.SIGKILL, child.stderr


async def _child(db: Path, out: Path, die: str) -> None:
    """Commit a turn's worth of changes without delivering anything, then deliver and get
    killed (SIGKILL) at the first delivery: before it, or right after it but before the
    outbox row is deleted."""
    h = Harness(db, delivery=FileDelivery(out))
    await h.open()
    await play_a_turn(h)
    h.delivery.die = die
    await h.service.deliver()
    raise AssertionError("the child should have been killed")


@pytest.mark.parametrize("die", ["before", "after"])
async def test_a_crash_around_delivery_delivers_every_post_exactly_once(
    tmp_path: Path, die: str
) -> None:
    db, out = tmp_path / "crash.sqlite3", tmp_path / "delivered.jsonl"
    _killed_child(db, out, die)
    before = out.read_text().splitlines() if out.exists() else []
    assert len(before) == (0 if die == "before" else 1)
    async with Harness(db, delivery=FileDelivery(out)):
        pass  # start() delivers the undelivered outbox
    async with Harness(tmp_path / "reference.sqlite3") as reference:
        await play_a_turn(reference)
        await reference.settle()
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert len({line["key"] for line in lines}) == len(lines)  # nothing twice
    got = sorted((line["kind"], line["user"], line["text"], line["files"]) for line in lines)
    want = sorted(
        (kind, user, text, [f.decode() for f in files])
        for kind, user, text, files in transcript(reference.delivery)
    )
    assert got == want  # nothing lost


class FallbackFile(FileDelivery):
    """bob's DMs are closed; his messages are shown in the channel, as a follow-up, which
    no idempotency key protects (unlike the posts): only the outbox row's mark does. The
    process is killed as soon as the first such message has been shown."""

    def __init__(self, path: Path, die: str = "") -> None:
        super().__init__(path, die)
        self.closed_dms = {BOB.id}

    def _record(self, item) -> None:
        self.log.append(item)  # no key to tell a repeat: it would be shown again
        with self.path.open("a") as out:
            out.write(json.dumps(_line(item)) + "\n")

    async def send_ephemeral(self, channel_id, user_id, message, key, shown) -> None:
        await super().send_ephemeral(channel_id, user_id, message, key, shown)
        if self.die == "after":
            os.kill(os.getpid(), signal.SIGKILL)


async def _fallback_child(db: Path, out: Path) -> None:
    h = Harness(db, delivery=FallbackFile(out))
    await h.open()
    await play_a_turn(h)
    h.delivery.die = "after"
    await h.service.deliver()
    raise AssertionError("the child should have been killed")


async def test_a_crash_right_after_a_fallback_was_shown_does_not_show_it_again(
    tmp_path: Path,
) -> None:
    """Regression: fallbacks shown were remembered in memory only, so a restart showed the
    last one again."""
    db, out = tmp_path / "crash.sqlite3", tmp_path / "shown.jsonl"
    _killed_child(db, out, "fallback")
    async with Harness(db, delivery=FallbackFile(out)):
        pass  # start() delivers the undelivered outbox
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    only_bob = [line["text"] for line in lines if line["kind"] == ONLY_YOU]
    assert only_bob and len(only_bob) == len(set(only_bob))


# ---- restarts ------------------------------------------------------------------------------
async def test_a_restart_reloads_the_staged_turn_the_clock_and_the_outbox(tmp_path: Path) -> None:
    async with Harness(tmp_path / "t.sqlite3") as h:
        service = h.service
        await play_a_turn(h)
        await service.play(HERE, BOB, "S v4h2-v3h2")
        await h.settle()
        await service.draw(HERE, ANN)  # committed, not delivered
        service = await h.crash()  # start() delivers what was left
        assert h.delivery.texts(HERE.channel_id)[-1].startswith("ann (Challenger) proposes a draw")
        reply = await service.board(HERE, BOB)
        assert "Staged this turn:\n1. S v4h2-v3h2" in reply.text
        await h.advance(8 * HOUR)  # no reminder: bob acted this turn (issue 27)
        assert not h.delivery.user(BOB.id)[-1].message.text.startswith("Reminder: your turn")
        service = await h.crash()
        await h.advance(2 * HOUR)
        post = h.delivery.texts(HERE.channel_id)[-1]
        assert post.startswith(
            "bob's turn ended at its deadline:\n"
            "- bob's Soldier moves v4h2-v3h2 \u00b7 `S v4h2-v3h2`\n"
        )


async def test_deadlines_that_passed_while_down_are_handled_on_start(tmp_path: Path) -> None:
    async with Harness(tmp_path / "t.sqlite3") as h:
        await play_a_turn(h)
    h.clock.advance(11 * HOUR)
    async with h:  # the deadline passed while the service was down
        assert (
            "bob's turn ended at its deadline with no action played"
            in (h.delivery.texts(HERE.channel_id)[-1])
        )


async def test_the_background_tasks_keep_time_and_deliver(tmp_path: Path) -> None:
    async with Harness(tmp_path / "t.sqlite3") as h:
        service = h.service
        await service.start(background=True)
        try:
            await play_a_turn(h)
            await until(lambda: any("ended their turn" in t for t in h.delivery.texts(100)))
            h.clock.advance(10 * HOUR)
            await until(lambda: "deadline" in h.delivery.texts(100)[-1])
        finally:
            await service.stop()


class _NoInteractionIn(RecordingDelivery):
    """The player has no open interaction in channel ``silent`` to show a message in."""

    def __init__(self, silent: int, closed: set[int]) -> None:
        super().__init__(closed_dms=closed)
        self.silent = silent

    async def send_ephemeral(
        self, channel_id: int, user_id: int, message: Message, key: str, shown: Shown
    ) -> None:
        if channel_id == self.silent:
            raise RuntimeError(f"no recent interaction in channel {channel_id} (simulated)")
        await super().send_ephemeral(channel_id, user_id, message, key, shown)


async def test_a_private_message_waiting_for_its_fallback_goes_by_dm_once_dms_reopen(
    tmp_path: Path,
) -> None:
    """A private message whose DM was refused waits to be shown in its channel, where its
    player has not come back; once they open their DMs it goes there, and their later
    private messages after it."""
    delivery = _NoInteractionIn(500, {7})
    async with Harness(tmp_path / "t.sqlite3", delivery=delivery) as h:
        await h.store.queue_posts(
            [private_post(500, "a ladder notice", 7, "en"), private_post(600, "your turn", 7, "en")]
        )
        await h.settle()
        assert delivery.user(7) == []
        delivery.closed_dms.clear()
        await h.advance(HOUR)
        assert [d.message.text for d in delivery.user(7)] == ["a ladder notice", "your turn"]
        assert await h.store.hosting.private_queue() == []


async def test_a_private_message_no_way_can_show_is_dropped_after_its_tries(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """DMs closed, and no command of its player in its channel to show it in: after
    FALLBACK_TRIES tries it is dropped (logged), and the player's later private messages
    are shown where they can be."""
    delivery = _NoInteractionIn(500, {7})
    async with Harness(tmp_path / "t.sqlite3", delivery=delivery) as h:
        await h.store.queue_posts(
            [private_post(500, "a ladder notice", 7, "en"), private_post(600, "your turn", 7, "en")]
        )
        for _ in range(outbox.FALLBACK_TRIES + 1):
            await h.advance(h.settings.retry_most)
        shown = [(d.kind, d.message.text.partition("\n")[0]) for d in delivery.user(7)]
        assert shown == [(ONLY_YOU, "your turn")]
        assert await h.store.hosting.private_queue() == []
        assert "could not be shown" in caplog.text


# ---- several processes on one database -----------------------------------------------------
SHARED = Settings(
    burst=1000,
    every=0.001,
    ai_processes=0,
    poll_seconds=1.0,
    claim_seconds=30.0,
    auto_away=False,  # the deadline counts at once, as in the harness
)


async def test_two_processes_fire_a_deadline_once_and_take_over_a_dead_one_s_posts(
    db: Config,
) -> None:
    clock = ManualClock()
    first, second = (Harness(db, settings=SHARED, clock=clock) for _ in range(2))
    await first.open()
    await second.open()
    try:
        await play_a_turn(first)
        await first.settle()
        clock.advance(10 * HOUR)  # bob's deadline: both processes look at once
        await asyncio.gather(first.settle(), second.settle())
        deadlines = [
            text
            for h in (first, second)
            for text in h.delivery.texts(HERE.channel_id)
            if "turn ended at its deadline" in text
        ]
        assert len(deadlines) == 1
        # The first process dies while it holds the channel's posts; the second delivers
        # them once its lease has run out, each once.
        await first.service.draw(HERE, ANN)
        assert await first.store.sharing.claim(f"outbox:channel:{HERE.channel_id}", clock.now(), 30)
        await second.settle()
        assert not any("proposes a draw" in t for t in second.delivery.texts(HERE.channel_id))
        clock.advance(30)
        await second.settle()
        draws = [t for t in second.delivery.texts(HERE.channel_id) if "proposes a draw" in t]
        assert len(draws) == 1
    finally:
        await first.close()
        await second.close()


class _Stalling(RecordingDelivery):
    """Records which process sent each post; the post ``r1`` waits for ``gate``."""

    def __init__(self, who: str, sent: list[tuple[str, str]], gate: asyncio.Event) -> None:
        super().__init__()
        self.who, self.sent, self.gate = who, sent, gate

    async def post(self, channel_id: int, message: Message, key: str) -> None:
        self.sent.append((self.who, message.text))
        if message.text == "r1":
            await self.gate.wait()


async def test_a_process_whose_lease_ran_out_mid_send_leaves_the_rest_to_its_successor(
    db: Config,
) -> None:
    """The first process's send of a channel's first post stalls past its lease (a long
    rate limit, say); the second takes the channel over and delivers every post. The first
    then finds its lease gone and sends nothing more: no post goes twice or out of order."""
    clock, sent = ManualClock(), []
    stall, go = asyncio.Event(), asyncio.Event()
    go.set()
    first, second = (Harness(db, settings=SHARED, clock=clock) for _ in range(2))
    await first.open()
    await second.open()
    try:
        stalled = outbox.Deliverer(first.store, _Stalling("A", sent, stall), clock, SHARED)
        taking = outbox.Deliverer(second.store, _Stalling("B", sent, go), clock, SHARED)
        await first.store.queue_posts([Post(HERE.channel_id, f"r{n}") for n in (1, 2, 3)])
        [worker] = await stalled.start_due()
        await until(lambda: sent)
        clock.advance(SHARED.claim_seconds + 1)
        assert sum(await asyncio.gather(*await taking.start_due())) == 3
        await first.store.queue_posts([Post(HERE.channel_id, "r4")])
        assert sum(await asyncio.gather(*await taking.start_due())) == 1
        stall.set()
        await worker
        assert sent == [("A", "r1"), ("B", "r1"), ("B", "r2"), ("B", "r3"), ("B", "r4")]
    finally:
        await first.close()
        await second.close()


if __name__ == "__main__":
    db, out, how = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
    asyncio.run(_fallback_child(db, out) if how == "fallback" else _child(db, out, how))
