"""Board, setup, turns and actions (R1-R12): what a player sees the engine allow and refuse."""

from collections import Counter

import pytest
from positions import C, O, position, refused
from positions import occupant as at

from rules.tora import Game, IllegalAction, MalformedAction, Piece
from rules.tora.geometry import distance, mirror, name, parse_square, square


def board_of(g):
    return sorted(
        (p.side.letter, p.kind, name(p.sq), p.defending, p.ready, p.doomed) for p in g.pieces()
    )


# ---- R1 Boards ----------------------------------------------------------------------------
@pytest.mark.parametrize(("board", "size"), [("short", 9), ("long", 17)])
def test_r1_board_sizes(board, size):
    g = Game(board=board)
    assert parse_square(f"v{size}h{size}", g.pos.size) == square(size, size)
    for off in (f"v{size + 1}h1", f"v1h{size + 1}", "v0h1"):
        with pytest.raises(MalformedAction, match="off the board"):
            g.parse_action(f"A {off}-v1h1")


def test_r1_pieces_never_leave_the_board():
    g = position((C, "G", "v1h2"))
    dests = {name(a.dest) for a in g.legal_actions() if a.origin == parse_square("v1h2", 9)}
    assert dests == {f"v{v}h{h}" for v in (1, 2, 3) for h in (1, 2, 3, 4)} - {"v1h2"}


def test_r1_one_piece_per_square_no_landing_on_a_friend():
    g = position((C, "G", "v5h5"), (C, "A", "v5h6"))
    message = refused(g, "G v5h5-v5h6", "R23")
    assert "your own piece" in message
    assert at(g, "v5h5") == ("C", "G") and at(g, "v5h6") == ("C", "A")


def test_r1_a_capture_leaves_one_piece_on_the_square():
    g = position((C, "G", "v5h5"), (O, "A", "v5h6"))
    g.apply("G v5h5-v5h6")
    assert at(g, "v5h6") == ("C", "G") and at(g, "v5h5") is None
    assert len([p for p in g.pieces() if p.sq == parse_square("v5h6", 9)]) == 1


# ---- R2 Coordinates -----------------------------------------------------------------------
def test_r2_square_is_h_and_v_written_vertical_first():
    sq = square(7, 5)  # h=7, v=5
    assert name(sq) == "v5h7"
    for text in ("v5h7", "V5H7", "v.5, h.7", "v 5 h 7", "h7v5", "h.7, v.5"):
        assert parse_square(text, 9) == sq


def test_r2_official_and_short_forms_parse_to_the_same_action():
    g = Game()
    short = g.parse_action("A v5h7-v4h6")
    for text in (
        "A. v.5, h.7, to A. v.4, h.6",
        "A. V.5, H.7, TO A. V.4, H.6",
        "a v5h7 - v4h6",
        "A v5h7 to v4h6",
        "Archer v.5 h.7 to v.4 h.6",
        "A h7v5-h6v4",
    ):
        assert g.parse_action(text) == short, text
    assert g.notation(short) == "A v5h7-v4h6"


def test_r2_everything_is_printed_in_the_short_form():
    g = Game()
    event = g.apply("A. v.5, h.7, to A. v.4, h.6")
    assert event.text == "A v5h7-v4h6"
    assert g.staged() == ["A v5h7-v4h6"]
    assert g.end_turn().texts == ["A v5h7-v4h6"]


def test_r2_h_runs_from_opposition_edge_to_challenger_edge():
    g = Game()
    challenger = {name(p.sq) for p in g.pieces() if p.side == C and p.kind == "G"}
    opposition = {name(p.sq) for p in g.pieces() if p.side == O and p.kind == "G"}
    assert challenger == {"v5h9"} and opposition == {"v5h1"}


def test_r2_unreadable_text_is_malformed_with_a_hint():
    g = Game()
    with pytest.raises(MalformedAction) as info:
        g.parse_action("A v5h7-v4h")
    assert "v5h7" in str(info.value) and "Write actions like" in str(info.value)
    with pytest.raises(MalformedAction, match="not a piece letter"):
        g.parse_action("Z v5h7-v4h6")


