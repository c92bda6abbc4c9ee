"""Pieces (R13-R23) and terrain (R31-R33): what a player sees the engine allow and refuse."""

import pytest
from positions import C, O, position, refused
from positions import occupant as at

from rules.registry import game_type
from rules.tora import AmbiguousAction, Game, Piece
from rules.tora.geometry import parse_square

DEFENDING = {"defending": True}


def long_position(*pieces, ruler="v17h17", **kwargs):
    """Long board with the Challenger's Ruler on ``ruler`` (two actions a turn with the
    corner General)."""
    return position((C, "R", ruler), *pieces, board="long", **kwargs)


def piece(g, sq):
    return g.pos.at(parse_square(sq, g.pos.size))


# ---- R13 General --------------------------------------------------------------------------
def test_r13_general_moves_two_then_attacks_one_space_away():
    g = position((C, "G", "v5h5"), (O, "A", "v5h8"))
    g.apply("G v5h5-v5h7 x v5h8")
    assert at(g, "v5h7") == ("C", "G") and at(g, "v5h8") is None
    assert g.pending() == (1, 0)


def test_r13_general_attacks_again_with_another_action():
    g = position((C, "G", "v5h5"), (O, "A", "v5h7"), (O, "S", "v4h8"))
    g.apply("G v5h5-v5h6 x v5h7")
    g.apply("G v5h6-v4h7 x v4h8")
    assert at(g, "v5h7") is None and at(g, "v4h8") is None
    assert g.pending() == (2, 0)


def test_r13_general_attacks_only_one_space_away():
    g = position((C, "G", "v5h5"), (O, "A", "v5h7"))
    message = refused(g, "G v5h5 x v5h7", "R13")
    assert "2 away" in message and "up to 1" in message
    assert at(g, "v5h7") == ("O", "A")


def test_r13_general_moves_at_most_two():
    g = position((C, "G", "v5h5"))
    message = refused(g, "G v5h5-v5h8", "R13")
    assert "3 steps" in message and "at most 2" in message


@pytest.mark.parametrize("strategy", ["aggressive", "defensive"])
def test_r13_a_general_sent_three_squares_through_pieces_is_refused_for_its_reach(strategy):
    """A General moves at most 2, whether or not pieces stand on the way. Regression: from the
    start, `G v5h9-v5h6` (past its own Soldier and Cannon) was refused with "the path is
    blocked at v4h8; only Cavalry jump (R23)", as if the move worked once v4h8 was clear."""
    game = game_type("tora").new_game({}, ({"strategy": strategy}, {"strategy": strategy}))
    message = refused(game, "G v5h9-v5h6", "R13")
    assert "3 steps" in message and "at most 2" in message


def test_r13_landing_on_an_enemy_attacks_it():
    g = position((C, "G", "v5h5"), (O, "A", "v5h7"))
    event = g.apply("G v5h5-v5h7")
    assert at(g, "v5h7") == ("C", "G") and at(g, "v5h5") is None
    assert event.removed == ((O, "A", parse_square("v5h7", 9)),)


def test_r13_one_attack_per_action():
    g = position((C, "G", "v5h5"), (O, "A", "v5h6"), (O, "A", "v5h7"))
    message = refused(g, "G v5h5-v5h6 x v5h7", "R23")
    assert "cannot attack again in that action" in message


def test_r13_landing_on_a_general_strikes_from_the_square_before_it():
    g = position((C, "G", "v5h5"), (O, "G", "v5h7"), (O, "A", "v9h1"), generals=False)
    with pytest.raises(AmbiguousAction) as info:
        g.parse_action("G v5h5-v5h7")  # several squares it could strike from
    assert "G v5h5-v5h6 x v5h7" in info.value.candidates
    event = g.apply("G v5h5-v5h7 via v5h6")
    assert event.text == "G v5h5-v5h6 x v5h7"
    assert at(g, "v5h6") == ("C", "G") and piece(g, "v5h7").doomed


# ---- R14 Ruler ----------------------------------------------------------------------------
def test_r14_ruler_moves_three_then_attacks_two_away():
    g = long_position((O, "A", "v9h4"), ruler="v9h9")
    g.apply("K v9h9-v9h6 x v9h4")
    assert at(g, "v9h6") == ("C", "R") and at(g, "v9h4") is None


