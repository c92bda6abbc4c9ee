"""Glicko-2 against Glickman's worked example, and properties players rely on."""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from bot.ladder.glicko2 import DEFAULT_DEVIATION, Rating, Result, inflate, play, rate

ratings = st.builds(
    Rating,
    st.floats(800, 2600),
    st.floats(30, 350),
    st.floats(0.03, 0.1),
)


def test_the_papers_example():
    """1500/200/0.06 beats 1400/30, loses to 1550/100 and 1700/300 (tau 0.5)."""
    player = Rating(1500, 200, 0.06)
    after = rate(
        player,
        [
            Result(Rating(1400, 30), 1),
            Result(Rating(1550, 100), 0),
            Result(Rating(1700, 300), 0),
        ],
    )
    assert round(after.mu, 4) == -0.2069  # the paper rounds mu' before scaling: 1464.06
    assert abs(after.rating - 1464.06) < 0.01
    assert abs(after.deviation - 151.52) < 0.01
    assert abs(after.volatility - 0.05999) < 0.00001


@given(ratings, ratings)
def test_a_win_never_lowers_a_rating_and_a_loss_never_raises_one(a, b):
    won, lost = play(a, b, 1.0)
    assert won.rating >= a.rating and lost.rating <= b.rating


@given(ratings, ratings, st.sampled_from([0.0, 0.5, 1.0]))
def test_ratings_are_symmetric_under_swapping_the_players(a, b, score):
    first, second = play(a, b, score)
    second_again, first_again = play(b, a, 1.0 - score)
    assert first == first_again and second == second_again


@given(ratings, ratings)
@example(Rating(2256.0, 350.0, 0.0625), Rating(800.0, 30.0, 0.0625))  # deviation above 350
def test_playing_narrows_the_deviation_and_idleness_widens_it(a, b):
    after, _ = play(a, b, 0.5)
    # narrower than a period idle at the new volatility (step 6 then 7: phi' <= phi*); a
    # game against a far-off opponent tells little and may raise the volatility itself
    idle_once = inflate(Rating(a.rating, a.deviation, after.volatility), 1)
    assert after.deviation <= idle_once.deviation + 1e-9
    idle = inflate(after, 10)
    assert after.deviation <= idle.deviation <= DEFAULT_DEVIATION


def test_new_and_long_idle_players_are_provisional():
    assert Rating().provisional
    settled = Rating(1620, 60, 0.06)
    assert not settled.provisional
    assert inflate(settled, 200).provisional
