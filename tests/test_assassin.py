"""The Assassin (R40-R44), its points (R27) and jeopardy (R29), and undo around a search (R10)."""

from __future__ import annotations

import pytest
from positions import C, O, at, hidden, refused, sq, with_assassins

from rules.tora import Game, IllegalAction, Options, jeopardy
from rules.tora.record import write_record

LONG_ASSASSINS = Options(board="long", assassins=True)


def pieces_seen(game: Game, viewer) -> set[tuple[str, str, str]]:
    from rules.tora.geometry import name

    return {(p.side.letter, p.letter, name(p.sq)) for p in game.view_for(viewer).pieces}


def assassin_of(game: Game, side):
    return next(p for p in game.pos.pieces.values() if p.kind == "X" and p.side == side)


# ---- R40 hidden ---------------------------------------------------------------------------
def test_r40_the_hidden_assassin_is_only_in_its_owners_view():
    g = with_assassins(hidden(C, "v9h12"))
    assert ("C", "X", "v9h12") in pieces_seen(g, C)
    assert ("C", "X", "v9h12") not in pieces_seen(g, O)
    assert ("C", "X", "v9h12") not in pieces_seen(g, None)
    assert at(g, "v9h12") is None  # not on the public board


def test_r40_it_moves_through_pieces_and_shares_a_square():
    g = with_assassins(hidden(C, "v9h12"), (O, "A", "v9h11"), (C, "S", "v9h10"), (O, "S", "v9h9"))
    event = g.apply("X v9h12-v9h9")  # through an enemy and a friend, onto an enemy
    assert event.hidden and event.removed == ()
    assert assassin_of(g, C).sq == sq(g, "v9h9")
    assert at(g, "v9h9").kind == "S"  # the Soldier is untouched and still there


def test_r40_enemies_move_onto_and_through_its_square_as_if_empty():
    g = with_assassins(hidden(C, "v9h12"), (O, "G", "v9h14"), side=O)
    g.apply("G v9h14-v9h12")
    assert at(g, "v9h12").kind == "G"
    assert assassin_of(g, C).sq == sq(g, "v9h12")  # both share the square now


def test_r40_a_cannon_shot_neither_stops_at_nor_hurts_it():
    g = with_assassins(
        hidden(O, "v9h10"),
        (C, "C", "v9h12"),
        (C, "S", "v8h12"),
        (C, "S", "v10h12"),
        (O, "A", "v9h8"),
    )
    event = g.apply("C v9h12 fire W")
    assert event.removed == ((O, "A", sq(g, "v9h8")),)
    assert assassin_of(g, O).hidden


# ---- R41 start ----------------------------------------------------------------------------
def test_r41_it_starts_on_an_empty_square_of_the_home_edge():
    g = Game(LONG_ASSASSINS, assassin_starts=("v1h17", "v17h1"))
    assert assassin_of(g, C).sq == sq(g, "v1h17") and assassin_of(g, C).hidden
    assert assassin_of(g, O).sq == sq(g, "v17h1")


@pytest.mark.parametrize(
    ("starts", "wrong"),
    [(("v1h16", None), "v1h16"), ((None, "v1h17"), "v1h17"), (("v9h17", None), "v9h17")],
)
def test_r41_other_squares_are_refused_naming_the_allowed_ones(starts, wrong):
    with pytest.raises(IllegalAction) as info:
        Game(LONG_ASSASSINS, assassin_starts=starts)
    assert info.value.rule == "R41" and wrong in info.value.reason
    assert "v1h" in info.value.allowed[0]


def test_r41_each_player_may_decline_and_without_the_option_none_may_field_one():
    g = Game(LONG_ASSASSINS, assassin_starts=(None, "v17h1"))
    assert [p.side for p in g.pos.pieces.values() if p.kind == "X"] == [O]
    with pytest.raises(IllegalAction) as info:
        Game(Options(board="long"), assassin_starts=("v1h17", None))
    assert info.value.rule == "R41"


# ---- R42 abilities ------------------------------------------------------------------------
def test_r42_it_moves_up_to_three_and_terrain_applies():
    g = with_assassins(hidden(C, "v9h12"))
    g.apply("X v9h12-v9h9")
    g.undo()
    refused(g, "X v9h12-v9h8", "R42")
    wet = with_assassins(hidden(C, "v9h12"), terrain_map="water v9h11")
    refused(wet, "X v9h12-v9h9 via v9h11 v9h10", "R42")  # entering water: reach 2 (R31)
    wet.apply("X v9h12-v9h10 via v9h11")