def test_r14_ruler_reach_limits():
    g = long_position((O, "A", "v9h6"), ruler="v9h9")
    message = refused(g, "K v9h9 x v9h6", "R14")
    assert "3 away" in message and "up to 2" in message
    message = refused(g, "K v9h9-v9h13", "R14")
    assert "4 steps" in message and "at most 3" in message


def test_r14_ruler_attacks_once_per_turn():
    g = long_position((O, "A", "v9h7"), (O, "A", "v9h11"), (O, "A", "v9h10"), ruler="v9h9")
    assert g.actions_left == 2
    g.apply("K v9h9 x v9h7")
    message = refused(g, "K v9h9 x v9h11", "R14")
    assert "already attacked this turn" in message
    refused(g, "K v9h9-v9h10", "R14")  # landing is an attack too
    g.apply("K v9h9-v10h8")  # moving is still allowed
    assert at(g, "v9h11") == ("O", "A") and at(g, "v9h10") == ("O", "A")
    assert g.pending() == (1, 0)


# ---- R15 Archer ---------------------------------------------------------------------------
def archer_game():
    return position((C, "A", "v5h5"), (O, "A", "v5h3"), (O, "A", "v7h5"), (O, "S", "v3h4"))


def test_r15_archer_stays_and_shoots_two_away():
    g = archer_game()
    event = g.apply("A v5h5 x v5h3")
    assert at(g, "v5h5") == ("C", "A") and at(g, "v5h3") is None
    assert event.shots == ((parse_square("v5h5", 9), parse_square("v5h3", 9)),)


def test_r15_archer_cannot_shoot_three_away():
    g = position((C, "A", "v5h5"), (O, "A", "v5h2"))
    message = refused(g, "A v5h5 x v5h2", "R15")
    assert "3 away" in message


def test_r15_archer_moves_two_without_attacking():
    g = archer_game()
    g.apply("A v5h5-v5h7")
    assert at(g, "v5h7") == ("C", "A")


def test_r15_archer_that_moves_two_cannot_attack():
    g = archer_game()
    message = refused(g, "A v5h5-v5h7 x v6h8", "R15")
    assert "moves 2 cannot attack" in message


def test_r15_archer_cannot_move_two_onto_an_enemy():
    g = archer_game()
    refused(g, "A v5h5-v7h5", "R15")
    assert at(g, "v7h5") == ("O", "A") and at(g, "v5h5") == ("C", "A")


def test_r15_archer_moving_two_onto_an_enemy_is_told_why():
    g = archer_game()
    message = refused(g, "A v5h5-v7h5", "R15")
    assert "water" not in message and "enemy" in message


def test_r15_archer_moves_one_onto_an_enemy_to_attack_it():
    g = archer_game()
    g.apply("A v5h5-v4h4")
    g.apply("A v4h4-v3h4")  # one step onto the Soldier
    assert at(g, "v3h4") == ("C", "A") and at(g, "v4h4") is None
    assert g.pending() == (1, 0)


def test_r15_archer_moves_one_then_attacks_one_away():
    g = archer_game()
    g.apply("A v5h5-v4h4 x v3h4")
    assert at(g, "v4h4") == ("C", "A") and at(g, "v3h4") is None
    assert g.pending() == (1, 0)


def test_r15_archer_that_moves_one_attacks_only_one_away():
    g = archer_game()
    message = refused(g, "A v5h5-v5h4 x v7h5", "R15")
    assert "2 away" in message and "up to 1" in message


def test_r15_archer_attacks_once_per_turn():
    g = position((C, "A", "v5h5"), (O, "A", "v5h3"), (O, "A", "v6h5"), (O, "A", "v7h5"))
    g.apply("A v5h5 x v5h3")
    message = refused(g, "A v5h5 x v7h5", "R15")
    assert "already attacked this turn" in message
    refused(g, "A v5h5-v6h5", "R15")  # landing is an attack too
    g.apply("A v5h5-v5h7")  # it may still move
    assert g.pending() == (1, 0) and at(g, "v6h5") == ("O", "A")


def test_r15_archer_path_never_goes_through_pieces():
    g = position((C, "A", "v5h5"), (C, "S", "v5h4"), (C, "S", "v4h4"), (C, "S", "v6h4"))
    message = refused(g, "A v5h5-v5h3 via v5h4", "R23")
    assert "blocked at v5h4" in message