# ---- R3 Steps -----------------------------------------------------------------------------
def test_r3_any_direction_is_the_eight_king_directions():
    g = position((C, "G", "v5h5"))
    centre = [a for a in g.legal_actions() if a.origin == parse_square("v5h5", 9)]
    one_step = {name(a.dest) for a in centre if len(a.path) == 1}
    assert one_step == {"v4h4", "v4h5", "v4h6", "v5h4", "v5h6", "v6h4", "v6h5", "v6h6"}
    reachable = {name(a.dest) for a in centre}
    assert len(reachable) == 24  # the 5x5 square around it, less its own square


def test_r3_a_path_may_bend():
    g = position((C, "G", "v5h5"))
    g.apply("G v5h5-v6h7 via v6h6")  # diagonal one space, then forward one space
    assert at(g, "v6h7") == ("C", "G")


def test_r3_a_path_goes_around_pieces_in_the_way():
    g = position((C, "A", "v5h5"), (C, "S", "v5h4"))
    g.apply("A v5h5-v5h3")
    assert at(g, "v5h3") == ("C", "A") and at(g, "v5h4") == ("C", "S")


def test_r3_refuses_a_path_with_a_non_king_step():
    g = position((C, "G", "v5h5"))
    message = refused(g, "G v5h5-v7h5 via v7h7", "R3")
    assert "v5h5 to v7h7" in message and "neighbouring" in message
    assert at(g, "v5h5") == ("C", "G")


# ---- R4 Short board armies ----------------------------------------------------------------
AGGRESSIVE = {"G": ["v5h9"], "C": ["v5h8"], "S": ["v4h8", "v6h8"], "A": ["v5h7", "v3h9", "v7h9"]}
DEFENSIVE = {"G": ["v5h9"], "C": ["v5h8"], "S": ["v4h8", "v6h8"], "A": ["v4h7", "v5h7", "v6h7"]}


def army(g, side):
    out = {}
    for p in g.pieces():
        if p.side == side:
            out.setdefault(p.kind, []).append(name(p.sq))
    return {kind: sorted(squares) for kind, squares in out.items()}


def mirrored(layout):
    return {
        kind: sorted(name(mirror(parse_square(s, 9), 9)) for s in squares)
        for kind, squares in layout.items()
    }


@pytest.mark.parametrize(
    ("mine", "theirs"),
    [("aggressive", "aggressive"), ("aggressive", "defensive"), ("defensive", "aggressive")],
)
def test_r4_short_armies_each_player_picks_a_strategy(mine, theirs):
    layouts = {"aggressive": AGGRESSIVE, "defensive": DEFENSIVE}
    g = Game(challenger_setup=mine, opposition_setup=theirs)
    assert army(g, C) == {k: sorted(v) for k, v in layouts[mine].items()}
    assert army(g, O) == mirrored(layouts[theirs])
    assert Counter(p.kind for p in g.pieces() if p.side == O) == Counter(
        {"G": 1, "A": 3, "S": 2, "C": 1}
    )


def test_r4_unknown_strategy_is_refused():
    with pytest.raises(ValueError, match="aggressive or defensive"):
        Game(challenger_setup="reckless")


# ---- R5 Long board armies -----------------------------------------------------------------
@pytest.mark.parametrize("strategy", ["aggressive", "defensive"])
def test_r5_long_armies(strategy):
    g = Game(board="long", challenger_setup=strategy, opposition_setup=strategy)
    for side in (C, O):
        counts = Counter(p.kind for p in g.pieces() if p.side == side)
        assert counts == Counter({"R": 1, "G": 2, "A": 9, "S": 9, "H": 4, "C": 2})
    assert army(g, C)["R"] == ["v9h17"]
    assert army(g, C)["G"] == sorted(["v4h14", "v14h13"])
    assert army(g, O)["R"] == ["v9h1"]
    assert army(g, O)["G"] == sorted(["v14h4", "v4h5"])
    rotated = {(p.kind, name(mirror(p.sq, 17))) for p in g.pieces() if p.side == C}
    assert rotated == {(p.kind, name(p.sq)) for p in g.pieces() if p.side == O}


@pytest.mark.parametrize("strategy", ["aggressive", "defensive"])
def test_r5_long_armies_start_near_home_with_supported_cannons(strategy):
    g = Game(board="long", challenger_setup=strategy, opposition_setup=strategy)
    for p in g.pieces():
        assert (p.sq >> 5) >= 13 if p.side == C else (p.sq >> 5) <= 5
    for cannon in (p for p in g.pieces() if p.kind == "C"):
        friends = [
            q for q in g.pieces() if q.side == cannon.side and distance(q.sq, cannon.sq) == 1
        ]
        assert len(friends) >= 2