def test_r42_an_attack_is_announced_without_the_position():
    g = with_assassins(hidden(C, "v9h12"), (O, "A", "v10h10"))
    event = g.apply("X v9h12-v9h11 x v10h10")
    assert at(g, "v10h10") is None
    public = event.public()
    assert public.text == "X ? x v10h10"
    assert (public.origin, public.rest, public.path) == (0, 0, ())
    assert public.removed == ((O, "A", sq(g, "v10h10")),)
    assert assassin_of(g, C).hidden
    g.end_turn()
    assert g.view_for(O).last_turn[0].text == "X ? x v10h10"
    assert write_record(g, audience=None).splitlines()[-1] == "C: X ? x v10h10"
    assert write_record(g).splitlines()[-1] == "C: X v9h12-v9h11 x v10h10"


def test_r42_it_may_attack_a_piece_on_its_own_square():
    g = with_assassins(hidden(C, "v9h12"), (O, "S", "v9h12"))
    g.apply("X v9h12 x v9h12")
    assert at(g, "v9h12") is None


def test_r42_killing_a_command_piece_reveals_its_position():
    g = with_assassins(hidden(C, "v9h12"), (O, "G", "v9h10"))
    event = g.apply("X v9h12-v9h11 x v9h10")
    assert not event.hidden and event.revealed == sq(g, "v9h11")
    assert at(g, "v9h10").doomed
    assert at(g, "v9h11").kind == "X"  # on the public board from now on (R44)
    assert event.public().text == "X v9h12-v9h11 x v9h10"


def test_r42_after_a_kill_it_skips_its_owners_next_turn():
    g = with_assassins(hidden(C, "v9h12"), (O, "S", "v9h10"), (O, "S", "v9h8"), (C, "G", "v3h15"))
    g.apply("X v9h12-v9h11 x v9h10")
    refused(g, "X v9h11-v9h9", "R42")  # not again this turn
    g.end_turn()
    g.end_turn()  # the Opposition passes
    assert not [a for a in g.legal_actions() if a.letter == "X"]  # round 2: stunned
    assert next(p for p in g.view_for(C).pieces if p.kind == "X").stunned
    g.end_turn()
    g.end_turn()
    g.apply("X v9h11-v9h9 x v9h8")  # round 3: free again


# ---- R43 search ---------------------------------------------------------------------------
def test_r43_a_search_that_finds_nothing_ends_that_pieces_turn():
    g = with_assassins(hidden(O, "v9h5"), (C, "G", "v9h12"), (C, "G", "v5h15"))
    event = g.apply("G v9h12 search")
    assert event.note == "no Assassin found" and event.revealed == 0
    assert sq(g, "v10h13") in event.searched and len(event.searched) == 9
    # regression: refused citing R19 (a Cannon's supporters), as the searcher was kept there
    message = refused(g, "G v9h12-v9h11", "R43")
    assert "searched this turn and found nothing" in message
    assert event.public() == event


def test_r43_a_found_assassin_is_revealed_and_may_be_taken_as_a_free_action():
    g = with_assassins(hidden(O, "v9h11"), (C, "G", "v9h12"))
    g.apply("G v1h17-v1h16")
    event = g.apply("G v9h12 search")
    assert event.revealed == sq(g, "v9h11") and at(g, "v9h11").kind == "X"
    assert g.actions_left == 0
    take = g.apply("G v9h12 x v9h11")  # free: no action was left for it
    assert take.removed == ((O, "X", sq(g, "v9h11")),)
    assert take.words(("ann", "bob")) == (
        "ann's General on v9h12 takes bob's Assassin on v9h11 "
        "(the free take of the Assassin the search revealed)"
    )
    g.end_turn()
    assert g.scores() == (0, 0) and g.pending() == (5, 0)  # booked at the round's end (R27)


def test_r43_the_free_take_comes_right_after_the_search_or_not_at_all():
    g = with_assassins(hidden(O, "v9h11"), (C, "G", "v9h12"))
    g.apply("G v9h12 search")
    g.apply("G v1h17-v1h16")
    refused(g, "G v9h12 x v9h11", "R8")  # no action left, and the free take is gone


def test_r43_an_assassin_on_an_enemy_square_is_taken_at_once():
    g = with_assassins(hidden(O, "v9h11"), (C, "A", "v9h11"), (C, "G", "v9h13"))
    event = g.apply("A v9h11 search")
    assert event.revealed == sq(g, "v9h11") and (O, "X", sq(g, "v9h11")) in event.removed
    assert at(g, "v9h11").kind == "A"
    assert g.pending() == (5, 0)


def test_r43_with_a_friend_on_its_square_both_go_and_only_the_assassin_scores():
    g = with_assassins(hidden(O, "v9h11"), (O, "A", "v9h11"), (C, "S", "v9h12"))
    event = g.apply("S v9h12 search")
    assert at(g, "v9h11") is None
    assert set(event.removed) == {(O, "X", sq(g, "v9h11")), (O, "A", sq(g, "v9h11"))}
    assert g.pending() == (5, 0)  # the Archer scores nothing
    assert "both are removed" in event.note