# ---- R16 Soldier --------------------------------------------------------------------------
def test_r16_soldiers_start_attacking_and_cannons_ready():
    g = Game()
    assert all(not p.defending for p in g.pieces() if p.kind == "S")
    assert all(p.ready for p in g.pieces() if p.kind == "C")


def test_r16_switching_stance_is_an_action_and_a_defender_cannot_move():
    g = position((C, "S", "v5h5"))
    g.apply("S v5h5 defend")
    assert piece(g, "v5h5").defending and g.actions_left == 1
    message = refused(g, "S v5h5-v5h6", "R16")
    assert "defending and cannot move" in message and "S v5h5 attack" in message
    message = refused(g, "S v5h5 defend", "R16")
    assert "already in defend stance" in message


def test_r16_soldier_switches_back_then_moves():
    g = position((C, "S", "v5h5", DEFENDING), (O, "A", "v5h4"))
    g.apply("S v5h5 attack")
    g.apply("S v5h5-v5h4")
    assert at(g, "v5h4") == ("C", "S") and g.pending() == (1, 0)


def test_r16_soldier_moves_one_and_attacks_only_by_landing():
    g = position((C, "S", "v5h5"), (O, "A", "v5h4"), (O, "A", "v5h3"))
    message = refused(g, "S v5h5 x v5h4", "R16")
    assert "only by landing" in message
    message = refused(g, "S v5h5-v5h3", "R16")
    assert "at most 1" in message
    g.apply("S v5h5-v5h4")
    assert at(g, "v5h4") == ("C", "S") and at(g, "v5h5") is None


# ---- R17 Defending Soldier blocks ---------------------------------------------------------
def test_r17_defending_soldier_dies_instead_of_the_target_diagonal():
    g = position((C, "A", "v5h5"), (O, "S", "v6h6", DEFENDING), (O, "A", "v7h7"))
    event = g.apply("A v5h5 x v7h7")
    assert at(g, "v6h6") is None and at(g, "v7h7") == ("O", "A")
    assert event.removed == ((O, "S", parse_square("v6h6", 9)),)
    assert g.pending() == (1, 0)


def test_r17_defending_soldier_dies_instead_of_the_target_straight():
    g = position((C, "A", "v5h5"), (O, "S", "v5h4", DEFENDING), (O, "A", "v5h3"))
    g.apply("A v5h5 x v5h3")
    assert at(g, "v5h4") is None and at(g, "v5h3") == ("O", "A")


def test_r17_defending_soldier_blocks_towards_v1_too():
    g = position((C, "A", "v5h5"), (O, "S", "v4h4", DEFENDING), (O, "A", "v3h3"))
    g.apply("A v5h5 x v3h3")
    assert at(g, "v4h4") is None and at(g, "v3h3") == ("O", "A")


def test_r17_ruler_arrow_is_stopped_too():
    g = long_position((O, "S", "v10h10", DEFENDING), (O, "A", "v11h11"), ruler="v9h9")
    g.apply("K v9h9 x v11h11")
    assert at(g, "v10h10") is None and at(g, "v11h11") == ("O", "A")


def test_r17_only_an_enemy_defending_soldier_blocks():
    g = position((C, "A", "v5h5"), (C, "S", "v6h6", DEFENDING), (O, "A", "v7h7"))
    g.apply("A v5h5 x v7h7")
    assert at(g, "v6h6") == ("C", "S") and at(g, "v7h7") is None
    g = position((C, "A", "v5h5"), (O, "S", "v6h6"), (O, "A", "v7h7"))
    g.apply("A v5h5 x v7h7")
    assert at(g, "v6h6") == ("O", "S") and at(g, "v7h7") is None


def knight_game(*guards):
    """Archer on v5h5, target a knight's step away on v6h3 (middles v5h4 and v6h4)."""
    pieces = [(O, "S", sq, DEFENDING) for sq in guards]
    return position((C, "A", "v5h5"), (O, "A", "v6h3"), *pieces)


def test_r17_knight_shot_without_via_takes_the_unblocked_middle():
    g = knight_game("v5h4")
    event = g.apply("A v5h5 x v6h3")
    assert event.text == "A v5h5 x v6h3"
    assert at(g, "v6h3") is None and at(g, "v5h4") == ("O", "S")


