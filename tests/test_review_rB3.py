"""Review rB3: proposals (draw, pause, reset, takeback) in the three games, failing tests of
bugs found (each docstring: what the user sees, and what they should see)."""

from __future__ import annotations

import event_helpers as events
import pytest
from test_service_flows import series_with_bob_down_to_one

from bot.service import Place, Refused, Terms, User
from rules import Side
from web_world import World
from bot.service.robots import robot
from bot.service.testing import Harness

HERE = Place(guild_id=1, channel_id=100)
ANN, BOB = User(1, "ann"), User(2, "bob")
HOUR = 3600.0


async def test_no_takeback_in_an_event_game_that_counts_in_the_standings(h: Harness) -> None:
    """An (unrated by default) Swiss event's game counts in the standings, yet its players
    are offered "Ask to take it back" after End turn and a takeback is asked and agreed
    as in a casual game: one entrant plays a turn again, help no other entrant had (the AI
    and hints are kept out of such games for this very reason). A competition's game should
    refuse a takeback and offer no Ask to take it back button."""
    desk = await events.desk_of(h)
    await events.create(desk, "Cup", "torishogi", "swiss", rounds=2)
    for n in (1, 2):
        await desk.join(events.HERE, events.user(n), "Cup")
    await desk.begin(events.HERE, events.ADMIN, "Cup", admin=True)
    await h.settle()
    snap = await events.snapshot(h, "Cup")
    [pairing] = snap.pairings
    hosted = await h.store.hosting.get(pairing.hosted_id)
    place = Place(events.GUILD, hosted.channel_id)
    first = events.user(hosted.challenger_id)
    await h.service.play(place, first, "c3c4")
    ended = await h.service.end_turn(place, first)
    assert "askback" not in ended.buttons, ended
    with pytest.raises(Refused):
        await h.service.takeback(place, first)


async def test_a_reset_accepted_while_paused_keeps_the_clock_stopped(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In a TORA series the players agree to pause, then (the clock stopped) agree to bob's
    reset (R28): the new board starts with the clock running again, a deadline set and
    reminders due, though nobody resumed; the reset post says nothing of the pause. As an
    accepted takeback already does, a reset during a pause should leave the match paused
    (the new turn's full time kept for the resume)."""
    service = h.service
    await series_with_bob_down_to_one(h, monkeypatch)
    await service.reset(HERE, BOB)
    await service.pause(HERE, ANN)
    await service.pause(HERE, BOB)
    await h.advance(HOUR)
    await service.reset(HERE, ANN)  # accepted during the pause
    await h.settle()
    hosted = await h.running.records.live_in_channel(HERE.channel_id)
    assert hosted is not None
    assert hosted.paused_left is not None and hosted.due_at is None, (
        hosted.paused_left,
        hosted.due_at,
    )


async def test_the_web_page_can_ask_to_take_back_the_turn_it_just_ended(tmp_path) -> None:
    """On the web player page of a casual match, End turn answers "Your turn is over. Changed
    your mind?" (Discord's text cut short) and nothing more: the page has no Ask to take it
    back and its API no such action (404), so the web player cannot ask for a takeback
    (the opponent can answer one there, the asker cannot make one). The page should offer
    the ask after End turn, as Discord's Ask to take it back does."""
    async with World(tmp_path / "web.sqlite3") as w:
        match = await w.playing(Terms(game="torishogi", rated=False, turn_seconds=10 * HOUR))
        ann = await w.token(match, Side.CHALLENGER)
        status, state, _ = await w.post("act", ann, {"stamp": 1, "notation": "c3c4"})
        assert status == 200, state
        status, state, _ = await w.post("end", ann, {"stamp": 1})
        assert status == 200 and "Changed your mind?" in state["said"], state
        status, body, _ = await w.post("takeback", ann, {"stamp": 2})
        assert status == 200, (status, body)


async def test_a_draw_offer_cannot_be_repeated_at_will_to_flood_the_opponent(
    h: Harness,
) -> None:
    """ann proposes a draw, takes it back (or bob declines), proposes again, and so on: every
    proposal is posted mentioning bob and sent to him by DM ("ann proposes a draw in your
    match against them..."), with nothing but the rate limit between them: thousands of
    pings a day that bob cannot stop. A proposal of a kind declined or taken back should
    not be made again in the same turn (refused, saying when it can be)."""
    await h.service.challenge(
        HERE, ANN, BOB, Terms(game="torishogi", turn_seconds=10 * HOUR, rated=False)
    )
    await h.service.accept(HERE, BOB)
    await h.settle()
    before = len(h.delivery.user(BOB.id))
    sent = 0
    for _ in range(10):
        try:
            await h.service.draw(HERE, ANN)
        except Refused:
            break
        sent += 1
        await h.service.decline(HERE, ANN)  # takes it back
    await h.settle()
    dms = [d.message.text for d in h.delivery.user(BOB.id)[before:]]
    assert sent <= 1 and len([t for t in dms if "proposes a draw" in t]) <= 1, (sent, dms)