def test_r43_a_command_piece_in_jeopardy_after_its_move_may_not_search():
    def game(with_assassin: bool) -> Game:
        pieces = [(C, "G", "v9h14"), (O, "A", "v9h10")]
        if with_assassin:
            pieces.append(hidden(O, "v9h13"))
        return with_assassins(*pieces)

    messages = []
    for with_assassin in (True, False):
        g = game(with_assassin)
        messages.append(refused(g, "G v9h14-v9h12 search", "R43"))
        assert all(not p.hidden for p in g.pos.pieces.values() if p.kind != "X")
        if with_assassin:
            assert assassin_of(g, O).hidden  # nothing was revealed
    assert messages[0] == messages[1]
    game(True).apply("G v9h14 search")  # out of jeopardy where it stands: allowed


def test_r43_a_search_at_the_oppositions_turn_end_is_judged_against_the_general_crowned_then():
    """Regression: the search check judged the Challenger's next turn without the round end's
    crowning (R24): with its King doomed this turn, its General on v9h12 was taken for a
    General (2 actions: reach 5), not the Ruler it is crowned as first (reach 8), so the
    Opposition's General 6 squares away might search from within that reach."""
    g = with_assassins(
        (C, "R", "v17h17"),
        (C, "G", "v9h12"),
        (O, "R", "v1h1"),
        (O, "G", "v9h6"),
        (O, "A", "v16h15"),
        hidden(C, "v10h6"),
        side=O,
    )
    g.apply("A v16h15 x v17h17")  # dooms the Challenger's King: a crown is due at round end
    refused(g, "G v9h6 search", "R43")
    assert assassin_of(g, C).hidden  # nothing was revealed


def test_r43_a_search_may_follow_a_move_and_a_cannon_takes_only_ready_and_supported():
    g = with_assassins(hidden(O, "v9h8"), (C, "A", "v9h11"), (C, "G", "v3h15"))
    event = g.apply("A v9h11-v9h9 search")
    assert event.revealed == sq(g, "v9h8") and event.rest == sq(g, "v9h9")

    g = with_assassins(
        hidden(O, "v9h10"),
        (C, "C", "v9h11"),
        (C, "S", "v8h11"),
        (C, "S", "v10h11"),
        (C, "G", "v3h15"),
    )
    g.apply("C v9h11 search")
    g.apply("C v9h11 fire W")
    assert at(g, "v9h10") is None and g.actions_left == 1  # the free take cost nothing

    g = with_assassins(hidden(O, "v9h10"), (C, "C", "v9h11", {"ready": False}), (C, "G", "v3h15"))
    g.apply("C v9h11 search")
    assert not [a for a in g.legal_actions() if a.letter == "C" and a.kind == "fire"]


def test_r43_searching_belongs_to_the_assassin_rules():
    g = Game(board="long")
    with pytest.raises(IllegalAction) as info:
        g.apply("H v2h13 search")
    assert info.value.rule == "R43"


# ---- R10 undo and the search --------------------------------------------------------------
def test_r10_undo_never_crosses_a_search():
    g = with_assassins(hidden(O, "v3h3"), (C, "G", "v9h12"), (C, "G", "v3h15"), (C, "A", "v5h12"))
    g.apply("A v5h12-v5h11")
    g.apply("G v9h12 search")
    with pytest.raises(IllegalAction) as info:
        g.undo()
    assert info.value.rule == "R10" and "search" in info.value.reason
    with pytest.raises(IllegalAction):
        g.take_back(0)
    g.apply("G v3h15-v3h14")
    assert g.undo() == "G v3h15-v3h14"  # what came after it may still be undone


def test_r10_a_search_is_refused_while_the_turn_could_not_end():
    g = with_assassins((C, "G", "v9h14"), (O, "A", "v9h10"), (C, "A", "v3h14"))
    g.apply("G v9h14-v9h12")  # into jeopardy: the turn could not end (R30)
    refused(g, "A v3h14 search", "R10")
    g.undo()
    g.apply("A v3h14 search")


def waived_by_a_search() -> Game:
    """The Challenger's General moves next to the Opposition's hidden Assassin, which its
    Archer's search then reveals: in jeopardy from it, the General may end the turn there,
    as the search cannot be undone (R10). The Archer then takes the Assassin for free."""
    g = with_assassins(
        (C, "G", "v2h17"),
        (C, "G", "v9h13"),
        (C, "A", "v10h12"),
        (O, "A", "v10h8"),
        hidden(O, "v9h11"),
    )
    g.apply("G v9h13-v9h12")
    g.apply("A v10h12 search")  # reveals the Assassin on v9h11, next to the General
    return g


