"""A proposal's buttons (``MatchService.answer``): they act whichever turn it is, on the
match they were posted for, and an Accept never proposes anything itself."""

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
