"""Transitional Ranks and their resolution: the chapter's worked example of Players A and B."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tournament_helpers import short

from bot.tournament import (
    Band,
    Board,
    GameResult,
    Match,
    MatchSetup,
    PlayerRank,
    Seat,
    Transition,
    ranks_after,
)
from bot.tournament.transition import resolve

FIRST, SECOND = Seat.FIRST, Seat.SECOND


def play(
    player: PlayerRank, opponent_rank: int, *games: tuple[int, int, Seat]
) -> tuple[PlayerRank, Match]:
    """``player`` (as FIRST) plays a short-board match against a player of ``opponent_rank``."""
    match = Match(MatchSetup(Board.SHORT, (player.rank, opponent_rank), 64))
    for mine, theirs, winner in games:
        match = match.record(GameResult((short(mine), short(theirs)), winner))
    opponent = PlayerRank(Board.SHORT, opponent_rank)
    after, _ = ranks_after(match, (player, opponent))
    return after, match


def band_of_first(match: Match) -> Band:
    return match.score.ranking.bands[0]


# Matches whose band for FIRST is as named (each game: FIRST's points, the other's, winner).
WON_AT_70 = [(14, 6, FIRST)] * 3 + [(0, 8, SECOND)]
LOST_AT_30 = [(6, 14, SECOND)] * 3 + [(8, 0, FIRST)]
WON_AT_85 = [(11, 2, FIRST)] * 4
WON_AT_100 = [(16, 0, FIRST)] * 4
LOST_AT_11 = [(1, 8, SECOND)] * 3 + [(8, 0, FIRST)]
# Won on Game Points (28 to 24) but 33% in the games compared, those the opponent won.
WON_ON_POINTS_AT_33 = [(4, 8, SECOND)] * 3 + [(16, 0, FIRST)]
EVEN_AT_55 = [(5, 4, FIRST)] * 3 + [(0, 8, SECOND)]


def test_the_match_results_have_the_bands_the_example_names():
    start = PlayerRank(Board.SHORT, 2)
    named = {
        Band.ONE_HIGHER: WON_AT_70,
        Band.ONE_LOWER: LOST_AT_30,
        Band.TWO_HIGHER: WON_AT_85,
        Band.THREE_HIGHER: WON_AT_100,
        Band.TWO_LOWER: LOST_AT_11,
        Band.EVEN: EVEN_AT_55,
    }
    for band, games in named.items():
        assert band_of_first(play(start, 3, *games)[1]) is band
    _, match = play(start, 4, *WON_ON_POINTS_AT_33)
    assert match.winner is FIRST and band_of_first(match) is Band.ONE_LOWER


def player_a_and_b() -> tuple[PlayerRank, PlayerRank]:
    """Player A beat Player B; both were rank 2; A is in transition to 3, B to 1."""
    setup = MatchSetup(Board.SHORT, (2, 2), 64)
    match = Match(setup)
    for mine, theirs, winner in WON_AT_70:
        match = match.record(GameResult((short(mine), short(theirs)), winner))
    a, b = ranks_after(match, (PlayerRank(Board.SHORT, 2), PlayerRank(Board.SHORT, 2)))
    assert match.winner is FIRST
    assert a == PlayerRank(Board.SHORT, 2, Transition(3))
    assert b == PlayerRank(Board.SHORT, 2, Transition(1))
    return a, b


@pytest.mark.parametrize(
    ("match_2", "played_like"),
    [(WON_AT_85, 5), (WON_AT_100, 6)],
    ids=["plus-2", "plus-3-mismatch"],
)
def test_the_worked_example_player_a_goes_from_rank_2_to_rank_3(match_2, played_like):
    """Match 1: lost to a rank 3 at -1 (played like 2). Match 2: beat a rank 3 at +2 (the
    example's explanation) or +3 (its list and summary). Match 3: lost to a rank 5 at -2
    (played like 3). Match 4: beat a rank 4 on Game Points at -1 (played like 3)."""
    a, _ = player_a_and_b()
    a, match_1 = play(a, 3, *LOST_AT_30)
    assert match_1.winner is SECOND
    assert a == PlayerRank(Board.SHORT, 2, Transition(3, (2,)))
    a, match_2_result = play(a, 3, *match_2)
    assert match_2_result.winner is FIRST
    a, match_3 = play(a, 5, *LOST_AT_11)
    assert match_3.winner is SECOND
    assert a == PlayerRank(Board.SHORT, 2, Transition(3, (2, played_like, 3)))
    a, match_4 = play(a, 4, *WON_ON_POINTS_AT_33)
    assert match_4.winner is FIRST
    assert a == PlayerRank(Board.SHORT, 3)


def test_the_worked_example_player_b_stays_rank_2():
    """ "Player B ... played less exciting games, each one stating that he/she was a Rank 2"."""
    _, b = player_a_and_b()
    for opponent_rank, games in ((2, EVEN_AT_55), (1, WON_AT_70), (3, LOST_AT_30)):
        b, _ = play(b, opponent_rank, *games)
        assert b.rank == 2 and b.transition.rank == 1
    b, _ = play(b, 2, *EVEN_AT_55)
    assert b == PlayerRank(Board.SHORT, 2)


def test_a_loss_to_a_much_higher_rank_can_start_an_upward_transition():
    after, match = play(PlayerRank(Board.SHORT, 2), 5, *LOST_AT_11)
    assert match.winner is SECOND
    assert after.transition == Transition(3)


def test_playing_at_the_current_rank_starts_nothing():
    start = PlayerRank(Board.SHORT, 3)
    assert play(start, 2, *WON_AT_70)[0] == start
    assert play(start, 3, *EVEN_AT_55)[0] == start


def test_a_match_without_a_ranking_comparison_states_nothing():
    two_all = [(8, 0, FIRST), (0, 8, SECOND)] * 2
    a, _ = player_a_and_b()
    assert play(a, 5, *two_all)[0] == a
    assert play(PlayerRank(Board.SHORT, 2), 5, *two_all)[0] == PlayerRank(Board.SHORT, 2)


def test_ranks_never_fall_below_1():
    start = PlayerRank(Board.SHORT, 1)
    assert start.after(1, Band.TWO_LOWER) == start
    assert PlayerRank(Board.SHORT, 2).after(1, Band.TWO_LOWER).transition == Transition(1)
    with pytest.raises(ValueError, match="ranks start at 1"):
        PlayerRank(Board.SHORT, 0)


@pytest.mark.parametrize(
    ("current", "transitional", "played_like", "new"),
    [
        (2, 3, (2, 5, 3, 3), 3),  # the worked example
        (2, 3, (2, 6, 3, 3), 3),  # the same with Match 2 a mis-match
        (2, 4, (4, 5, 4, 1), 4),  # three of four at 4 or better: the Transitional Rank
        (2, 4, (6, 6, 6, 6), 4),  # never past the Transitional Rank
        (2, 4, (3, 3, 3, 2), 3),  # three of four support only 3: part of the way
        (2, 3, (3, 3, 2, 2), 2),  # only two of four: discarded
        (2, 3, (1, 1, 1, 1), 2),  # the other way: discarded, not reversed
        (5, 3, (3, 4, 4, 6), 4),  # downward, part of the way
        (5, 3, (1, 2, 3, 9), 3),  # downward, all of it
        (5, 4, (5, 5, 5, 5), 5),  # played at the Current Rank: unchanged
    ],
)
def test_resolution(current, transitional, played_like, new):
    assert resolve(current, transitional, played_like) == new


def test_ranks_are_per_board_and_per_match():
    _, match = play(PlayerRank(Board.SHORT, 2), 2, *WON_AT_70)
    long_rank = PlayerRank(Board.LONG, 2)
    with pytest.raises(ValueError, match="short-board match cannot change a long rank"):
        ranks_after(match, (long_rank, PlayerRank(Board.SHORT, 2)))
    with pytest.raises(ValueError, match="played at rank 2, not 3"):
        ranks_after(match, (PlayerRank(Board.SHORT, 3), PlayerRank(Board.SHORT, 2)))
    unfinished = Match(match.setup, match.games[:2])
    with pytest.raises(ValueError, match="only when the match is over"):
        ranks_after(unfinished, (PlayerRank(Board.SHORT, 2), PlayerRank(Board.SHORT, 2)))
    assert PlayerRank("long", 2) == long_rank


ranked_matches = st.lists(
    st.tuples(st.integers(1, 10), st.sampled_from([*Band, None])), max_size=30
)


@given(st.integers(1, 10), ranked_matches)
def test_a_rank_changes_only_when_a_transition_resolves_and_stays_within_it(rank, matches):
    player = PlayerRank(Board.LONG, rank)
    for opponent_rank, band in matches:
        after = player.after(opponent_rank, band)
        if after.rank != player.rank:
            pending = player.transition
            assert pending is not None and len(pending.played_like) == 3
            assert after.transition is None
            low, high = sorted((player.rank, pending.rank))
            assert low <= after.rank <= high
        player = after


@given(st.integers(1, 10), st.lists(st.integers(1, 10), max_size=20))
def test_a_player_who_always_plays_at_their_rank_keeps_it(rank, opponents):
    player = PlayerRank(Board.SHORT, rank)
    for opponent_rank in opponents:
        band = rank - opponent_rank
        if -2 <= band <= 3:
            player = player.after(opponent_rank, Band(band))
    assert player == PlayerRank(Board.SHORT, rank)