def test_r17_knight_shot_via_names_the_middle_square():
    g = knight_game("v5h4")
    event = g.apply("A v5h5 x v6h3 via v5h4")
    assert event.text == "A v5h5 x v6h3 via v5h4"
    assert at(g, "v5h4") is None and at(g, "v6h3") == ("O", "A")
    g = knight_game("v5h4")
    g.apply("A v5h5 x v6h3 via v6h4")
    assert at(g, "v6h3") is None and at(g, "v5h4") == ("O", "S")


def test_r17_knight_shot_via_a_guard_in_any_direction():
    g = position((C, "A", "v5h5"), (O, "S", "v5h4", DEFENDING), (O, "A", "v4h3"))
    g.apply("A v5h5 x v4h3 via v5h4")
    assert at(g, "v5h4") is None and at(g, "v4h3") == ("O", "A")


def test_r17_via_must_be_a_middle_square():
    g = knight_game("v5h4")
    message = refused(g, "A v5h5 x v6h3 via v4h4", "R17")
    assert "v4h4" in message


def test_r17_knight_shot_with_both_middles_guarded_is_ambiguous_without_via():
    g = knight_game("v5h4", "v6h4")
    with pytest.raises(AmbiguousAction) as info:
        g.parse_action("A v5h5 x v6h3")
    assert set(info.value.candidates) == {
        "A v5h5 x v6h3 via v5h4",
        "A v5h5 x v6h3 via v6h4",
    }


def test_r17_knight_shot_with_both_middles_guarded_kills_the_named_one():
    g = knight_game("v5h4", "v6h4")
    g.apply("A v5h5 x v6h3 via v6h4")
    assert at(g, "v6h4") is None and at(g, "v5h4") == ("O", "S")
    assert at(g, "v6h3") == ("O", "A")


# ---- R18 Cavalry --------------------------------------------------------------------------
def test_r18_cavalry_jumps_over_pieces_and_attacks_by_landing():
    g = long_position((C, "H", "v9h9"), (C, "A", "v9h8"), (O, "A", "v9h7"), (O, "A", "v9h6"))
    g.apply("H v9h9-v9h6 via v9h8 v9h7")
    assert at(g, "v9h6") == ("C", "H") and at(g, "v9h9") is None
    assert at(g, "v9h8") == ("C", "A") and at(g, "v9h7") == ("O", "A")  # jumped, unharmed
    assert g.pending() == (1, 0)


def test_r18_cavalry_moves_at_most_three_and_only_lands_to_attack():
    g = long_position((C, "H", "v9h9"), (O, "A", "v9h7"))
    message = refused(g, "H v9h9-v9h5", "R18")
    assert "4 steps" in message and "at most 3" in message
    message = refused(g, "H v9h9 x v9h7", "R18")
    assert "only by landing" in message


def test_r18_landing_on_an_enemy_defending_soldier_removes_both():
    g = long_position((C, "H", "v9h9"), (O, "S", "v9h7", DEFENDING))
    event = g.apply("H v9h9-v9h7")
    assert at(g, "v9h7") is None and at(g, "v9h9") is None
    assert sorted(event.removed) == sorted(
        [(O, "S", parse_square("v9h7", 17)), (C, "H", parse_square("v9h9", 17))]
    )
    assert g.pending() == (1, 3)  # each side scores the other's piece


def test_r18_jumping_a_friendly_defending_soldier_is_refused():
    g = long_position((C, "H", "v9h9"), (C, "S", "v9h8", DEFENDING))
    message = refused(g, "H v9h9-v9h7 via v9h8", "R18")
    assert "defending Soldier on v9h8" in message
    g.apply("H v9h9-v9h7")  # without via it goes around
    assert at(g, "v9h7") == ("C", "H") and at(g, "v9h8") == ("C", "S")


def test_r18_without_via_the_path_avoids_a_trade():
    g = long_position((C, "H", "v9h9"), (O, "S", "v9h8", DEFENDING))
    g.apply("H v9h9-v9h6")
    assert at(g, "v9h6") == ("C", "H") and at(g, "v9h8") == ("O", "S")
    assert g.pending() == (0, 0)


def test_r18_jumping_an_enemy_soldier_in_attack_stance_is_fine():
    g = long_position((C, "H", "v9h9"), (O, "S", "v9h8"))
    g.apply("H v9h9-v9h7 via v9h8")
    assert at(g, "v9h7") == ("C", "H") and at(g, "v9h8") == ("O", "S")


