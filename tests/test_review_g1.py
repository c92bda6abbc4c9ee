"""Review g1: regressions of today's merges, each a failing test."""

from __future__ import annotations

import pytest

from bot.service import Refused
from bot.service.testing import PRIVATE, Harness
from test_service_flows import ANN, BOB, HERE, series_with_bob_down_to_one


async def test_reset_agreed_during_a_pause_sends_no_dead_play_buttons(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """rB3 (R28: a reset agreed during a pause keeps the match paused). What the user sees:
    ann's "your turn" DM after the reset says "Press Play ... then end your turn" and carries
    Play / End turn / Preview buttons, yet the match is paused and every press is refused
    ("The match is paused. Resume it first"). Before the merge the reset restarted the clock,
    so these buttons worked. What they should see: a DM that tells them to resume first,
    without buttons that can only be refused (or with a Resume instead)."""
    service = h.service
    await series_with_bob_down_to_one(h, monkeypatch)
    await service.reset(HERE, BOB)
    await service.pause(HERE, ANN)
    await service.pause(HERE, BOB)
    await h.settle()
    seen = len(h.delivery.log)
    await service.reset(HERE, ANN)  # accepted during the pause
    await h.settle()
    dms = [d.message for d in h.delivery.log[seen:] if d.kind == PRIVATE and d.user_id == ANN.id]
    assert dms, "ann got no DM"
    with pytest.raises(Refused, match="paused"):
        await service.play(HERE, ANN, "H v2h13-v2h14")  # what the Play button leads to
    dead = [m for m in dms if m.buttons is not None and "play" in m.buttons.verbs]
    assert not dead, f"paused match, yet its DM offers Play/End turn: {dead[0].text!r}"
