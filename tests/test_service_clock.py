"""Deadlines with a controllable clock (issue 6): the "your turn" notice, the reminder at 80 %,
the turn ending at its deadline with what was staged, forfeits after turns missed without
any action, pause by agreement, and the setup's own deadline."""

from __future__ import annotations

import pytest

from bot.service import Place, Refused, Terms, User
from bot.service.testing import POST, PRIVATE, Harness

HERE = Place(guild_id=1, channel_id=100)
ANN, BOB = User(1, "ann"), User(2, "bob")
HOUR = 3600.0


async def started(h: Harness, **terms: object) -> None:
    service = h.service
    await service.challenge(HERE, ANN, BOB, Terms(turn_seconds=10 * HOUR, **terms))
    await service.accept(HERE, BOB)
    await service.setup(HERE, ANN, {"strategy": "aggressive"})
    await service.setup(HERE, BOB, {"strategy": "defensive"})
    await h.settle()


def private_texts(h: Harness, user: User) -> list[str]:
    return [d.message.text for d in h.delivery.user(user.id) if d.kind == PRIVATE]


def channel_texts(h: Harness) -> list[str]:
    return h.delivery.texts(HERE.channel_id)


async def test_your_turn_reminder_and_the_deadline(h: Harness) -> None:
    await started(h)
    notice = h.delivery.user(ANN.id)[-1]
    assert notice.message.text.startswith(
        "Your turn against bob (Opposition): 2 actions in round 1"
    )
    assert notice.message.files[0].data.startswith(b"private:")
    await h.advance(8 * HOUR - 1)
    assert not private_texts(h, ANN)[-1].startswith("Reminder")
    await h.advance(1)  # 80 % of the deadline (no reminder after acting: test_notify)
    reminder = private_texts(h, ANN)[-1]
    assert reminder.startswith("Reminder: your turn against bob (Opposition) ends in 2 h")
    assert "staged" not in reminder  # (it comes only while nothing is staged: no count)
    await h.service.play(HERE, ANN, "G v5h9-v4h9")
    assert not any("Reminder" in text for text in channel_texts(h))  # only ann is reminded
    await h.advance(2 * HOUR - 1)
    assert "deadline" not in channel_texts(h)[-1]
    await h.advance(1)
    post = channel_texts(h)[-1]
    assert post.startswith(
        "ann's turn ended at its deadline:\n- ann's General moves v5h9-v4h9 \u00b7 `G v5h9-v4h9`\n"
    )
    assert "bob (Opposition) to act: 2 actions in round 1" in post
    notice = private_texts(h, BOB)[-1]  # what ann's turn did, as posted, then his turn
    assert notice.startswith(post.split("\nbob (Opposition) to act")[0] + "\nYour turn against ann")
    await h.advance(10 * HOUR)  # bob does nothing at all: a missed turn
    assert (
        "bob's turn ended at its deadline with no action played (missed turns in a row: 1 of 3"
        in (channel_texts(h)[-1])
    )


async def test_forfeit_after_three_turns_missed_is_a_forfeit_not_a_resignation(
    h: Harness,
) -> None:
    await started(h)
    service = h.service
    for _ in range(2):  # ann misses, bob plays
        await h.advance(10 * HOUR)
        await service.end_turn(HERE, BOB)
    await h.settle()
    reminder = await _reminder_after(h, 8 * HOUR)
    assert "If it ends at its deadline with no action played, that is 3 of 3" in reminder
    await h.advance(2 * HOUR)
    post = h.delivery.channel(HERE.channel_id)[-1]
    assert post.text.startswith(
        "ann (Challenger) forfeits: 3 turns in a row ended at the deadline with no action "
        "played. bob (Opposition) wins by forfeit."
    )
    record = post.files[1]
    assert record.name.endswith(".tora")
    assert '[Termination "forfeit"]' in record.data.decode()
    assert record.data.decode().rstrip().endswith("C: forfeit")
    hosted = await h.store.hosting.get(1)
    assert hosted.ending == "forfeit"
    with pytest.raises(Refused, match="no match here"):
        await service.board(HERE, ANN)


async def _reminder_after(h: Harness, seconds: float) -> str:
    await h.advance(seconds)
    return private_texts(h, ANN)[-1]