def test_r5_ruler_letter_is_each_players_choice():
    g = Game(board="long", rulers=("K", "Q"))
    assert g.notation(g.parse_action("K v9h17-v9h16")) == "K v9h17-v9h16"
    g.apply("K v9h17-v9h16")
    g.end_turn()
    assert g.notation(g.parse_action("Q v9h1-v9h2")) == "Q v9h1-v9h2"
    with pytest.raises(ValueError, match="K or Q"):
        Game(board="long", rulers=("K", "X"))


# ---- R6 Terrain ---------------------------------------------------------------------------
@pytest.mark.parametrize("board", ["short", "long"])
@pytest.mark.parametrize("preset", ["river", "woods", "highlands"])
def test_r6_presets_are_symmetric_and_keep_starting_squares_clear(board, preset):
    size = {"short": 9, "long": 17}[board]
    starts = set()
    for mine in ("aggressive", "defensive"):
        starts |= {
            p.sq for p in Game(board=board, challenger_setup=mine, opposition_setup=mine).pieces()
        }
    g = Game(board=board, terrain=preset)
    t = g.terrain
    assert t.water or t.forest
    for squares in (t.water, t.forest):
        assert {mirror(s, size) for s in squares} == set(squares)
        assert not set(squares) & starts
    for sq, direction in t.hills.items():
        assert t.hills[mirror(sq, size)] == (direction + 4) % 8
        assert sq not in starts


@pytest.mark.parametrize("board", ["short", "long"])
def test_r6_no_terrain_by_default_and_high_ground_in_a_preset(board):
    assert not Game(board=board).terrain.water
    assert Game(board=board, terrain="highlands").terrain.hills


def test_r6_custom_map_overrides_the_preset():
    g = Game(terrain="river", terrain_map="water v4h6; forest v3h3; hill v7h2 NE")
    t = g.terrain
    assert {name(s) for s in t.water} == {"v4h6"}
    assert {name(s) for s in t.forest} == {"v3h3"}
    assert {name(s): d for s, d in t.hills.items()} == {"v7h2": 1}


def test_r6_bad_terrain_is_refused_with_a_reason():
    with pytest.raises(ValueError, match="river"):
        Game(terrain="swamp")
    with pytest.raises(ValueError, match="not a terrain kind"):
        Game(terrain_map="lava v4h6")
    with pytest.raises(ValueError, match="already water"):
        Game(terrain_map="water v4h6; forest v4h6")


# ---- R7 Rounds ----------------------------------------------------------------------------
def test_r7_challenger_moves_first_in_every_round():
    g = Game()
    assert (g.side, g.round) == (C, 1)
    assert g.end_turn().side == C
    assert (g.side, g.round) == (O, 1)
    assert g.end_turn().side == O
    assert (g.side, g.round) == (C, 2)


def test_r7_only_the_side_to_act_may_act():
    g = Game()
    message = refused(g, "A v5h3-v5h4", "R8")
    assert "piece of the Opposition" in message and "Challenger's turn" in message


# ---- R8 Actions ---------------------------------------------------------------------------
def test_r8_short_board_two_actions_then_refused():
    g = position((C, "A", "v5h5"), (C, "S", "v4h4"))
    assert g.actions_left == 2
    g.apply("A v5h5-v5h6")
    g.apply("S v4h4 defend")
    assert g.actions_left == 0
    message = refused(g, "A v5h6-v5h7", "R8")
    assert "no actions left" in message and "2" in message
    assert at(g, "v5h6") == ("C", "A")


def test_r8_same_piece_may_act_twice():
    g = position((C, "G", "v5h5"))
    g.apply("G v5h5-v5h7")
    g.apply("G v5h7-v5h5")
    assert at(g, "v5h5") == ("C", "G")
    assert g.staged() == ["G v5h5-v5h7", "G v5h7-v5h5"]


def test_r8_a_player_may_pass():
    g = Game()
    before = board_of(g)
    turn = g.end_turn()
    assert turn.texts == [] and g.side == O and board_of(g) == before


def test_r8_long_board_one_action_per_command_piece():
    assert Game(board="long").actions_left == 3
    g = position((C, "R", "v9h9"), board="long")
    assert g.actions_left == 2  # the Ruler and the corner General
    g.apply("K v9h9-v9h8")
    g.apply("K v9h8-v9h7")
    message = refused(g, "K v9h7-v9h6", "R8")
    assert "no actions left" in message


