"""A Swiss's first round built directly (bot/tournament/first_round.py) is the pairing
py4swiss's Dutch engine gives, as shipped: on random events of every size, ratings with ties,
withdrawn entrants and odd counts."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from swiss_oracle import library_as_shipped

from bot.tournament import swiss
from bot.tournament.records import Board, PairedRound
from bot.tournament.swiss import SwissPlayer, library_round, pair_round


def library_first_round(players: list[SwissPlayer], rounds: int) -> PairedRound:
    with pytest.MonkeyPatch.context() as patch:
        library_as_shipped(patch)
        return library_round(players, {}, rounds)


entrants = st.lists(
    st.tuples(st.integers(0, 3000), st.booleans().map(lambda withdrawn: not withdrawn)),
    min_size=1,
    max_size=70,
).map(lambda drawn: [SwissPlayer(i, rating, active) for i, (rating, active) in enumerate(drawn, 1)])


@settings(max_examples=150, deadline=None)
@given(players=entrants, rounds=st.integers(1, 11))
def test_the_first_round_is_the_librarys_pairing(players: list[SwissPlayer], rounds: int) -> None:
    assert pair_round(players, {}, rounds) == library_first_round(players, rounds)


@settings(max_examples=40, deadline=None)
@given(count=st.integers(1, 40), rating=st.integers(1000, 2000))
def test_a_field_of_equal_ratings_seeds_by_entry_as_the_library_does(
    count: int, rating: int
) -> None:
    players = [SwissPlayer(i, rating) for i in range(1, count + 1)]
    assert pair_round(players, {}, 5) == library_first_round(players, 5)


@pytest.mark.parametrize("count", [99, 100, 101, 240, 241])
def test_large_first_rounds_are_the_librarys(count: int) -> None:
    players = [SwissPlayer(i, 2500 - 3 * i + (i % 7) * 5) for i in range(1, count + 1)]
    assert pair_round(players, {}, 9) == library_first_round(players, 9)


def test_top_half_meets_bottom_half_colours_alternating_the_bye_to_the_last() -> None:
    players = [SwissPlayer(i, 2000 - i) for i in range(1, 10)]
    paired = pair_round(players, {}, 5)
    # S1 = 1-4 against S2 = 5-8: the odd pairing numbers have the first move
    assert paired.boards == (Board(1, 5), Board(6, 2), Board(3, 7), Board(8, 4))
    assert paired.bye == 9


def test_a_withdrawn_entrant_keeps_their_pairing_number_and_so_shifts_the_colours() -> None:
    players = [SwissPlayer(1, 2000, active=False), *(SwissPlayer(i, 2000 - i) for i in range(2, 6))]
    # pairing numbers 2-5 play: 2 (even: the second move) against 4, 3 (odd) against 5
    assert pair_round(players, {}, 5) == PairedRound((Board(4, 2), Board(3, 5)), None)


def test_on_another_library_version_the_library_pairs_the_first_round_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def not_checked(seeds: object) -> PairedRound:
        raise AssertionError("the direct first round is checked against py4swiss 0.3.1 only")

    monkeypatch.setattr(swiss, "CHECKED_LIBRARY", False)
    monkeypatch.setattr(swiss, "first_round", not_checked)
    players = [SwissPlayer(i, 2000 - i) for i in range(1, 8)]
    assert pair_round(players, {}, 5) == library_first_round(players, 5)
