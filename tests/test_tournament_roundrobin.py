"""Round robin schedules: the Berger tables FIDE publishes (C.05 Annex 1), byes for odd
counts, the double round robin's second cycle with colours reversed."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.tournament.roundrobin import berger_numbers, schedule

FIDE_BERGER_4 = [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]
FIDE_BERGER_6 = [
    [(1, 6), (2, 5), (3, 4)],
    [(6, 4), (5, 3), (1, 2)],
    [(2, 6), (3, 1), (4, 5)],
    [(6, 5), (1, 4), (2, 3)],
    [(3, 6), (4, 2), (5, 1)],
]
FIDE_BERGER_8_FIRST_AND_LAST = (
    [(1, 8), (2, 7), (3, 6), (4, 5)],
    [(4, 8), (5, 3), (6, 2), (7, 1)],
)


def test_the_tables_are_fidés_berger_tables() -> None:
    assert berger_numbers(4) == FIDE_BERGER_4
    assert berger_numbers(6) == FIDE_BERGER_6
    eight = berger_numbers(8)
    assert (eight[0], eight[-1]) == FIDE_BERGER_8_FIRST_AND_LAST


def test_an_odd_count_gives_each_player_one_bye_and_plays_the_rest() -> None:
    rounds = schedule([10, 20, 30, 40, 50])
    assert len(rounds) == 5
    assert sorted(r.bye for r in rounds) == [10, 20, 30, 40, 50]
    met = Counter(frozenset((b.first, b.second)) for r in rounds for b in r.boards)
    assert set(met) == {frozenset(p) for p in combinations([10, 20, 30, 40, 50], 2)}
    assert set(met.values()) == {1}


def test_the_double_round_robin_replays_every_game_with_the_other_colours() -> None:
    rounds = schedule([1, 2, 3, 4], double=True)
    assert len(rounds) == 6
    first = [(b.first, b.second) for r in rounds[:3] for b in r.boards]
    second = [(b.second, b.first) for r in rounds[3:] for b in r.boards]
    assert first == second


@given(st.integers(2, 24))
def test_everybody_meets_everybody_once_with_balanced_colours(count: int) -> None:
    players = list(range(100, 100 + count))
    rounds = schedule(players)
    pairs = [frozenset((b.first, b.second)) for r in rounds for b in r.boards]
    assert sorted(map(sorted, pairs)) == sorted(map(sorted, combinations(players, 2)))
    firsts = Counter(b.first for r in rounds for b in r.boards)
    games = count - 1
    for p in players:
        assert abs(2 * firsts[p] - games) <= 1 + count % 2  # an odd count rests once


def test_a_round_robin_needs_two_distinct_players() -> None:
    with pytest.raises(ValueError, match="two distinct"):
        schedule([1])
    with pytest.raises(ValueError, match="two distinct"):
        schedule([1, 1])