def test_r8_r11_doomed_command_pieces_still_count_then_not_after_the_round():
    g = position((C, "A", "v5h5"), (O, "R", "v9h1"), (O, "G", "v5h3"), board="long")
    g.apply("A v5h5 x v5h3")
    g.end_turn()
    assert g.pos.at(parse_square("v5h3", 17)).doomed
    assert g.actions_left == 3  # Ruler, corner General and the doomed General
    g.end_turn()
    g.end_turn()
    assert at(g, "v5h3") is None and g.side == O
    assert g.actions_left == 2


# ---- R9 Move before attack ----------------------------------------------------------------
def test_r9_the_move_comes_first_then_the_attack():
    g = position((C, "G", "v5h5"), (O, "A", "v5h7"))
    g.apply("G v5h5-v5h6 x v5h7")  # v5h7 is out of reach from v5h5, in reach from v5h6
    assert at(g, "v5h6") == ("C", "G") and at(g, "v5h7") is None
    assert g.pending() == (1, 0)


def test_r9_an_attack_cannot_come_before_the_move():
    g = position((C, "G", "v5h5"), (O, "A", "v5h7"))
    with pytest.raises(MalformedAction):
        g.parse_action("G v5h5 x v5h6-v5h7")
    message = refused(g, "G v5h5 x v5h7", "R13")
    assert "2 away" in message


# ---- R10 Undo within a turn ---------------------------------------------------------------
def test_r10_undo_restores_the_exact_position():
    g = position(
        (C, "A", "v5h5"),
        (C, "C", "v4h4"),
        (C, "S", "v3h4"),
        (C, "S", "v3h3"),
        (O, "A", "v5h3"),
        (O, "S", "v4h2"),
    )
    before = (board_of(g), g.pending(), g.actions_left, g.staged())
    g.apply("A v5h5 x v5h3")
    g.apply("C v4h4 fire W")
    assert at(g, "v5h3") is None and at(g, "v4h2") is None and g.pending() == (2, 0)
    assert g.undo() == "C v4h4 fire W"
    assert g.undo() == "A v5h5 x v5h3"
    assert (board_of(g), g.pending(), g.actions_left, g.staged()) == before
    g.apply("C v4h4 fire W")  # the supporters are free again
    assert at(g, "v4h2") is None


def test_r10_take_back_an_earlier_action_keeps_the_later_ones():
    g = position((C, "A", "v5h5"), (C, "S", "v4h4"), (O, "A", "v5h3"))
    g.apply("A v5h5 x v5h3")
    g.apply("S v4h4-v4h3")
    assert g.take_back(0) == "A v5h5 x v5h3"
    assert g.staged() == ["S v4h4-v4h3"]
    assert at(g, "v5h3") == ("O", "A") and at(g, "v4h3") == ("C", "S")
    assert g.pending() == (0, 0) and g.actions_left == 1


def test_r10_take_back_refused_when_a_later_action_depends_on_it():
    g = position((C, "A", "v5h5"), (C, "S", "v5h4"))
    g.apply("S v5h4-v5h3")
    g.apply("A v5h5-v5h4")  # onto the square the Soldier left
    before = board_of(g)
    with pytest.raises(IllegalAction) as info:
        g.take_back(0)
    assert info.value.rule == "R23"
    assert "would make a later one illegal" in str(info.value)
    assert board_of(g) == before and g.staged() == ["S v5h4-v5h3", "A v5h5-v5h4"]


def test_r10_nothing_to_take_back_and_not_past_the_turn():
    g = position((C, "A", "v5h5"))
    with pytest.raises(IllegalAction) as info:
        g.undo()
    assert info.value.rule == "R10" and "no action of this turn" in str(info.value)
    g.apply("A v5h5-v5h6")
    g.end_turn()
    with pytest.raises(IllegalAction) as info:
        g.undo()
    assert info.value.rule == "R10"
    with pytest.raises(IllegalAction) as info:
        g.take_back(3)
    assert info.value.rule == "R10"


