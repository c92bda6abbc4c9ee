"""Pairing tiers (equal ranks together, a substitute for an odd one out), reading captures
off finished games, and how a match with tied Game Points is decided."""

from __future__ import annotations

import pytest
from tournament_helpers import MASSACRE, short

from bot.tournament import Captures, Seat
from bot.tournament.captures import game_result, scored_by
from bot.tournament.champions import Standing
from bot.tournament.pairing import Entrant, NoSubstitute, pair_tier
from bot.tournament.progress import RECORD, TIE_BREAKER, decide, encode, match_state
from rules.tora import Game, Options, Side
from storage.competitions.tournaments import GameRow, MatchRow


def pairs(players: list[tuple[int, int]], subs: list[tuple[int, int]] = ()) -> list[tuple]:
    result = pair_tier([Entrant(*p) for p in players], [Entrant(*s) for s in subs])
    return [(p.first.player_id, p.second.player_id, p.substitute) for p in result]


def test_equal_ranks_are_paired_strongest_first() -> None:
    players = [(1, 2), (2, 5), (3, 2), (4, 5), (5, 3), (6, 3)]
    assert pairs(players) == [(2, 4, False), (5, 6, False), (1, 3, False)]


def test_an_odd_tier_leaves_out_whoever_costs_least_and_gets_the_closest_substitute() -> None:
    players = [(1, 4), (2, 4), (3, 2), (4, 2), (5, 1)]
    subs = [(9, 5), (8, 1), (7, 2)]
    assert pairs(players, subs) == [(1, 2, False), (3, 4, False), (5, 8, True)]
    # among equals the lowest seed is left over
    assert pairs([(1, 3), (2, 3), (3, 3)], [(9, 3)]) == [(1, 2, False), (3, 9, True)]
    with pytest.raises(NoSubstitute):
        pairs([(1, 3), (2, 3), (3, 3)])


def test_captures_are_read_off_the_final_position_and_match_the_score() -> None:
    game = Game(Options(board="short"))
    for line in MASSACRE:
        for action in line.split(" ; "):
            game.apply(action)
        game.end_turn()
        if not game.is_over():
            game.end_turn()
    assert scored_by(game) == {Side.CHALLENGER: short(16), Side.OPPOSITION: Captures()}
    result = game_result(game, Seat.SECOND)  # the second seat was the Challenger
    assert result.captures == (Captures(), short(16)) and result.winner is Seat.SECOND


def test_a_doomed_general_is_scored_when_the_game_ends_before_the_round() -> None:
    game = Game(Options(board="short"))
    for line in MASSACRE[:-1]:
        for action in line.split(" ; "):
            game.apply(action)
        game.end_turn()
        game.end_turn()
    for action in MASSACRE[-1].split(" ; "):
        game.apply(action)
    game.end_turn()  # the Opposition's General is doomed, the round not over
    game.resign(Side.OPPOSITION)
    assert scored_by(game)[Side.CHALLENGER] == short(16)


def match_row(substitute: bool = False) -> MatchRow:
    return MatchRow(1, 1, 1, 10, 20, 2, 2, substitute, 500, None, None, None, None, None)


def game_row(number: int, first: int, second: int, winner: int | None) -> GameRow:
    return GameRow(number, 1, number, number, "scored", "finished", winner,
                   encode(short(first)), encode(short(second)))  # fmt: skip


def test_tied_game_points_go_to_the_record_in_the_final_then_to_tie_breakers() -> None:
    even = [game_row(1, 8, 0, 0), game_row(2, 0, 8, 1), game_row(3, 3, 0, 0), game_row(4, 0, 3, 1)]
    state = match_state(match_row(), even, "short", 49)
    assert state.match.finished and state.match.winner is None
    better = (Standing(10, 40, 1, 0), Standing(20, 40, 2, 0))
    assert decide(state, better) is None  # equal records (all won): a tie-breaker game
    uneven = (Standing(10, 44, 1, 0), Standing(20, 40, 1, 0))
    decision = decide(state, uneven)
    assert (decision.winner, decision.how) == (Seat.FIRST, RECORD)
    assert state.next_number == 5
    tied_again = match_state(match_row(), [*even, game_row(5, 1, 1, None)], "short", 49)
    assert decide(tied_again, None) is None  # equal points: another tie-breaker
    won = match_state(
        match_row(), [*even, game_row(5, 1, 1, None), game_row(6, 0, 2, 1)], "short", 49
    )
    decision = decide(won, None)
    assert (decision.winner, decision.how) == (Seat.SECOND, TIE_BREAKER)
