"""Proposals: their buttons (``MatchService.answer``) act whichever turn it is, on the match
they were posted for, and an Accept never proposes anything itself; a proposal declined or
taken back is not made again in the same turn."""

from __future__ import annotations

import pytest

from bot.service import Place, Refused, StaleRequest, Stamp, User
from bot.service.testing import Harness

HERE = Place(guild_id=1, channel_id=100)
ANN, BOB = User(1, "ann"), User(2, "bob")


async def started(h: Harness) -> None:
    await h.service.challenge(HERE, ANN, BOB)
    await h.service.accept(HERE, BOB)
    await h.service.setup(HERE, ANN, {"strategy": "aggressive"})
    await h.service.setup(HERE, BOB, {"strategy": "defensive"})
    await h.settle()


async def test_an_accept_button_works_in_a_later_turn(h: Harness) -> None:
    await started(h)
    made = (await h.service.pause(HERE, ANN)).stamp
    assert made is not None
    await h.service.play(HERE, ANN, "S v4h8 defend")  # her turn ends: his now
    await h.service.end_turn(HERE, ANN)
    reply = await h.service.answer(HERE, BOB, "pause", made)
    assert reply.text == "The match is paused."


async def test_an_accept_button_never_proposes(h: Harness) -> None:
    await started(h)
    made = (await h.service.draw(HERE, ANN)).stamp
    assert made is not None
    with pytest.raises(Refused, match="That draw offer is yours: bob accepts or declines it"):
        await h.service.answer(HERE, ANN, "draw", made)
    await h.service.answer(HERE, BOB, "decline", made)
    with pytest.raises(Refused, match="That draw offer is no longer open") as refused:
        await h.service.answer(HERE, BOB, "draw", made)
    assert "`/tora draw`" in refused.value.message
    await h.settle()
    assert "proposes" not in h.delivery.texts(HERE.channel_id)[-1]  # nothing was proposed


async def test_a_button_of_another_match_is_refused(h: Harness) -> None:
    await started(h)
    made = (await h.service.draw(HERE, ANN)).stamp
    assert made is not None
    with pytest.raises(StaleRequest, match="That match is over"):
        await h.service.answer(HERE, BOB, "draw", Stamp(made.match + 1, made.turn))


async def test_a_proposal_declined_or_taken_back_is_not_made_again_in_the_same_turn(
    h: Harness,
) -> None:
    """Regression: ann could propose a draw, take it back (or have it declined) and propose
    it again at will, each proposal a post mentioning bob and a DM to him: as many pings as
    the rate limit let through. Once a turn, each player and kind; the next turn, again."""
    await started(h)
    before = len(h.delivery.user(BOB.id))
    await h.service.draw(HERE, ANN)
    await h.service.decline(HERE, ANN)  # takes it back
    with pytest.raises(Refused, match="declined or taken back this turn"):
        await h.service.draw(HERE, ANN)
    await h.service.pause(HERE, ANN)  # another kind is a proposal of its own
    await h.service.decline(HERE, BOB)
    with pytest.raises(Refused, match="not made again before the turn ends"):
        await h.service.pause(HERE, ANN)
    await h.service.draw(HERE, BOB)  # bob's own draw offer stands: ann may accept it
    await h.service.decline(HERE, ANN)
    await h.settle()
    proposals = [m for m in h.delivery.user(BOB.id)[before:] if "proposes" in m.message.text]
    assert len(proposals) == 2, proposals  # a draw and a pause, each once
    await h.service.play(HERE, ANN, "S v4h8 defend")
    await h.service.end_turn(HERE, ANN)
    assert "proposed" in (await h.service.draw(HERE, ANN)).text  # a new turn
