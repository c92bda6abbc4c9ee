"""Review rB: crashes and failures between two steps that lose something a player should
have seen, or leave a match that no longer moves."""

from __future__ import annotations

import pytest

from bot.service import Place, Terms, User
from bot.service.testing import PRIVATE, Harness

HERE = Place(guild_id=1, channel_id=100)
ANN, BOB = User(1, "ann"), User(2, "bob")
HOUR, DAY = 3600.0, 86400.0


def dms(h: Harness, user: User) -> list[str]:
    return [d.message.text for d in h.delivery.user(user.id) if d.kind == PRIVATE]


async def test_a_daily_digest_cut_off_by_a_crash_after_its_claim_still_comes_that_day(
    h: Harness,
) -> None:
    """ann takes a daily digest at 09:00 in place of her "your turn" DMs. At 09:00 the bot
    marks the day's digest as sent (``swap_player_setting``), then dies (or loses its
    database) before the digest is queued: the mark is committed alone, so after the
    restart the digest of that day is never sent, and ann hears nothing of her turn for a
    whole day. The claim and the queued digest belong in one transaction (or the claim is
    taken back on failure)."""
    await h.running.records.set_notify(ANN, "digest", "9")  # Friday 08:00
    await h.running.challenge(HERE, ANN, BOB, Terms(game="torishogi", turn_seconds=10 * HOUR))
    await h.running.accept(HERE, BOB)
    await h.settle()
    assert not any(text.startswith("Your turn") for text in dms(h, ANN))

    store = h.store
    assert store is not None

    async def dies(posts: object) -> None:
        raise ConnectionError("the bot died here (simulated)")

    store.queue_posts = dies  # type: ignore[method-assign]
    h.clock.advance(HOUR)  # 09:00
    with pytest.raises(ConnectionError):
        await h.running.run_due()
    await h.crash()
    await h.advance(5 * 60)  # 09:05, the bot back up
    assert any(text.startswith("Your turn in 1 match") for text in dms(h, ANN)), dms(h, ANN)