def test_r18_jumping_over_an_enemy_defending_soldier_trades():
    g = long_position((C, "H", "v9h9"), (O, "S", "v9h8", DEFENDING))
    g.apply("H v9h9-v9h6 via v9h8 v9h7")
    assert at(g, "v9h8") is None and at(g, "v9h9") is None and at(g, "v9h6") is None
    assert g.pending() == (1, 3)


def test_r18_a_wall_of_enemy_defenders_can_only_be_jumped_by_trading():
    wall = [(O, "S", sq, DEFENDING) for sq in ("v8h8", "v9h8", "v10h8")]
    g = long_position((C, "H", "v9h9"), *wall)
    # every path crosses one of three defenders, and which one dies is the player's choice
    with pytest.raises(AmbiguousAction) as caught:
        g.apply("H v9h9-v9h7")
    assert caught.value.candidates == ["H v9h9-v10h8", "H v9h9-v8h8", "H v9h9-v9h8"]
    g.apply("H v9h9-v9h7 via v9h8")
    assert at(g, "v9h9") is None and at(g, "v9h8") is None and g.pending() == (1, 3)


# ---- R19 Cannon: support ------------------------------------------------------------------
def test_r19_cannon_needs_two_friendly_neighbours():
    g = position((C, "C", "v5h5"), (C, "A", "v4h5"), (O, "A", "v5h2"))
    message = refused(g, "C v5h5 fire W", "R19")
    assert "needs 2" in message and "it has 1" in message
    assert at(g, "v5h2") == ("O", "A")


def test_r19_supporters_are_spent_for_the_turn():
    g = position((C, "C", "v5h5"), (C, "A", "v4h5"), (C, "S", "v6h6"), (O, "A", "v5h2"))
    g.apply("C v5h5 fire W")
    assert at(g, "v5h2") is None
    message = refused(g, "A v4h5-v4h4", "R19")
    assert "supported a Cannon this turn" in message
    refused(g, "S v6h6 defend", "R19")


def test_r19_a_spent_supporter_cannot_support_again():
    g = position(
        (C, "C", "v5h5"), (C, "C", "v5h7"), (C, "A", "v4h6"), (C, "A", "v6h6"), (C, "A", "v4h8"),
        (O, "A", "v5h2"), (O, "A", "v5h9"),
    )  # fmt: skip
    g.apply("C v5h5 fire W")  # v4h6 and v6h6 are its only neighbours
    message = refused(g, "C v5h7 fire E with v4h6 v4h8", "R19")
    assert "v4h6 already supported" in message
    message = refused(g, "C v5h7 fire E", "R19")
    assert "needs 2" in message
    assert at(g, "v5h9") == ("O", "A")


def test_r19_named_supporters_are_the_ones_spent():
    g = position(
        (C, "C", "v5h5"), (C, "A", "v4h5"), (C, "S", "v6h6"), (C, "S", "v6h5"), (O, "A", "v5h2")
    )
    event = g.apply("C v5h5 fire W with v6h6 v6h5")
    assert event.text == "C v5h5 fire W with v6h5 v6h6"
    g.apply("A v4h5-v4h4")  # not named, so free to act
    assert at(g, "v4h4") == ("C", "A")


def test_r19_bad_named_supporters_are_refused():
    g = position(
        (C, "C", "v5h5"), (C, "A", "v4h5"), (C, "S", "v6h6"), (C, "S", "v7h7"), (O, "A", "v5h2")
    )
    assert "not next to the Cannon" in refused(g, "C v5h5 fire W with v6h6 v7h7", "R19")
    assert "no piece of yours" in refused(g, "C v5h5 fire W with v6h6 v5h4", "R19")
    assert "exactly 2" in refused(g, "C v5h5 fire W with v6h6", "R19")


def test_r19_default_supporters_prefer_pieces_already_used():
    def game():
        return long_position(
            (C, "C", "v9h9"), (C, "A", "v8h8"), (C, "S", "v8h10"), (C, "A", "v10h10"),
            (C, "G", "v1h16"), (O, "A", "v9h2"),
        )  # fmt: skip

    g = game()
    g.apply("C v9h9 fire W")  # nobody used yet: the first two in reading order
    refused(g, "A v8h8-v7h8", "R19")
    refused(g, "S v8h10 defend", "R19")
    g.apply("A v10h10-v10h11")
    g = game()
    g.apply("A v10h10-v10h9")  # used, still next to the Cannon
    g.apply("C v9h9 fire W")
    refused(g, "A v10h9-v10h8", "R19")
    refused(g, "A v8h8-v7h8", "R19")
    g.apply("S v8h10 defend")


