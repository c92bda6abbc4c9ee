"""Standings and tiebreaks: Buchholz (cut 1), Sonneborn-Berger, direct encounter and wins,
checked by hand on small events, in the organiser's order."""

from __future__ import annotations

from fractions import Fraction

import pytest
from tournament_helpers import played

from bot.tournament.records import Colour, Outcome, PointsTable, RoundRecord, half_points
from bot.tournament.tiebreaks import Tiebreak, fraction_text, parse_order, standings

ALL = (
    Tiebreak.BUCHHOLZ,
    Tiebreak.BUCHHOLZ_CUT1,
    Tiebreak.SONNEBORN_BERGER,
    Tiebreak.DIRECT_ENCOUNTER,
    Tiebreak.WINS,
)


def four_player_round_robin() -> dict:
    history: dict = {}
    played(history, 1, 4, Outcome.WIN)
    played(history, 2, 3, Outcome.DRAW)
    played(history, 4, 3, Outcome.LOSS)
    played(history, 1, 2, Outcome.LOSS)
    played(history, 2, 4, Outcome.WIN)
    played(history, 3, 1, Outcome.DRAW)
    return history


def test_every_tiebreak_of_a_hand_checked_round_robin() -> None:
    lines = standings([1, 2, 3, 4], four_player_round_robin(), ALL)
    got = {s.player_id: (s.rank, half_points(s.score), s.tiebreaks) for s in lines}
    # scores 1: 1½, 2: 2½, 3: 2, 4: 0; nobody tied, so direct encounter separates nobody
    assert got == {
        2: (1, "2½", (Fraction(7, 2), Fraction(7, 2), Fraction(5, 2), Fraction(0), Fraction(2))),
        3: (2, "2", (Fraction(4), Fraction(4), Fraction(2), Fraction(0), Fraction(1))),
        1: (3, "1½", (Fraction(9, 2), Fraction(9, 2), Fraction(1), Fraction(0), Fraction(1))),
        4: (4, "0", (Fraction(6), Fraction(9, 2), Fraction(0), Fraction(0), Fraction(0))),
    }
    assert [s.player_id for s in lines] == [2, 3, 1, 4]


def test_unplayed_rounds_count_against_a_virtual_opponent_of_ones_own_score() -> None:
    first, second = Colour.FIRST, Colour.SECOND
    history = {
        1: [RoundRecord(Outcome.BYE), RoundRecord(Outcome.WIN, 2, first)],
        2: [RoundRecord(Outcome.WIN, 3, first), RoundRecord(Outcome.LOSS, 1, second)],
        3: [RoundRecord(Outcome.LOSS, 2, second), RoundRecord(Outcome.BYE)],
    }
    # 1: own 2 + 2's 1 = 3 (cut: 2); 2: 3's 1 + 1's 2 = 3 (cut: 2); 3: 2's 1 + own 1 = 2
    lines = standings([1, 2, 3], history, (Tiebreak.BUCHHOLZ, Tiebreak.BUCHHOLZ_CUT1))
    got = {s.player_id: (s.score, s.tiebreaks) for s in lines}
    assert got == {
        1: (4, (Fraction(3), Fraction(2))),
        2: (2, (Fraction(3), Fraction(2))),
        3: (2, (Fraction(2), Fraction(1))),
    }


def test_direct_encounter_orders_players_tied_on_what_comes_before_it() -> None:
    history: dict = {}
    played(history, 5, 6, Outcome.LOSS)  # 6 beat 5
    played(history, 7, 8, Outcome.WIN)
    played(history, 5, 8, Outcome.WIN)
    played(history, 6, 7, Outcome.LOSS)
    # 5, 6 and 7 all have 1 point... 7 has 2: 7 first; 5 and 6 are tied, 6 won their game
    lines = standings([5, 6, 7, 8], history, (Tiebreak.DIRECT_ENCOUNTER,))
    assert [(s.player_id, s.rank) for s in lines] == [(7, 1), (6, 2), (5, 3), (8, 4)]
    # first by wins (equal), then direct encounter: the same order
    lines = standings([5, 6, 7, 8], history, (Tiebreak.WINS, Tiebreak.DIRECT_ENCOUNTER))
    assert [s.player_id for s in lines] == [7, 6, 5, 8]


def test_direct_encounter_separates_nobody_until_all_the_tied_have_met() -> None:
    history: dict = {}
    played(history, 1, 2, Outcome.WIN)
    played(history, 3, 4, Outcome.WIN)
    lines = standings([1, 2, 3, 4], history, (Tiebreak.DIRECT_ENCOUNTER,))
    # 1 and 3 are tied and never met; so are 2 and 4: shared ranks
    assert [(s.player_id, s.rank) for s in lines] == [(1, 1), (3, 1), (2, 3), (4, 3)]


def test_the_organisers_order_decides() -> None:
    history = four_player_round_robin()
    history[1].append(RoundRecord(Outcome.BYE))
    history[3].append(RoundRecord(Outcome.FORFEIT_WIN, 4, Colour.FIRST))
    history[4].append(RoundRecord(Outcome.FORFEIT_LOSS, 3, Colour.SECOND))
    table = PointsTable(bye=1)
    lines = standings([1, 2, 3, 4], history, (Tiebreak.WINS,), table)
    # 3 has 3 points (forfeit win counts), 1 has 2, 2 has 2½
    assert [(s.player_id, half_points(s.score)) for s in lines] == [
        (3, "3"),
        (2, "2½"),
        (1, "2"),
        (4, "0"),
    ]
    assert lines[0].tiebreaks == (Fraction(2),)


def test_an_order_is_parsed_by_name_and_refused_specifically() -> None:
    assert parse_order("buchholz-cut1, Wins") == (Tiebreak.BUCHHOLZ_CUT1, Tiebreak.WINS)
    assert parse_order("") == ()
    with pytest.raises(ValueError, match=r"unknown tiebreak 'median'.*allowed: buchholz"):
        parse_order("median")
    with pytest.raises(ValueError, match="at most once"):
        parse_order("wins,wins")
    with pytest.raises(ValueError, match="at most 5"):
        parse_order(",".join(["wins"] * 50))


def test_values_read_as_players_write_them() -> None:
    assert [fraction_text(Fraction(x, 4)) for x in (8, 10, 1, 5)] == ["2", "2½", "0.25", "1.25"]
    assert [half_points(x) for x in (0, 1, 7)] == ["0", "½", "3½"]
