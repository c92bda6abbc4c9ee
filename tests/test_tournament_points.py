"""Game Point Values from the pieces taken (R27), on both boards, with and without Assassins."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.tournament import Board, Captures, army, personal_score
from bot.tournament.points import check_captures
from rules.tora.layouts import LONG_SETUPS, SHORT_SETUPS
from rules.tora.tournament import kinds_of

FIELD_OF_LETTER = {
    "S": "soldiers",
    "A": "archers",
    "C": "cannons",
    "H": "cavalry",
    "G": "command",
    "R": "command",
}


@pytest.mark.parametrize(
    ("board", "setups"), [(Board.SHORT, SHORT_SETUPS), (Board.LONG, LONG_SETUPS)]
)
def test_the_armies_are_the_rules_cores_setups(board, setups):
    for setup in setups.values():
        counts = Counter(FIELD_OF_LETTER[letter] for letter, _h, _v in setup)
        assert army(board, assassins=False) == Captures(**counts)


@pytest.mark.parametrize(
    ("board", "assassins", "total"),
    [(Board.SHORT, False, 16), (Board.LONG, False, 60), (Board.LONG, True, 60)],
)
def test_a_whole_army_is_worth_16_short_and_60_long(board, assassins, total):
    assert personal_score(army(board, assassins), assassins) == total


def test_the_short_board_has_no_assassin_table():
    with pytest.raises(ValueError, match="long board only"):
        army(Board.SHORT, assassins=True)


def test_piece_values_without_the_assassin():
    assert personal_score(Captures(soldiers=1), False) == 1
    assert personal_score(Captures(archers=1), False) == 1
    assert personal_score(Captures(cannons=1), False) == 3
    assert personal_score(Captures(cavalry=1), False) == 3
    assert personal_score(Captures(command=1), False) == 8


def test_piece_values_with_the_assassin():
    assert personal_score(Captures(soldiers=1), True) == 1
    assert personal_score(Captures(archers=1), True) == 1
    assert personal_score(Captures(cannons=1), True) == 2
    assert personal_score(Captures(cavalry=1), True) == 3
    assert personal_score(Captures(assassin=1), True) == 5
    assert personal_score(Captures(command=1), True) == 7


def test_short_game_values():
    # General, Cannon and two Archers: 8 + 3 + 2.
    assert personal_score(Captures(command=1, cannons=1, archers=2), False) == 13


def test_long_game_values_with_and_without_the_assassin():
    taken = Captures(command=2, cannons=2, cavalry=1, soldiers=3, archers=4)
    assert personal_score(taken, False) == 16 + 6 + 3 + 7
    assert personal_score(taken, True) == 14 + 4 + 3 + 7
    assert personal_score(Captures(assassin=1, command=1), True) == 12


def test_without_an_enemy_assassin_the_assassin_table_army_is_worth_55():
    assert personal_score(army(Board.LONG, True), True) - 5 == 55


def test_captures_from_the_rules_cores_letters():
    taken = Captures.of(kinds_of(["G", "R", "A", "A", "S", "H", "C", "X"]))
    assert taken == Captures(soldiers=1, archers=2, cannons=1, cavalry=1, command=2, assassin=1)
    with pytest.raises(ValueError, match="unknown piece letters: Z"):
        kinds_of(["Z"])


def test_captures_beyond_one_army_are_refused():
    check_captures(army(Board.LONG, True), Board.LONG, True)
    with pytest.raises(
        ValueError,
        match="2 cannons captured, but a short-board army without the Assassin rules has 1",
    ):
        check_captures(Captures(cannons=2), Board.SHORT, False)
    with pytest.raises(ValueError, match=r"1 assassin captured, .* has 0"):
        check_captures(Captures(assassin=1), Board.LONG, False)
    with pytest.raises(ValueError, match=r"1 cavalry captured, .* has 0"):
        check_captures(Captures(cavalry=1), Board.SHORT, False)
    with pytest.raises(ValueError, match="negative"):
        Captures(soldiers=-1)


def captures_within(board: Board, assassins: bool) -> st.SearchStrategy[Captures]:
    limits = army(board, assassins).counts()
    return st.builds(Captures, **{name: st.integers(0, limit) for name, limit in limits.items()})


@given(
    st.sampled_from([(Board.SHORT, False), (Board.LONG, False), (Board.LONG, True)]).flatmap(
        lambda options: st.tuples(st.just(options), captures_within(*options))
    )
)
def test_any_captures_are_worth_between_nothing_and_the_whole_army(case):
    (board, assassins), taken = case
    assert (
        0 <= personal_score(taken, assassins) <= personal_score(army(board, assassins), assassins)
    )