def test_r19_r31_cannon_needs_three_to_move_into_or_out_of_water():
    two = [(C, "A", "v4h5"), (C, "S", "v6h5")]
    g = position((C, "C", "v5h5"), *two, terrain_map="water v5h4")
    message = refused(g, "C v5h5-v5h4", "R19")
    assert "needs 3" in message and "water" in message
    g.apply("C v5h5-v5h6")  # a dry move needs only 2
    g = position((C, "C", "v5h5"), *two, (C, "S", "v6h6"), terrain_map="water v5h4")
    g.apply("C v5h5-v5h4")
    assert at(g, "v5h4") == ("C", "C")
    g = position((C, "C", "v5h4"), *two, terrain_map="water v5h4")
    assert "needs 3" in refused(g, "C v5h4-v5h3", "R19")
    g = position((C, "C", "v5h4"), *two, (C, "S", "v6h4"), terrain_map="water v5h4")
    g.apply("C v5h4-v5h3")
    assert at(g, "v5h3") == ("C", "C")


# ---- R20 Cannon: move ---------------------------------------------------------------------
def cannon_game(*more, ready=True):
    return position((C, "C", "v5h5", {"ready": ready}), (C, "A", "v4h5"), (C, "S", "v6h6"), *more)


def test_r20_cannon_moves_one_space_into_an_empty_square():
    g = cannon_game()
    g.apply("C v5h5-v5h4")
    assert at(g, "v5h4") == ("C", "C") and at(g, "v5h5") is None


def test_r20_cannon_cannot_move_two_or_onto_a_piece():
    g = cannon_game((O, "A", "v6h4"))
    assert "1 square at a time" in refused(g, "C v5h5-v5h3", "R20")
    assert "v6h4 is occupied" in refused(g, "C v5h5-v6h4", "R20")
    assert "v4h5 is occupied" in refused(g, "C v5h5-v4h5", "R20")
    assert at(g, "v6h4") == ("O", "A")


# ---- R21 Cannon: fire ---------------------------------------------------------------------
def test_r21_shot_removes_the_first_piece_in_line():
    g = cannon_game((O, "A", "v5h3"), (O, "S", "v5h2"))
    event = g.apply("C v5h5 fire W")
    assert at(g, "v5h3") is None and at(g, "v5h2") == ("O", "S")
    assert event.shots == ((parse_square("v5h5", 9), parse_square("v5h3", 9)),)
    assert g.pending() == (1, 0) and not piece(g, "v5h5").ready


def test_r21_directions_follow_the_pictures():
    g = cannon_game((O, "A", "v7h5"))
    g.apply("C v5h5 fire N")  # N is v+1
    assert at(g, "v7h5") is None
    g = cannon_game((O, "A", "v3h7"))
    g.apply("C v5h5 fire SE")  # SE is h+1, v-1
    assert at(g, "v3h7") is None


def test_r21_friendly_piece_in_the_line_of_fire():
    g = cannon_game((C, "A", "v5h3"), (O, "A", "v5h2"))
    message = refused(g, "C v5h5 fire W", "R21")
    assert "own piece on v5h3" in message and "line of fire W" in message
    assert at(g, "v5h2") == ("O", "A") and piece(g, "v5h5").ready


def test_r21_a_shot_into_an_empty_line_is_legal_and_unreadies():
    g = cannon_game()
    g.apply("C v5h5 fire N")
    assert not piece(g, "v5h5").ready and g.pending() == (0, 0)


# ---- R22 Cannon: ready --------------------------------------------------------------------
def test_r22_unready_cannon_can_neither_fire_nor_move():
    g = cannon_game((O, "A", "v5h2"), ready=False)
    message = refused(g, "C v5h5 fire W", "R22")
    assert "unready" in message and "C v5h5 ready" in message
    refused(g, "C v5h5-v5h4", "R22")
    assert at(g, "v5h2") == ("O", "A")


def test_r22_readying_costs_an_action_and_support():
    g = cannon_game(ready=False)
    g.apply("C v5h5 ready")
    assert piece(g, "v5h5").ready and g.actions_left == 1
    assert "already ready" in refused(g, "C v5h5 ready", "R22")
    refused(g, "A v4h5-v4h4", "R19")  # it supported the readying


