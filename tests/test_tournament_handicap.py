"""The rank-differential handicap tables (every row) and the bands' effects on Game Points."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.tournament import Band, Board, Captures, army, game_point_value, rank_handicap
from bot.tournament.handicap import band_values

LONG_ROWS = [(4, 0, -4), (5, 6, -8), (6, 12, -12), (7, 18, -16), (8, 24, -20)]
SHORT_ROWS = [(4, 0, -1), (5, 1, -2), (6, 2, -3), (7, 4, -4), (8, 6, -5)]
ROWS = [(Board.LONG, *row) for row in LONG_ROWS] + [(Board.SHORT, *row) for row in SHORT_ROWS]


@pytest.mark.parametrize(("board", "differential", "lower", "higher"), ROWS)
def test_every_row_of_both_tables(board, differential, lower, higher):
    assert rank_handicap(board, (1, 1 + differential)) == (lower, higher)
    assert rank_handicap(board, (3 + differential, 3)) == (higher, lower)


@pytest.mark.parametrize("board", list(Board))
@pytest.mark.parametrize("differential", [0, 1, 2, 3])
def test_players_within_3_ranks_do_not_use_the_tables(board, differential):
    assert rank_handicap(board, (5, 5 + differential)) == (0, 0)


@pytest.mark.parametrize(
    ("board", "lower", "higher"), [(Board.LONG, 24, -20), (Board.SHORT, 6, -5)]
)
@pytest.mark.parametrize("differential", [8, 9, 15])
def test_eight_and_more(board, lower, higher, differential):
    assert rank_handicap(board, (2, 2 + differential)) == (lower, higher)


@given(st.sampled_from(list(Board)), st.integers(1, 30), st.integers(1, 30))
def test_the_lower_ranked_player_never_loses_points_by_the_table(board, first, second):
    a, b = rank_handicap(board, (first, second))
    assert (a, b) == tuple(reversed(rank_handicap(board, (second, first))))
    if first < second:
        assert a >= 0 >= b
    elif first == second:
        assert a == b == 0


@given(st.sampled_from(list(Board)), st.integers(1, 12), st.integers(1, 12))
def test_a_bigger_differential_never_means_a_smaller_handicap(board, ranks, extra):
    narrow = rank_handicap(board, (1, 1 + ranks))
    wide = rank_handicap(board, (1, 1 + ranks + extra))
    assert wide[0] >= narrow[0] and wide[1] <= narrow[1]


def test_the_60_79_band_values_the_players_cannons_at_1():
    assert band_values(False, Band.ONE_HIGHER)["cannons"] == 1
    assert band_values(True, Band.ONE_HIGHER)["cannons"] == 1
    taken = Captures(cannons=2, cavalry=1, command=1)
    assert game_point_value(taken, False, Band.ONE_HIGHER) == 2 + 3 + 8


def test_the_80_95_band_values_cavalry_at_1_and_keeps_cannons_at_1():
    taken = Captures(cannons=2, cavalry=4, command=1)
    assert game_point_value(taken, False, Band.TWO_HIGHER) == 2 + 4 + 8
    assert game_point_value(taken, True, Band.TWO_HIGHER) == 2 + 4 + 7


def test_the_96_100_band_values_command_pieces_at_5():
    taken = Captures(cannons=2, cavalry=4, command=3, soldiers=2)
    assert game_point_value(taken, False, Band.THREE_HIGHER) == 2 + 4 + 15 + 2
    with_assassin = Captures(**{**taken.counts(), "assassin": 1})
    assert game_point_value(with_assassin, True, Band.THREE_HIGHER) == 2 + 4 + 15 + 5 + 2


def test_the_0_19_band_adds_1_on_every_piece_captured():
    taken = Captures(soldiers=2, archers=1, cannons=1, command=1)
    assert game_point_value(taken, False, Band.TWO_LOWER) == 3 * 2 + 4 + 9
    assert game_point_value(Captures(), False, Band.TWO_LOWER) == 0


@pytest.mark.parametrize("band", [Band.ONE_LOWER, Band.EVEN])
def test_the_middle_bands_leave_the_values_alone(band):
    taken = army(Board.LONG, True)
    assert game_point_value(taken, True, band) == 60


@pytest.mark.parametrize("assassins", [False, True])
def test_full_armies_by_band(assassins):
    """A long army at each band's values: the winner's effects only ever take points away."""
    taken = army(Board.LONG, assassins)
    by_band = [game_point_value(taken, assassins, band) for band in Band]
    cannon = 3 if not assassins else 2
    command = 8 if not assassins else 7
    assert by_band[Band.EVEN + 2] == 60
    assert by_band[Band.ONE_HIGHER + 2] == 60 - 2 * (cannon - 1)
    assert by_band[Band.TWO_HIGHER + 2] == 60 - 2 * (cannon - 1) - 4 * 2
    assert by_band[Band.THREE_HIGHER + 2] == 60 - 2 * (cannon - 1) - 4 * 2 - 3 * (command - 5)
    assert by_band[Band.TWO_LOWER + 2] == 60 + 27 + int(assassins)


long_captures = st.builds(
    Captures,
    **{name: st.integers(0, limit) for name, limit in army(Board.LONG, True).counts().items()},
)


@given(long_captures, st.booleans(), st.sampled_from(list(Band)), st.sampled_from(list(Band)))
def test_a_better_band_never_earns_more_game_points_from_the_same_captures(
    taken, assassins, band, other
):
    if not assassins:
        taken = Captures(**{**taken.counts(), "assassin": 0})
    low, high = sorted((band, other))
    if low >= Band.EVEN:
        assert game_point_value(taken, assassins, high) <= game_point_value(taken, assassins, low)
    assert game_point_value(taken, assassins, Band.TWO_LOWER) >= game_point_value(
        taken, assassins, high
    )