# ---- R11 Doomed command pieces ------------------------------------------------------------
def doomed_general_game():
    """The Challenger's Archer has just doomed the Opposition General on v5h3 (short board)."""
    g = position(
        (C, "A", "v5h5"), (C, "A", "v4h5"), (O, "G", "v5h3"), (O, "A", "v9h2"), generals=False
    )
    g.pos.place(Piece(99, C, "G", parse_square("v9h9", 9)))
    event = g.apply("A v5h5 x v5h3")
    assert event.doomed == (parse_square("v5h3", 9),) and event.removed == ()
    return g


def test_r11_an_attacked_general_stays_on_the_board_doomed():
    g = doomed_general_game()
    assert at(g, "v5h3") == ("O", "G")
    assert g.pos.at(parse_square("v5h3", 9)).doomed
    assert g.pending() == (8, 0) and g.scores() == (0, 0)


def test_r11_attacking_a_doomed_piece_again_scores_nothing():
    g = doomed_general_game()
    g.apply("A v4h5 x v5h3")
    assert g.pending() == (8, 0)


def test_r11_the_doomed_piece_still_acts_then_is_removed_at_round_end():
    g = doomed_general_game()
    g.end_turn()
    assert g.actions_left == 2
    g.apply("G v5h3-v5h4")
    g.apply("G v5h4 x v5h5")  # a doomed General still moves and attacks
    assert at(g, "v5h5") is None and g.pending() == (8, 1)
    turn = g.end_turn()
    assert turn.round_end == ((O, "G", parse_square("v5h4", 9)),)
    assert at(g, "v5h4") is None
    assert g.scores() == (8, 1)
    assert str(g.outcome()) == "challenger wins (loss of command)"


def test_r11_a_standard_piece_is_removed_at_once():
    g = position((C, "A", "v5h5"), (O, "S", "v5h3"))
    event = g.apply("A v5h5 x v5h3")
    assert at(g, "v5h3") is None
    assert event.removed == ((O, "S", parse_square("v5h3", 9)),)


# ---- R12 Turn end -------------------------------------------------------------------------
def test_r12_ending_the_turn_hands_over_with_the_actions_taken():
    g = position((C, "A", "v5h5"), (C, "S", "v4h4"))
    g.apply("A v5h5-v5h6")
    turn = g.end_turn()
    assert turn.texts == ["A v5h5-v5h6"] and g.side == O and g.staged() == []
    assert at(g, "v5h6") == ("C", "A")


def test_r12_a_deadline_ends_the_turn_with_the_actions_so_far():
    g = position((C, "A", "v5h5"), (C, "S", "v4h4"))
    g.apply("A v5h5-v5h6")
    turn = g.end_turn(deadline=True)
    assert turn.texts == ["A v5h5-v5h6"] and g.side == O
    assert at(g, "v5h6") == ("C", "A")


def test_r12_a_deadline_drops_only_the_actions_that_break_r30():
    g = position((C, "G", "v5h7"), (C, "A", "v2h8"), (O, "G", "v5h2"), generals=False)
    g.apply("A v2h8-v2h7")
    g.apply("G v5h7-v5h5")  # the Opposition General could reach it next turn
    with pytest.raises(IllegalAction) as info:
        g.end_turn()
    assert info.value.rule == "R30" and "G v5h5" in str(info.value)
    turn = g.end_turn(deadline=True)
    assert turn.texts == ["A v2h8-v2h7"] and g.side == O
    assert at(g, "v5h7") == ("C", "G") and at(g, "v2h7") == ("C", "A")


@pytest.mark.parametrize("text", ["v35h1", "v99h1", "v5h40", "v0h3", "v18h3"])
def test_r2_squares_beyond_the_board_are_refused_not_wrapped(text):
    """Regression: v35h1 is refused as off the board, never read as v3h1."""
    with pytest.raises(ValueError) as info:
        parse_square(text, 17)
    assert "off the board" in str(info.value) and text[:3] in str(info.value)


def test_a_copy_taken_back_and_played_on_leaves_the_original_as_it_was():
    """Regression: a copy shares its turn's earlier positions with the original, and taking
    an action back on it (then playing another) changed the original's position."""
    game = Game(board="short", challenger_setup="aggressive", opposition_setup="defensive")
    game.apply("A v5h7-v5h5")
    before = game.key()
    for forget in (lambda g: g.undo(), lambda g: g.discard_turn()):
        trial = game.copy()
        forget(trial)
        trial.apply("A v5h7-v4h6")
        assert game.key() == before
        game.undo()
        game.apply("A v5h7-v5h5")
