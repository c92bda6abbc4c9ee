"""Whole events run to the end through the match service with the manual clock, on both
backends: a 64-player Swiss of 7 rounds (results by seed, an upset on every seventh board)
and a 10-player double round robin. They take 10-60 s: ``pytest -m slow`` runs them."""

from __future__ import annotations

from collections import Counter

import pytest
from event_helpers import ADMIN, HERE, create, desk_of, play_open_games, snapshot, user

from bot.service.testing import Harness
from bot.tournament.events import history, standings_of
from bot.tournament.records import Outcome
from storage.competitions.events import PairingRow

pytestmark = pytest.mark.slow


def by_seed_with_upsets(row: PairingRow) -> int | None:
    """Mostly the lower id wins; every seventh board the other way round."""
    assert row.second_id is not None
    low, high = sorted((row.first_id, row.second_id))
    return low if (row.round + row.board) % 7 == 0 else high


async def test_a_64_player_swiss_of_7_rounds_runs_to_the_end(h: Harness) -> None:
    desk = await desk_of(h)
    await create(desk, "Big", "torishogi", "swiss", rounds=7, max_players=64)
    for n in range(1, 65):
        await desk.join(HERE, user(n), "Big")
    await desk.begin(HERE, ADMIN, "Big", admin=True)
    await h.settle()
    games = 0
    for round_ in range(1, 8):
        assert (await snapshot(h, "Big")).event.round == round_
        games += await play_open_games(h, "Big", by_seed_with_upsets)
    snap = await snapshot(h, "Big")
    assert snap.event.status == "finished" and games == 7 * 32
    records = history(snap)
    assert all(len(r) == 7 for r in records.values())
    for player, rs in records.items():  # no rematch, colours balanced
        opponents = [r.opponent for r in rs]
        assert len(set(opponents)) == 7 and player not in opponents
        firsts = sum(r.colour is not None and r.colour.value == "first" for r in rs)
        assert 2 <= firsts <= 5
    seats = Counter((p.round, x) for p in snap.pairings for x in (p.first_id, p.second_id))
    assert max(seats.values()) == 1  # nobody paired twice in a round
    lines = standings_of(snap)
    assert len(lines) == 64 and lines[0].score >= 12
    posts = h.delivery.texts(HERE.channel_id)
    assert sum(t.startswith("**Big**") and "__Round" in t for t in posts) == 7  # one a round


async def test_a_10_player_double_round_robin_runs_to_the_end(h: Harness) -> None:
    desk = await desk_of(h)
    await create(desk, "League", "torii", "double-round-robin")
    for n in range(1, 11):
        await desk.join(HERE, user(n), "League")
    await desk.begin(HERE, ADMIN, "League", admin=True)
    await h.settle()
    snap = await snapshot(h, "League")
    assert snap.event.rounds == 18 and len(snap.pairings) == 90
    assert all(p.hosted_id for p in snap.pairings)  # every game starts at once
    assert await play_open_games(h, "League") == 90
    snap = await snapshot(h, "League")
    assert snap.event.status == "finished"
    met = Counter(frozenset((p.first_id, p.second_id)) for p in snap.pairings)
    assert set(met.values()) == {2} and len(met) == 45
    for a, b in ((p.first_id, p.second_id) for p in snap.pairings):
        assert (b, a) in {(q.first_id, q.second_id) for q in snap.pairings}  # colours swapped
    lines = standings_of(snap)
    assert [s.player_id for s in lines][:3] == [1, 2, 3]
    assert lines[0].score == 36 and all(r.outcome is Outcome.WIN for r in history(snap)[1])
