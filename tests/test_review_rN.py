"""Review rN: the web board's public pages and HTTP server. Each test fails for a bug a
spectator or a player would notice (docs/WEB.md says what the pages should do)."""

from __future__ import annotations

from pathlib import Path

import pytest
from web_world import ANN, BOB, HERE, World

from bot.service import Terms

SHOGI = Terms(game="torishogi", turn_seconds=36000, rated=False)


@pytest.fixture
async def w(tmp_path: Path):
    async with World(tmp_path / "review.sqlite3") as world:
        yield world


async def test_record_of_a_match_without_a_game_does_not_say_there_is_no_such_match(
    w: World,
) -> None:
    """A declined challenge (or one still waiting, or a match aborted in its setup) has a
    match page: ``/api/m/<id>`` answers 200 with its result, and the page (board.js hides
    the record's link only in the "setup" phase) shows "Download the record". The download
    answers 404 "There is no such match." for the very match the page shows, because
    ``Public.record`` throws away the service's own words ("There is no record of that
    match: its game has not begun."). It should say that the game never began."""
    reply = await w.service.challenge(HERE, ANN, BOB, Terms())
    assert reply.stamp is not None
    match = reply.stamp.match
    await w.service.decline(HERE, BOB)
    status, state = await w.get(f"/api/m/{match}")
    assert status == 200 and state["phase"] == "ended"  # the page exists, link shown
    status, body = await w.get(f"/api/m/{match}/record")
    assert body["error"] != "There is no such match.", (status, body)


async def test_an_aborted_matchs_page_does_not_say_whose_move_it_is(w: World) -> None:
    """ann plays the first turn of a ToriShogi match, then calls it off (/tora-match
    abort). Its public page shows the result "aborted, without a result" and, right above
    it, the summary "In hand: ann 1 Swallow; bob to move." A spectator is told bob is to
    move in a match that is over; the summary of an ended match should not name a player
    to move (as the resigned match's says "ann wins (resignation)")."""
    match = await w.playing(SHOGI)
    await w.service.play(HERE, ANN, "c3c4")
    await w.service.end_turn(HERE, ANN)
    await w.service.abort(HERE, ANN)
    status, state = await w.get(f"/api/m/{match}")
    assert status == 200 and state["phase"] == "ended" and state["result"]
    assert "to move" not in state["summary"], state["summary"]