def test_r22_ready_and_fire_in_one_turn_with_enough_supporters():
    g = cannon_game((C, "S", "v4h4"), (C, "S", "v6h4"), (O, "A", "v5h2"), ready=False)
    g.apply("C v5h5 ready")
    g.apply("C v5h5 fire W")
    assert at(g, "v5h2") is None and not piece(g, "v5h5").ready
    g = cannon_game((C, "S", "v4h4"), (O, "A", "v5h2"), ready=False)
    g.apply("C v5h5 ready")
    message = refused(g, "C v5h5 fire W", "R19")
    assert "it has 1" in message


# ---- R23 Landing attacks ------------------------------------------------------------------
def test_r23_no_piece_lands_on_a_friend():
    for kind in ("G", "A", "S"):
        g = position((C, kind, "v5h5"), (C, "A", "v5h4"))
        assert "your own piece" in refused(g, f"{kind} v5h5-v5h4", "R23")


def test_r23_paths_go_only_through_empty_squares():
    g = position((C, "G", "v5h5"), (O, "A", "v5h4"))
    message = refused(g, "G v5h5-v5h3 via v5h4", "R23")
    assert "blocked at v5h4" in message and "only Cavalry jump" in message
    assert at(g, "v5h4") == ("O", "A")


def test_r23_an_attack_needs_an_enemy_on_the_target():
    g = position((C, "A", "v5h5"), (C, "S", "v5h4"))
    assert "no enemy piece to attack on v5h3" in refused(g, "A v5h5 x v5h3", "R23")
    assert "no enemy piece to attack on v5h4" in refused(g, "A v5h5 x v5h4", "R23")


def test_r23_r11_soldier_next_to_a_general_strikes_and_stays():
    g = position((C, "S", "v4h8"), (O, "G", "v4h7"), (O, "A", "v9h1"), generals=False)
    g.pos.place(Piece(99, C, "G", parse_square("v9h9", 9)))
    event = g.apply("S v4h8-v4h7")
    assert at(g, "v4h8") == ("C", "S") and at(g, "v4h7") == ("O", "G")
    assert piece(g, "v4h7").doomed and event.doomed == (parse_square("v4h7", 9),)
    assert g.pending() == (8, 0)


# ---- R31 Water ----------------------------------------------------------------------------
def test_r31_a_path_through_water_loses_a_step():
    g = position((C, "G", "v5h5"), terrain_map="water v5h4")
    message = refused(g, "G v5h5-v5h3 via v5h4", "R13")
    assert "only 1" in message and "R31" in message
    g.apply("G v5h5-v5h3")  # around the water
    assert at(g, "v5h3") == ("C", "G")


def test_r31_landing_in_water_counts_starting_in_water_does_not():
    g = position((C, "G", "v5h5"), terrain_map="water v5h3")
    refused(g, "G v5h5-v5h3", "R13")
    g = position((C, "G", "v5h5"), terrain_map="water v5h4")
    g.apply("G v5h5-v5h4")
    g.apply("G v5h4-v5h2")  # out of the water: full reach
    assert at(g, "v5h2") == ("C", "G")


def test_r31_reach_never_drops_below_one():
    g = position((C, "S", "v5h5"), (C, "A", "v3h5"), terrain_map="water v5h4 v3h4")
    g.apply("S v5h5-v5h4")
    g.apply("A v3h5-v3h4")
    assert at(g, "v5h4") == ("C", "S") and at(g, "v3h4") == ("C", "A")


def test_r31_ruler_through_water_moves_two():
    g = long_position(ruler="v9h9", terrain_map="water v9h8")
    refused(g, "K v9h9-v9h6 via v9h8 v9h7", "R14")
    g.apply("K v9h9-v9h7 via v9h8")
    assert at(g, "v9h7") == ("C", "R")


# ---- R32 Forest ---------------------------------------------------------------------------
def test_r32_no_two_space_shot_into_a_forest():
    g = position((C, "A", "v5h5"), (O, "A", "v5h3"), terrain_map="forest v5h3")
    assert "forest" in refused(g, "A v5h5 x v5h3", "R32")
    assert at(g, "v5h3") == ("O", "A")


