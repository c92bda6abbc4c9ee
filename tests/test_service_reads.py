"""What a turn's end and its delivery read from the store, on each backend: each read is a
hop to a thread on SQLite and a round trip (or several) on PostgreSQL, and under load a
command's latency follows their number. Counted, not timed: every read the store is asked
for is noted by what it reads."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.service import Place, Terms, User
from bot.service.testing import PRIVATE, Harness
from storage import Store

HERE = Place(guild_id=1, channel_id=100)
ANN, BOB = User(1, "ann"), User(2, "bob")
HOUR = 3600.0


def dms(h: Harness, user: User) -> list[str]:
    return [d.message.text for d in h.delivery.user(user.id) if d.kind == PRIVATE]


def counting(store: Store, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The store's reads from now on, each named by the store method that asks for it."""
    reads: list[str] = []
    run = store._reads.run

    def noted(read: Callable[[Any], Awaitable[Any]]) -> Awaitable[Any]:
        reads.append(read.__qualname__.split(".<locals>")[0].rsplit(".", 1)[-1])
        return run(read)

    monkeypatch.setattr(store._reads, "run", noted)
    return reads


async def test_a_turn_end_reads_each_thing_once_and_its_post_and_dm_share_their_reads(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    terms = Terms(turn_seconds=10 * HOUR, game="torishogi")  # away days stop its clocks
    await h.running.challenge(HERE, ANN, BOB, terms)
    await h.running.accept(HERE, BOB)
    await h.running.records.set_notify(BOB, "mention", "on")  # the post pings bob too
    await h.settle()
    await h.running.play(HERE, ANN, "c3c4")
    await h.settle()
    assert h.store is not None
    reads = counting(h.store, monkeypatch)

    await h.running.end_turn(HERE, ANN)
    ended = sorted(reads)
    reads.clear()
    while await h.running.deliver():
        pass
    delivered = sorted(reads)

    # in one read: bob's planned replies, both players' time away (ann's clock settled,
    # bob's started) and bob's notifications (his reminder); not whether the copy in memory
    # is current (the turn's write checks that, ``Host._unchecked``)
    assert ended == ["private_turn_start"]
    # what is due; each destination's rows (the channel's post, bob's DM); the match with
    # its players' names and bob's notifications, once for both (the post's mention, the DM)
    assert delivered == [
        "private_firsts",
        "private_firsts",
        "private_outgoing",
        "private_outgoing",
        "settings_in",
        "with_names",
    ]
    assert h.delivery.channel(HERE.channel_id)[-1].mentions == (BOB.id,)
    assert "Press Play" in dms(h, BOB)[-1]  # his "your turn" DM


async def test_a_setting_changed_after_a_delivery_pass_is_seen_by_the_next(
    h: Harness,
) -> None:
    await h.running.challenge(HERE, ANN, BOB, Terms(turn_seconds=10 * HOUR, game="torishogi"))
    await h.running.accept(HERE, BOB)
    await h.settle()
    await h.running.play(HERE, ANN, "c3c4")
    await h.running.end_turn(HERE, ANN)
    await h.settle()
    assert h.delivery.channel(HERE.channel_id)[-1].mentions == ()
    told = len(dms(h, ANN))
    await h.running.records.set_notify(ANN, "mention", "on")
    await h.running.records.set_notify(ANN, "dm_turn", "off")
    await h.running.play(HERE, BOB, "c7c6")
    await h.running.end_turn(HERE, BOB)
    await h.settle()
    assert h.delivery.channel(HERE.channel_id)[-1].mentions == (ANN.id,)
    assert len(dms(h, ANN)) == told  # no "your turn" DM any more
