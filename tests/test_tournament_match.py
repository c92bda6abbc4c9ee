"""Four-game matches: targets, Game Points with both kinds of handicap, the ranking comparison."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tournament_helpers import short

from bot.tournament import (
    TARGET_BOUNDS,
    Band,
    Board,
    Captures,
    GameResult,
    Match,
    MatchSetup,
    Seat,
    check_target,
    decide_tie_breaker,
)

FIRST, SECOND = Seat.FIRST, Seat.SECOND
FULL_LONG = Captures(soldiers=9, archers=9, cannons=2, cavalry=4, command=3)


def game(first: int, second: int, winner: Seat | None) -> GameResult:
    return GameResult((short(first), short(second)), winner)


def short_match(*games: GameResult, ranks: tuple[int, int] = (2, 2), target: int = 49) -> Match:
    match = Match(MatchSetup(Board.SHORT, ranks, target))
    for each in games:
        match = match.record(each)
    return match


@pytest.mark.parametrize(("board", "low", "high"), [(Board.LONG, 181, 240), (Board.SHORT, 49, 64)])
def test_match_target_bounds(board, low, high):
    assert TARGET_BOUNDS[board] == (low, high)
    for target in (low, high):
        check_target(board, target)
        MatchSetup(board, (1, 1), target)
    for target in (low - 1, high + 1):
        with pytest.raises(
            ValueError, match=f"{board}-board match target must be from {low} to {high}"
        ):
            MatchSetup(board, (1, 1), target)


def test_setups_refuse_ranks_below_1_and_assassins_on_the_short_board():
    with pytest.raises(ValueError, match="ranks start at 1"):
        MatchSetup(Board.LONG, (0, 3), 200)
    with pytest.raises(ValueError, match="long board only"):
        MatchSetup(Board.SHORT, (1, 1), 50, assassins=True)
    stored = MatchSetup("long", [1, 1], 200)  # as read back from JSON
    assert stored == MatchSetup(Board.LONG, (1, 1), 200) and stored.board is Board.LONG
    with pytest.raises(ValueError, match="exactly two players"):
        MatchSetup(Board.LONG, (1, 1, 1), 200)


def test_each_player_is_challenger_twice():
    match = short_match()
    order = []
    for winner in (FIRST, SECOND, FIRST, SECOND):
        order.append(match.next_challenger)
        match = match.record(game(8, 3, winner))
    assert order == [FIRST, SECOND, FIRST, SECOND]
    assert match.finished
    with pytest.raises(ValueError, match="the match is over"):
        _ = match.next_challenger


def test_no_fifth_game():
    match = short_match(*[game(8, 0, FIRST)] * 2, *[game(0, 8, SECOND)] * 2)
    with pytest.raises(ValueError, match="over before game 5"):
        match.record(game(8, 0, FIRST))


def test_a_two_all_match_has_no_ranking_comparison_and_is_won_on_points():
    match = short_match(
        game(8, 3, FIRST), game(2, 8, SECOND), game(12, 4, FIRST), game(5, 9, SECOND)
    )
    score = match.score
    assert score.ranking is None
    assert score.games_won == (2, 2)
    assert score.game_points == (27, 24)
    assert match.winner is FIRST
    assert match.reached_target == (False, False)


def test_equal_game_points_leave_the_match_to_tie_breaker_games():
    match = short_match(
        game(8, 3, FIRST), game(3, 8, SECOND), game(8, 3, FIRST), game(3, 8, SECOND)
    )
    assert match.finished and match.winner is None
    assert decide_tie_breaker(game(8, 5, FIRST), assassins=False) is FIRST
    assert decide_tie_breaker(game(4, 9, SECOND), assassins=False) is SECOND
    assert decide_tie_breaker(game(8, 8, None), assassins=False) is None


def test_the_winner_of_3_is_compared_over_the_3_games_they_won():
    match = short_match(
        game(9, 3, FIRST), game(0, 16, SECOND), game(8, 8, FIRST), game(12, 4, FIRST)
    )
    ranking = match.score.ranking
    assert ranking.games == (0, 2, 3)
    assert ranking.averages == (Fraction(75 + 50 + 75, 3), Fraction(25 + 50 + 25, 3))
    assert ranking.bands == (Band.ONE_HIGHER, Band.ONE_LOWER)


def test_the_winner_of_all_4_is_compared_over_all_4():
    match = short_match(*[game(9, 1, FIRST)] * 2, *[game(8, 0, FIRST)] * 2)
    ranking = match.score.ranking
    assert ranking.games == (0, 1, 2, 3)
    assert ranking.averages == (95, 5)
    assert ranking.bands == (Band.TWO_HIGHER, Band.TWO_LOWER)
    assert not ranking.mismatch


def test_the_second_player_can_be_the_one_who_won_3():
    match = short_match(
        game(0, 8, SECOND), game(0, 8, SECOND), game(8, 0, FIRST), game(0, 8, SECOND)
    )
    ranking = match.score.ranking
    assert ranking.games == (0, 1, 3)
    assert ranking.bands == (Band.TWO_LOWER, Band.THREE_HIGHER)
    assert ranking.mismatch


def test_band_effects_apply_to_the_match_game_points():
    # FIRST wins 3 games at 11:4 (73%) -> 60-79: FIRST's captured Cannon gives 1, not 3.
    match = short_match(*[game(11, 4, FIRST)] * 3, game(0, 9, SECOND))
    assert match.score.ranking.bands == (Band.ONE_HIGHER, Band.ONE_LOWER)
    assert match.score.game_points == (3 * 9, 3 * 4 + 9)


def test_a_mismatch_in_game_points():
    # 16:0 in all four: FIRST at 96-100 (General 5, Cannon 1), SECOND at 0-19 (+1 a piece).
    match = short_match(*[game(16, 0, FIRST)] * 4)
    assert match.score.ranking.bands == (Band.THREE_HIGHER, Band.TWO_LOWER)
    assert match.score.game_points == (4 * (5 + 1 + 5), 0)
    assert match.reached_target == (False, False)
    assert match.winner is FIRST


def test_the_player_who_won_3_can_lose_the_match_on_game_points():
    """The chapter's Match 4 the other way round: SECOND wins 3 games by taking the General,
    FIRST takes more pieces overall and wins on Game Points with only 33% in the comparison."""
    match = short_match(*[game(4, 8, SECOND)] * 3, game(16, 0, FIRST), ranks=(2, 4))
    assert match.score.ranking.bands == (Band.ONE_LOWER, Band.ONE_HIGHER)
    assert match.score.game_points == (28, 24)
    assert match.winner is FIRST


def test_the_rank_table_is_added_once_to_the_match_total():
    match = short_match(*[game(8, 3, FIRST), game(3, 8, SECOND)] * 2, ranks=(1, 9), target=60)
    assert match.score.rank_handicap == (6, -5)
    assert match.score.game_points == (22 + 6, 22 - 5)
    assert match.winner is FIRST


def long_game(first: Captures, second: Captures, winner: Seat) -> GameResult:
    return GameResult((first, second), winner)


def test_a_handicapped_player_can_win_in_the_third_game():
    """ "A handicapped player could still conceivably win a Match in the 3rd game with 181 pts":
    rank 1 against rank 9 (+24), three whole armies taken at 75% (Cannons at 1: 56 a game)."""
    twenty = Captures(command=1, cannons=2, cavalry=2)
    one_game = long_game(FULL_LONG, twenty, FIRST)
    match = Match(MatchSetup(Board.LONG, (1, 9), 181))
    for number in range(3):
        assert not match.finished
        assert match.next_challenger is Seat(number % 2)
        match = match.record(one_game)
    assert match.score.game_points == (3 * 56 + 24, 3 * 20 - 20)
    assert match.finished and match.winner is FIRST
    assert match.reached_target == (True, False)
    with pytest.raises(ValueError, match="over before game 4"):
        match.record(one_game)


def test_without_the_handicap_nobody_reaches_181_in_three_games():
    full = long_game(FULL_LONG, Captures(), FIRST)
    match = Match(MatchSetup(Board.LONG, (1, 4), 181), (full, full, full))
    assert match.score.game_points == (3 * 39, 0)  # a mis-match: 60 is worth 39 to FIRST
    assert not match.finished


def test_captures_beyond_an_army_are_refused():
    with pytest.raises(ValueError, match="2 command captured"):
        short_match(GameResult((Captures(command=2), Captures()), FIRST))


def test_a_stored_winner_comes_back_as_a_seat():
    assert GameResult((Captures(), Captures()), 1).winner is SECOND
    with pytest.raises(ValueError, match="exactly two players"):
        GameResult((Captures(),), None)


winners = st.sampled_from([FIRST, SECOND, None])
short_games = st.builds(game, st.integers(0, 16), st.integers(0, 16), winners)


@given(st.lists(short_games, min_size=4, max_size=4), st.integers(1, 12), st.integers(1, 12))
def test_any_four_game_short_match(games, first_rank, second_rank):
    match = short_match(*games, ranks=(first_rank, second_rank), target=64)
    score = match.score
    assert match.finished
    first, second = score.game_points
    assert match.winner is (None if first == second else FIRST if first > second else SECOND)
    if score.ranking is None:
        raw = [sum(g.personal_scores(False)[seat] for g in games) for seat in Seat]
        assert score.game_points == (
            raw[0] + score.rank_handicap[0],
            raw[1] + score.rank_handicap[1],
        )
        assert max(score.games_won) < 3
    else:
        assert sum(score.ranking.averages) == 100
        assert max(score.games_won) >= 3