def test_r32_no_two_space_shot_over_a_forest_diagonal():
    g = position((C, "A", "v5h5"), (O, "A", "v7h7"), terrain_map="forest v6h6")
    assert "forest" in refused(g, "A v5h5 x v7h7", "R32")


def test_r32_no_two_space_shot_over_a_forest_straight():
    g = position((C, "A", "v5h5"), (O, "A", "v5h3"), terrain_map="forest v5h4")
    refused(g, "A v5h5 x v5h3", "R32")


def test_r32_knight_shot_passes_the_middle_that_is_not_forest():
    g = position((C, "A", "v5h5"), (O, "A", "v6h3"), terrain_map="forest v5h4")
    assert "forest" in refused(g, "A v5h5 x v6h3 via v5h4", "R32")
    g.apply("A v5h5 x v6h3")
    assert at(g, "v6h3") is None


def test_r32_one_space_into_and_any_shot_out_of_a_forest_are_fine():
    g = position((C, "A", "v5h5"), (O, "A", "v5h4"), terrain_map="forest v5h4")
    g.apply("A v5h5 x v5h4")
    assert at(g, "v5h4") is None
    g = position((C, "A", "v5h6"), (O, "A", "v5h4"), terrain_map="forest v5h4")
    g.apply("A v5h6-v5h5 x v5h4")
    assert at(g, "v5h4") is None
    g = position((C, "A", "v5h5"), (O, "A", "v7h7"), terrain_map="forest v5h5")
    g.apply("A v5h5 x v7h7")
    assert at(g, "v7h7") is None


def test_r32_other_pieces_ignore_forests():
    g = position((C, "G", "v5h5"), (O, "A", "v7h7"), terrain_map="forest v6h6 v7h7")
    g.apply("G v5h5-v6h6 x v7h7")
    assert at(g, "v6h6") == ("C", "G") and at(g, "v7h7") is None
    g = long_position((O, "A", "v11h11"), ruler="v9h9", terrain_map="forest v10h10 v11h11")
    g.apply("K v9h9 x v11h11")
    assert at(g, "v11h11") is None


# ---- R33 High ground ----------------------------------------------------------------------
def test_r33_a_downhill_step_adds_one():
    g = position((C, "G", "v5h5"), terrain_map="hill v5h4 W")
    g.apply("G v5h5-v5h2 via v5h4 v5h3")
    assert at(g, "v5h2") == ("C", "G")
    g = position((C, "G", "v5h5"), terrain_map="hill v5h4 W")
    assert "at most 2" in refused(g, "G v5h5-v5h2 via v4h4 v5h3", "R13")


def test_r33_an_uphill_step_takes_one_away():
    g = position((C, "G", "v5h5"), terrain_map="hill v5h4 E")
    message = refused(g, "G v5h5-v5h3 via v5h4", "R13")
    assert "only 1" in message and "uphill" in message
    g.apply("G v5h5-v5h4")
    assert at(g, "v5h4") == ("C", "G")


def test_r33_a_step_across_the_slope_is_level():
    g = position((C, "G", "v5h5"), terrain_map="hill v5h4 N")
    g.apply("G v5h5-v5h3 via v5h4")
    assert at(g, "v5h3") == ("C", "G")


def test_r33_uphill_and_downhill_cancel():
    g = position((C, "G", "v5h5"), terrain_map="hill v5h4 W; hill v5h3 E")
    assert "at most 2" in refused(g, "G v5h5-v5h2 via v5h4 v5h3", "R13")
    g.apply("G v5h5-v5h3 via v5h4")
    assert at(g, "v5h3") == ("C", "G")


def test_r33_downhill_and_water_cancel():
    g = position((C, "G", "v5h5"), terrain_map="water v5h3; hill v5h4 W")
    g.apply("G v5h5-v5h3 via v5h4")
    assert at(g, "v5h3") == ("C", "G")


def test_r33_r31_water_and_uphill_take_only_one_away():
    g = long_position(ruler="v9h9", terrain_map="water v9h8; hill v9h7 E")
    refused(g, "K v9h9-v9h6 via v9h8 v9h7", "R14")
    g.apply("K v9h9-v9h7 via v9h8")
    assert at(g, "v9h7") == ("C", "R")


def test_r33_soldiers_roll_downhill_too():
    g = position((C, "S", "v5h5"), terrain_map="hill v5h4 W")
    g.apply("S v5h5-v5h3 via v5h4")
    assert at(g, "v5h3") == ("C", "S")