def test_r30_a_piece_waived_by_a_search_may_not_then_move_into_jeopardy():
    """Regression: a search's waiver covered the pieces it put in jeopardy for the rest of the
    turn, so the General could move on into a fresh jeopardy (2 from an enemy Archer) and end
    the turn; the waiver holds only while the piece is not operated again."""
    g = waived_by_a_search()
    g.apply("A v10h12 x v9h11")  # the free take
    g.apply("G v9h12-v10h10")  # now 2 from the Archer on v10h8
    assert jeopardy.in_jeopardy(jeopardy.next_turn(g.pos), sq(g, "v10h10"))
    with pytest.raises(IllegalAction) as refused_end:
        g.end_turn()
    assert refused_end.value.rule == "R30" and "G v10h10" in refused_end.value.reason
    g.undo()  # back where the search left it: waived again
    g.end_turn()


def test_r30_a_piece_in_jeopardy_by_a_search_may_end_the_turn_where_the_search_left_it():
    g = waived_by_a_search()
    g.apply("G v2h17-v2h16")  # another piece may still act
    g.end_turn()
    assert g.side == O


# ---- R44 revealed -------------------------------------------------------------------------
def test_r44_a_revealed_assassin_is_a_standard_piece_for_good():
    g = with_assassins(hidden(O, "v9h11"), (C, "G", "v9h13"), (C, "S", "v9h9"))
    g.apply("G v9h13-v9h12 search")
    g.end_turn()
    assert ("O", "X", "v9h11") in pieces_seen(g, None)
    refused(g, "X v9h11-v9h8 via v9h10 v9h9", "R23")  # no more passing through pieces
    g.apply("X v9h11-v9h10 x v9h9")
    assert at(g, "v9h9") is None


def test_r44_its_record_is_published_when_revealed_taken_or_at_game_end():
    g = with_assassins(hidden(O, "v9h5"), (C, "G", "v9h13"), side=O)
    g.apply("X v9h5-v9h8")
    g.end_turn()
    assert g.view_for(C).published == ()
    assert g.view_for(O).private_record == ("start v9h5", "round 1: X v9h5-v9h8")
    g.apply("G v9h13-v9h11 search")  # two squares short of it
    g.end_turn()
    g.apply("X v9h8-v9h10")
    g.end_turn()
    assert write_record(g, audience=None).splitlines()[-1] == "O: X ?"
    g.apply("G v9h11 search")
    assert g.view_for(O).published == ()  # the Opposition learns it when the turn ends
    g.end_turn()
    published = dict(g.view_for(None).published)
    assert published[O] == ("start v9h5", "round 1: X v9h5-v9h8", "round 2: X v9h8-v9h10")
    public = write_record(g, audience=None)
    assert "O: X v9h5-v9h8" in public and "X ?" not in public
    assert '[OppositionAssassin "v9h5"]' in public


def test_r44_the_public_record_of_a_finished_game_equals_the_full_one():
    g = with_assassins(hidden(O, "v9h5"), hidden(C, "v9h15"), (C, "G", "v3h13"), side=O)
    g.apply("X v9h5-v9h8")
    g.end_turn()
    g.apply("X v9h15-v9h14")
    g.end_turn()
    assert "X ?" in write_record(g, audience=None)
    assert "O: X v9h5-v9h8" in write_record(g, audience=O)
    assert "C: X ?" in write_record(g, audience=O)
    g.resign(O)
    assert write_record(g, audience=None) == write_record(g) == write_record(g, audience=C)


# ---- R27 points and R29 jeopardy with the Assassin rules ----------------------------------
def test_r27_points_use_the_assassin_table():
    g = with_assassins((C, "A", "v9h12"), (O, "C", "v9h11"), (O, "G", "v10h11"), (C, "G", "v3h3"))
    g.apply("A v9h12 x v9h11")
    g.apply("G v3h3 search")
    g.end_turn()
    g.end_turn()
    assert g.scores() == (2, 0)  # a Cannon is worth 2 with the Assassin rules
    assert g.pos.values["G"] == 7 and g.pos.values["X"] == 5


def test_r29_a_hidden_assassin_creates_no_jeopardy_a_revealed_one_does():
    g = with_assassins(hidden(O, "v9h10"), (C, "G", "v9h13"))
    g.apply("G v9h13-v9h11")  # right next to the hidden Assassin
    g.end_turn()  # allowed: hidden Assassins put nothing in jeopardy (R30)

    g = with_assassins((O, "X", "v9h10"), (C, "G", "v9h13"))
    g.apply("G v9h13-v9h11")
    with pytest.raises(IllegalAction) as info:
        g.end_turn()
    assert info.value.rule == "R30"
