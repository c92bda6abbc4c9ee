"""The match service hosting a game other than TORA (issue 15): ToriShogi starts on
acceptance, refuses TORA's terms by name, and a deadline with no move staged is a missed turn
that restarts the same player's clock, until the forfeit."""

from __future__ import annotations

import pytest

from bot.service import Place, Refused, Terms, User
from bot.service.testing import Harness

HERE = Place(guild_id=1, channel_id=100)
ANN, BOB = User(1, "ann"), User(2, "bob")
HOUR = 3600.0


def channel_texts(h: Harness) -> list[str]:
    return h.delivery.texts(HERE.channel_id)


async def started(h: Harness, **terms: object) -> None:
    terms = {"turn_seconds": 10 * HOUR, "game": "torishogi", **terms}
    await h.service.challenge(HERE, ANN, BOB, Terms(**terms))
    reply = await h.service.accept(HERE, BOB)
    assert reply.text == "You accepted the challenge: the game begins."
    await h.settle()


async def test_torishogi_begins_on_acceptance_and_refuses_toras_terms(h: Harness) -> None:
    with pytest.raises(Refused, match="ToriShogi has no a board or Assassins: those are TORA's"):
        await h.service.challenge(
            HERE, ANN, BOB, Terms(game="torishogi", board="long", assassins=True)
        )
    with pytest.raises(Refused, match="The game is `tora` or `torishogi`, not `chess`"):
        await h.service.challenge(HERE, ANN, BOB, Terms(game="chess"))
    await started(h)
    begins = channel_texts(h)[-1]
    assert begins.startswith("bob accepts ann's challenge. The game begins: ")
    assert "to act: a move" in begins
    await h.service.play(HERE, ANN, "c3c4")
    await h.service.end_turn(HERE, ANN)
    await h.settle()
    assert "- ann's Swallow moves c3-c4 and captures bob's Swallow" in channel_texts(h)[-1]


async def test_a_torishogi_deadline_without_a_move_restarts_the_clock_then_forfeits(
    h: Harness,
) -> None:
    await started(h, forfeit_after=2)
    await h.advance(10 * HOUR)  # ann stages nothing
    missed = channel_texts(h)[-1]
    assert missed.startswith(
        "ann's turn passed its deadline with no move played (missed turns in a row: 1 of 2 "
        "before a forfeit). Their clock starts again.\nann (Challenger) to act: a move"
    )
    await h.service.play(HERE, ANN, "c3c4")  # still ann's turn: it was not passed
    await h.service.undo(HERE, ANN, None)  # staged and taken back: counts for nothing
    await h.advance(10 * HOUR)
    forfeit = channel_texts(h)[-1]
    assert forfeit.startswith("ann (Challenger) forfeits: 2 turns in a row")
    record = h.delivery.channel(HERE.channel_id)[-1].files[1]
    assert record.name == "torishogi-match-1.torishogi"
    assert record.data.decode().rstrip().endswith("C: forfeit")


async def test_a_staged_torishogi_move_is_played_at_the_deadline(h: Harness) -> None:
    await started(h)
    await h.service.play(HERE, ANN, "c3c4")
    await h.advance(10 * HOUR)
    post = channel_texts(h)[-1]
    assert post.startswith(
        "ann's turn ended at its deadline:\n"
        "- ann's Swallow moves c3-c4 and captures bob's Swallow · `c3c4`\n"
        "in hand: ann 1 Swallow; bob to move.\n"
        "bob (Opposition) to act: a move"
    )
