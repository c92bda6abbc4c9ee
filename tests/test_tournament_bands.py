"""Percentage Scores and the chart of bands: every boundary, exact fractions, monotonic."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.tournament import Band, band_for, percentage_scores
from bot.tournament.bands import average

JUST_BELOW = Fraction(1, 1000)


@pytest.mark.parametrize(
    ("floor", "below", "at"),
    [
        (20, Band.TWO_LOWER, Band.ONE_LOWER),
        (40, Band.ONE_LOWER, Band.EVEN),
        (60, Band.EVEN, Band.ONE_HIGHER),
        (80, Band.ONE_HIGHER, Band.TWO_HIGHER),
        (96, Band.TWO_HIGHER, Band.THREE_HIGHER),
    ],
)
def test_band_boundaries(floor, below, at):
    """19/20, 39/40, 59/60, 79/80, 95/96, in whole percents and just below the floor."""
    assert band_for(Fraction(floor - 1)) is below
    assert band_for(floor - JUST_BELOW) is below
    assert band_for(Fraction(floor)) is at


def test_the_ends_of_the_chart():
    assert band_for(Fraction(0)) is Band.TWO_LOWER
    assert band_for(Fraction(100)) is Band.THREE_HIGHER
    with pytest.raises(ValueError, match="between 0 and 100"):
        band_for(Fraction(101))
    with pytest.raises(ValueError, match="between 0 and 100"):
        band_for(Fraction(-1))


def test_only_the_top_band_is_a_mismatch():
    assert [band for band in Band if band.mismatch] == [Band.THREE_HIGHER]


def test_the_bands_state_their_transitions():
    assert [int(band) for band in Band] == [-2, -1, 0, 1, 2, 3]


def test_percentage_scores_are_exact_shares():
    assert percentage_scores(8, 4) == (Fraction(200, 3), Fraction(100, 3))
    assert percentage_scores(16, 0) == (100, 0)


def test_a_game_without_points_is_even():
    assert percentage_scores(0, 0) == (50, 50)


def test_negative_scores_are_refused():
    with pytest.raises(ValueError, match="negative"):
        percentage_scores(-1, 3)


def test_average_needs_games():
    assert average([Fraction(60), Fraction(70), Fraction(80)]) == 70
    with pytest.raises(ValueError, match="at least one game"):
        average([])


points = st.integers(0, 60)


@given(points, points)
def test_the_two_percentage_scores_of_a_game_sum_to_100(first, second):
    a, b = percentage_scores(first, second)
    assert a + b == 100
    assert 0 <= a <= 100


@given(points, points)
def test_more_points_never_mean_a_smaller_share(first, second):
    assert (first >= second) == (percentage_scores(first, second)[0] >= 50)


percentages = st.fractions(0, 100)


@given(percentages, percentages)
def test_bands_are_monotonic(p, q):
    low, high = sorted((p, q))
    assert band_for(low) <= band_for(high)


@given(st.lists(st.tuples(points, points), min_size=3, max_size=4))
def test_the_two_average_percentage_scores_sum_to_100(games):
    shares = [percentage_scores(a, b) for a, b in games]
    first = average([share[0] for share in shares])
    second = average([share[1] for share in shares])
    assert first + second == 100