async def test_acting_resets_the_missed_turns_and_zero_never_forfeits(h: Harness) -> None:
    await started(h, forfeit_after=0)
    service = h.service
    for _ in range(4):
        await h.advance(10 * HOUR)  # ann misses
        await service.end_turn(HERE, BOB)
    await h.settle()
    assert "missed turns in a row: 4)" in channel_texts(h)[-2]
    await service.end_turn(HERE, ANN)  # ending a turn is an action: the count starts again
    await h.advance(10 * HOUR)  # bob misses
    await service.end_turn(HERE, ANN)
    await h.advance(10 * HOUR)
    assert "(missed turns in a row: 2)" in channel_texts(h)[-1]  # bob's second in a row
    assert "forfeits" not in " ".join(channel_texts(h))


async def test_pause_by_agreement_stops_the_clock(h: Harness) -> None:
    await started(h)
    service = h.service
    await h.advance(3 * HOUR)
    await service.pause(HERE, ANN)
    await h.advance(HOUR)  # only proposed: the clock runs on
    await service.pause(HERE, BOB)
    await h.settle()
    assert (
        "agreed to pause: the clock is stopped with 6 h left in ann's turn"
        in (channel_texts(h)[-1])
    )
    with pytest.raises(Refused, match="The match is paused"):
        await service.play(HERE, ANN, "G v5h9-v4h9")
    await h.advance(30 * 24 * HOUR)
    assert "deadline" not in channel_texts(h)[-1]
    await service.resume(HERE, BOB)
    await h.settle()
    assert (
        "bob (Opposition) resumed the match: ann's turn goes on, with 6 h left"
        in (channel_texts(h)[-1])
    )
    await h.advance(4 * HOUR)  # the reminder comes with 2 h left, as before the pause
    assert private_texts(h, ANN)[-1].startswith(
        "Reminder: your turn against bob (Opposition) ends in 2 h"
    )
    await h.advance(2 * HOUR)
    assert channel_texts(h)[-1].startswith("ann's turn ended at its deadline")


async def test_a_deadline_takes_back_what_r30_forbids_and_tells_only_the_player(h: Harness) -> None:
    await started(h)
    service = h.service
    await service.play(HERE, ANN, "G v5h9-v4h9")
    await service.end_turn(HERE, ANN)
    await service.play(HERE, BOB, "S v4h2-v3h2")
    await service.play(HERE, BOB, "G v5h1-v3h3")  # its General would end in jeopardy
    await h.advance(10 * HOUR)
    post = channel_texts(h)[-1]
    assert post.startswith(
        "bob's turn ended at its deadline:\n- bob's Soldier moves v4h2-v3h2 \u00b7 `S v4h2-v3h2`\n"
    )
    assert "v3h3" not in post
    assert private_texts(h, BOB)[-1] == (
        "Your turn ended at its deadline. Your last staged action was taken back first, so "
        "that no command piece you moved ends in jeopardy (R30)."
    )


async def test_the_setup_has_a_deadline_too(h: Harness) -> None:
    service = h.service
    await service.challenge(HERE, ANN, BOB, Terms(turn_seconds=HOUR))
    await service.accept(HERE, BOB)
    await service.setup(HERE, BOB, {"strategy": "defensive"})
    await h.advance(0.8 * HOUR)
    reminders = [t for t in private_texts(h, ANN) if t.startswith("Reminder")]
    assert reminders == [
        "Reminder: choose your setup for the match against bob (Opposition) within 12 min, "
        "or the match is called off: with the buttons or menus of the message that asked for "
        "it, or with `/tora setup`."
    ]
    assert not any(t.startswith("Reminder") for t in private_texts(h, BOB))
    await h.advance(0.2 * HOUR)
    assert channel_texts(h)[-1] == (
        "The setup was not finished in time (ann had not chosen), so the match is off. "
        "Nothing is recorded."
    )
    kinds = {d.kind for d in h.delivery.log}
    assert kinds == {POST, PRIVATE}


async def test_staging_and_undoing_leaves_no_public_trace_at_the_deadline(tmp_path) -> None:
    """Whether a player staged and took back actions is private: the deadline post and the
    missed-turn count are the same as if they had done nothing (a missed turn is one that
    is posted empty)."""
    posts = []
    for fiddle in (False, True):
        async with Harness(tmp_path / f"{fiddle}.sqlite3") as h:
            await started(h)
            await h.advance(10 * HOUR)  # ann misses
            if fiddle:
                await h.service.play(HERE, BOB, "G v5h1-v4h1")
                await h.service.undo(HERE, BOB)
            await h.advance(10 * HOUR)  # bob's turn ends empty either way
            posts.append([message.text for message in h.delivery.channel(HERE.channel_id)])
    assert posts[0] == posts[1]
    assert "bob's turn ended at its deadline with no action played" in posts[1][-1]
