"""Tied champions: Game Points first, then the win/loss record, then tie-breaker games."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.tournament import Standing, order_champions


def test_game_points_decide_first():
    groups = order_champions(
        [Standing("ann", 410, 1, 3), Standing("bob", 420, 0, 4), Standing("cy", 400, 4, 0)]
    )
    assert [[s.player for s in group] for group in groups] == [["bob"], ["ann"], ["cy"]]


def test_equal_game_points_compare_the_win_loss_record():
    groups = order_champions([Standing("ann", 400, 3, 1), Standing("bob", 400, 4, 0)])
    assert [[s.player for s in group] for group in groups] == [["bob"], ["ann"]]


def test_the_record_is_the_share_of_matches_won():
    assert Standing("ann", 0, 3, 1).record == Fraction(3, 4)
    assert Standing("ann", 0, 0, 0).record == 0
    groups = order_champions([Standing("ann", 400, 5, 1), Standing("bob", 400, 4, 0)])
    assert [[s.player for s in group] for group in groups] == [["bob"], ["ann"]]


def test_a_tie_that_remains_goes_to_tie_breaker_games():
    ann, bob, cy = Standing("ann", 400, 3, 1), Standing("bob", 400, 6, 2), Standing("cy", 300, 4, 0)
    assert order_champions([ann, cy, bob]) == [(ann, bob), (cy,)]


def test_negative_records_are_refused():
    with pytest.raises(ValueError, match="cannot be negative"):
        Standing("ann", 0, -1, 0)


standings = st.lists(
    st.builds(
        Standing, st.integers(), st.integers(-240, 960), st.integers(0, 8), st.integers(0, 8)
    ),
    max_size=12,
)


@given(standings)
def test_every_player_is_placed_once_and_groups_are_strictly_ordered(players):
    groups = order_champions(players)
    assert sorted(map(id, (s for g in groups for s in g))) == sorted(map(id, players))
    keys = [(g[0].game_points, g[0].record) for g in groups]
    assert keys == sorted(keys, reverse=True) and len(set(keys)) == len(keys)
    assert all(len({(s.game_points, s.record) for s in g}) == 1 for g in groups)
