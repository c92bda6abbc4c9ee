"""One test (at least) per Torii ruling, TI1-TI20 (restated in docs/TORII.md), named after it;
decisions taken where a ruling is open are in docs/TORII.md under the same id."""

from __future__ import annotations

import pytest
from test_torii_positions import (
    BEFORE_THE_WIN,
    LINES_GAME,
    START,
    TWO_TORII,
    C,
    O,
    make,
    play,
    refused,
    sq,
)

from rules.errors import AmbiguousAction, IllegalAction, MalformedAction
from rules.protocol import FORFEIT
from rules.torii import TORII, Decision, ToriiGame
from rules.torii.actions import PASS
from rules.torii.board import SQUARES, name, same_lane
from rules.torii.building import formed_lines
from rules.torii.state import SPIRITS
from rules.torii.turn import begin, paths


def new(c: str = "Deer", o: str = "Kitsune", powers: bool = True) -> ToriiGame:
    return TORII.new_game({"powers": powers}, ({"spirit": c}, {"spirit": o}))


def cell(game: ToriiGame, text: str) -> str:
    """What a square holds in the game's position: '.', 'c', 'o', 'C' or 'O'."""
    return ".coCO"[game.pos.cells[sq(text)]]


# ---- board and setup --------------------------------------------------------------------


def test_ti1_board_is_six_by_six() -> None:
    assert len(SQUARES) == 36
    assert (name(0), name(5), name(6), name(35)) == ("a1", "f1", "a2", "f6")
    game = new()
    assert game.view_for(None).size == 6
    with pytest.raises(MalformedAction):
        game.parse_action("1 g2")


def test_ti2_pieces_of_each_player() -> None:
    view = new().view_for(None)
    assert view.supply == (9, 9)
    assert view.torii_left == (4, 4)
    assert view.followers == ((), ())
    assert view.torii == ((), ())
    assert len(view.tiles[C]) == len(view.tiles[O]) == 3


def test_ti3_start_position() -> None:
    game = new()
    assert game.fen() == START
    assert game.side == C
    view = game.view_for(None)
    assert [(s.kind, name(s.square)) for s in view.spirits] == [("Deer", "c2"), ("Kitsune", "d5")]
    assert view.tiles == ((False, True, False), (False, False, False))
    refused(game, "2 c3 c4", "TI5")


def test_ti4_spirits_are_picked_and_may_be_the_same() -> None:
    (question,) = TORII.setup_questions({})
    assert question.name == "spirit" and question.options == SPIRITS
    (token,) = TORII.setup_questions({"powers": False})
    assert "token" in token.prompt
    twins = new("Monkey", "Monkey")
    assert twins.setup.spirits == ("Monkey", "Monkey")
    tokens = new("Kitsune", "Deer", powers=False)
    assert "powers are off" in refused(tokens, "1 push d4 c3", "TI13").reason
    with pytest.raises(ValueError, match="Spirit"):
        TORII.new_game({}, ({"spirit": "Dragon"}, {"spirit": "Deer"}))
    with pytest.raises(ValueError, match="no option"):
        TORII.check_options({"board": "big"})
    assert TORII.check_options({}) == {"powers": True}


# ---- a turn: jump, spread, build -----------------------------------------------------------


def test_ti5_a_tile_makes_its_steps_and_is_used() -> None:
    game = new(powers=False)
    refused(game, "2 c3 c4", "TI5")  # tile 2 starts used
    refused(game, "3 c3 c4", "TI5")  # three steps
    play(game, "3 c3 b3 b4")  # directions may change
    assert game.pos.used[C] == 0b110
    assert game.fen().split()[4] == "1,123"


def test_ti6_jump_over_the_lane() -> None:
    game = new(powers=False)
    assert "jumps over" in refused(game, "3 c3 c4 c5", "TI6").reason
    assert game.parse_action("3 up up up") == game.parse_action("3 c3 c4 c6")
    event = game.apply("3 c3 c4 c6")
    assert event.jumped == (sq("c5"),)
    game.end_turn()
    assert cell(game, "c5") == "." and cell(game, "c6") == "c"
    sideways = new(powers=False)
    assert sideways.notation(sideways.parse_action("1 right")) == "1 e2"  # over column d


def test_ti6_a_jump_off_the_board_is_no_step() -> None:
    game = make(spirits="Db6,Ka5", powers=False)
    refused(game, "1 left", "TI6")
    refused(game, "1 a6", "TI6")


def test_ti6_spirits_never_share_a_lane() -> None:
    game = new()
    for action in game.legal_actions():
        trial = game.copy()
        trial.apply(action)
        trial.end_turn()
        assert not same_lane(*trial.pos.spirits)


def test_ti7_no_landing_twice_nor_on_the_start() -> None:
    game = new(powers=False)
    assert "already landed" in refused(game, "3 c3 c4 c3", "TI7").reason
    assert "where the turn began" in refused(game, "3 c3 c2 c1", "TI7").reason


def test_ti7_torii_do_not_block() -> None:
    game = make("......\n......\n......\n..O...\n......\n......", powers=False)
    play(game, "1 c3")
    assert cell(game, "c3") == "O"
    assert name(game.pos.spirits[C]) == "c3"


def test_ti8_pass_only_without_a_path() -> None:
    refused(new(), "pass", "TI8")
    game = make(tiles="-,123")
    assert game.legal_actions() == [PASS]
    refused(game, "1 c3", "TI8")
    play(game, "pass")
    assert game.fen().split()[4:6] == ["123,123", "O"]  # TI11 still applies


def test_ti8_every_unused_tile_has_a_path_on_six_by_six() -> None:
    for mine in SQUARES:
        for theirs in SQUARES:
            if not same_lane(mine, theirs):
                assert all(paths(mine, theirs, tile, False) for tile in (1, 2, 3))


def test_ti9_spread_places_replaces_and_skips() -> None:
    game = make(
        """
        ......
        ......
        ......
        ..o...
        ......
        ......""",
        tiles="123,123",
        powers=False,
    )
    play(game, "3 c3 c4 c6")
    assert [cell(game, s) for s in ("c2", "c3", "c4", "c5", "c6")] == [".", "c", "c", ".", "c"]
    assert game.pos.supply(O) == 9 and game.pos.supply(C) == 6
    again = make("..c...\n..C...\n......\n......", spirits="Dc2,Kf5", powers=False)
    event = again.apply("3 c3 c4 d4")
    assert event.placed == (sq("d4"),)  # c3 holds a Torii, c4 her own Follower


def test_ti9_the_ninth_follower_wins_at_once() -> None:
    game = make(
        """
        ......
        ......
        cc....
        ......
        ......
        ccc.cc""",
        spirits="De3,Kb6",
        tiles="3,123",
        powers=False,
    )
    event = game.apply("3 e4 d4 d3")
    assert event.won == "all 9 Followers placed"
    assert event.placed == (sq("e4"), sq("d4"))
    game.end_turn()
    assert game.outcome().winner == C and game.is_over()
    assert cell(game, "d3") == "."
    assert game.fen().split()[4] == "-,123"  # no reset: the rest of the turn did not happen


def _line_game() -> ToriiGame:
    return make(LINES_GAME, spirits="Da2,Kf6", tiles="1,123", powers=False)


def _monkey_game(c: str = "Kitsune", o: str = "Monkey") -> ToriiGame:
    return make(LINES_GAME, spirits=f"{c[0]}a2,{o[0]}f6", tiles="1,123")


def test_ti10_build_one_torii_per_formed_line() -> None:
    game = _line_game()
    with pytest.raises(AmbiguousAction) as info:
        game.parse_action("1 a3")
    assert "1 a3 build a3 a3-d3 build a5" in info.value.candidates
    assert len(info.value.candidates) == 12
    play(game, "1 a3 build b3")
    assert [cell(game, s) for s in ("a3", "b3", "c3", "d3")] == [".", "C", ".", "."]
    assert game.pos.supply(C) == 9 - 4  # a4 a5 a6 and b3 stay on the board
    assert [cell(game, s) for s in ("a4", "a5", "a6")] == ["c", "c", "c"]


def test_ti10_several_lines_one_at_a_time() -> None:
    game = _line_game()
    play(game, "1 a3 build a3 a3-d3 build a5")
    assert [cell(game, s) for s in ("a3", "a4", "a5", "a6", "b3")] == ["C", ".", "C", ".", "."]
    assert game.pos.torii_left(C) == 2
    fresh = _line_game()
    texts = [fresh.notation(a) for a in fresh.legal_actions()]
    assert "1 a3 build a3 a3-a6 build d3" in texts
    assert "1 a3 build a3 a3-d3 build a5" in texts
    assert "1 a3 build c3" in texts  # the column is gone with a3's Follower


def test_ti10_the_fourth_torii_wins_at_once() -> None:
    winning = make(
        """
        ......
        ......
        ......
        .ccc..
        ......
        ...CCC""",
        spirits="Da2,Kf6",
        tiles="1,123",
        powers=False,
    )
    event = winning.apply("1 a3 build c3")
    assert event.won == "all 4 Torii built"
    winning.end_turn()
    assert winning.outcome().winner == C
    assert [cell(winning, s) for s in ("a3", "b3", "c3", "d3")] == ["c", "c", "C", "c"]
    assert winning.fen().split()[4] == "-,123"  # no returns, no reset


def test_ti10_a_line_of_torii_forms_nothing() -> None:
    """With 4 Torii a player has won (TI18), so only a won position has such a line."""
    won = make(".CCCC.\n......\n......", spirits="Da2,Kf6")
    assert won.is_over()
    assert formed_lines(begin(won.pos, won.setup)) == []


def test_ti10_a_build_left_out_is_filled_in_when_forced() -> None:
    game = make(
        """
        ......
        ......
        ......
        .CCC..
        ......
        ......""",
        spirits="Da2,Kf6",
        tiles="1,123",
        powers=False,
    )
    assert game.notation(game.parse_action("1 a3")) == "1 a3 build a3"  # the only choice
    assert [game.notation(a) for a in game.legal_actions() if "a3" in game.notation(a)] == [
        "1 a3 build a3"
    ]


def test_ti11_reset_when_all_tiles_are_used() -> None:
    game = new(powers=False)
    play(game, "3 c3 c4 c6", "3 d4 d3 e3")
    assert game.fen().split()[4] == "1,12"
    play(game, "1 b6")
    assert game.fen().split()[4] == "123,12"


# ---- powers ---------------------------------------------------------------------------------


def test_ti12_deer_one_diagonal_step() -> None:
    game = new("Deer", "Kitsune")
    assert game.notation(game.parse_action("1 up-right")) == "1 e4"  # d3 is in column d
    assert game.notation(game.parse_action("3 ul up right")) == "3 b3 b4 c4"
    assert "one step" in refused(game, "3 b3 a4 a3", "TI12").reason
    refused(new("Kitsune", "Deer"), "1 b3", "TI5")
    over = make(spirits="Dc4,Kd5")
    assert over.notation(over.parse_action("1 ne")) == "1 e6"  # over the Kitsune itself


def test_a_deers_one_diagonal_step_back_to_its_start_is_refused_for_the_start() -> None:
    """TI7 / TI12: from c2 the Deer steps up to c3, right to d3, then down-left back to c2, its
    only diagonal step of the turn. The step is illegal because c2 is where the turn began
    (TI7); the refusal says "only one step of a turn may be diagonal (TI12)" while no diagonal
    was made yet, and lists a diagonal step (f1) among the allowed ones."""
    game = make("", spirits="Dc2,Ke5", tiles="123,123")
    with pytest.raises(IllegalAction) as info:
        game.parse_action("3 c3 d3 c2")
    assert info.value.rule == "TI7", info.value
    assert "where the turn began" in str(info.value), info.value


def test_ti13_kitsune_moves_the_opponent_first_with_tile_1() -> None:
    game = new("Kitsune", "Deer")
    event = game.apply("1 push d4 c3")
    assert event.push == (sq("d5"), sq("d4"))
    game.end_turn()
    assert name(game.pos.spirits[O]) == "d4" and cell(game, "d4") == "."
    jump = new("Kitsune", "Deer")
    assert jump.notation(jump.parse_action("1 push left c3")) == "1 push b5 c3"  # over column c
    refused(new("Kitsune", "Deer"), "3 push d4 c3 c4 c5", "TI13")
    refused(new("Deer", "Kitsune"), "1 push d4 c3", "TI13")


def test_ti14_crane_flies_to_a_torii() -> None:
    game = make(".O.O..\n......\n......", spirits="Ca1,Kd5")
    event = game.apply("fly b3 3 a3 a2 a1")  # the square left may be landed on
    assert (event.fly_from, event.start) == (sq("a1"), sq("b3"))
    game.end_turn()
    assert cell(game, "b3") == "O" and cell(game, "a1") == "c"
    fresh = make(".O.O..\n......\n......", spirits="Ca1,Kd5")
    refused(fresh, "fly b3 2 b4 b3", "TI7")  # the square flown to starts the turn
    assert "lanes" in refused(fresh, "fly d3 1 d2", "TI14").reason
    assert "no Torii" in refused(fresh, "fly c3 1 c4", "TI14").reason
    refused(make(".O....\n......\n......", spirits="Ka1,Cd5"), "fly b3 1 b4", "TI14")


def test_ti15_the_opponents_monkey_decides_before_the_reset() -> None:
    game = _monkey_game()
    game.apply("1 a3 build b3")
    turn = game.end_turn()
    assert turn.texts == ["1 a3 build b3"]
    assert (game.side, game.actions_left, game.deciding) == (O, 1, True)
    assert game.legal_actions() == [Decision(C), Decision(O), Decision(None)]
    assert game.fen().split()[4:6] == ["-,123", "O1"]  # the builder's reset waits
    refused(game, "3 d6 e6 e5", "TI15")
    play(game, "flip C")
    assert game.fen().split()[4:6] == ["1,123", "O"]  # flip first: no reset for C
    assert (game.side, game.actions_left, game.deciding) == (O, 1, False)
    assert TORII.write_record(game, None).rstrip().endswith("C: 1 a3 build b3\nO: flip C")
    calm = _monkey_game()
    play(calm, "1 a3 build b3", "flip none")
    assert calm.fen().split()[4:6] == ["123,123", "O"]


def test_ti15_no_answer_by_the_deadline_means_none() -> None:
    game = _monkey_game()
    play(game, "1 a3 build a3 a3-d3 build a5")
    assert game.actions_left == 2
    game.apply("flip O")
    turn = game.end_turn(deadline=True)
    assert turn.texts == ["flip O", "flip none"]
    assert turn.events[1].lapsed
    assert game.fen().split()[4:6] == ["123,23", "O"]


def test_ti15_a_monkey_builder_flips_at_once_and_first() -> None:
    game = _monkey_game("Monkey", "Monkey")
    play(game, "1 a3 build b3 flip C")
    assert game.fen().split()[4:6] == ["1,123", "O1"]  # C's own flip: tile 1 unused again
    assert game.pos.used[C] == 0b110
    play(game, "flip C")
    assert game.fen().split()[4:6] == ["123,123", "O"]  # used again, so the reset follows


def test_ti15_no_flip_after_a_winning_torii() -> None:
    game = make(
        "......\n......\n......\n.ccc..\n......\n...CCC",
        spirits="Ma2,Mf6",
        tiles="1,123",
    )
    refused(game, "1 a3 build c3 flip O", "TI15")
    play(game, "1 a3 build c3")
    assert game.is_over() and not game.deciding


def test_ti15_the_monkey_answers_for_torii_before_a_winning_one() -> None:
    game = TORII.from_fen(BEFORE_THE_WIN.format("B"), {})
    assert TORII.perft(game, 1) == 91  # 5 such turns, each with 3 answers: 81 + 5 * 2
    game.apply(TWO_TORII)
    game.end_turn()
    assert not game.is_over() and game.outcome() is None
    assert (game.side, game.actions_left, game.deciding) == (O, 1, True)
    assert game.fen().split()[3:6] == ["0,2", "12,1", "O1"]  # won on the board, answer owed
    assert game.agreements() == ("draw",)  # the game goes on until the answer
    assert TORII.from_fen(game.fen(), {}).legal_actions() == game.legal_actions()
    refused(game, "1 e2", "TI15")
    play(game, "flip C")
    assert game.is_over() and str(game.outcome()) == "challenger wins (all 4 Torii built)"
    assert game.fen().split()[4:6] == ["2,1", "C"]  # the flip used C's tile 1; no reset
    assert TORII.write_record(game, None).rstrip().endswith(f"C: {TWO_TORII}\nO: flip C")
    again = TORII.read_record(TORII.write_record(game, None))
    assert again.fen() == game.fen() and again.is_over()


def test_ti15_an_answer_before_a_winning_torii_lapses_at_the_deadline() -> None:
    game = TORII.from_fen(BEFORE_THE_WIN.format("B"), {})
    play(game, TWO_TORII)
    turn = game.end_turn(deadline=True)
    assert turn.texts == ["flip none"] and turn.events[0].lapsed
    assert game.outcome().winner == C and game.fen().split()[4:6] == ["12,1", "C"]


def test_ti15_two_monkeys_before_a_winning_torii() -> None:
    game = TORII.from_fen(BEFORE_THE_WIN.format("M"), {})
    assert TORII.perft(game, 1) == 104  # each such turn: the builder's flip, then the answer
    play(game, "3 e2 e4 d4 build e4 e1-e4 flip C build d4")
    assert game.fen().split()[4:6] == ["2,1", "O1"]  # the builder's own flip came first
    play(game, "flip O")
    assert game.outcome().winner == C
    assert game.fen().split()[4:6] == ["2,-", "C"]  # both tiles 1 used: only with the answer
    fresh = TORII.from_fen(BEFORE_THE_WIN.format("M"), {})
    tiles = {trial.fen().split()[4] for trial in _every_answer(fresh)}
    assert tiles == {"12,1", "2,1", "12,-", "2,-"}


def _every_answer(game: ToriiGame) -> list[ToriiGame]:
    """The games after the two-Monkey turn above with each of its flips and answers."""
    out = []
    for own in ("", " flip C", " flip O"):
        for answer in ("flip C", "flip O", "flip none"):
            trial = game.copy()
            play(trial, f"3 e2 e4 d4 build e4 e1-e4{own} build d4", answer)
            out.append(trial)
    return out


def test_ti16_tatsu_sweeps_the_torii_lanes() -> None:
    game = make(
        """
        ..O...
        ..o...
        ......
        .ccc.o
        ..c...
        ..o...""",
        spirits="Ta2,Kf6",
        tiles="1,123",
    )
    event = game.apply("1 a3 build c3")
    assert event.builds[0].removed == (sq("c1"), sq("f3"), sq("c5"))
    game.end_turn()
    assert [cell(game, s) for s in ("c1", "f3", "c5", "c6", "c2")] == [".", ".", ".", "O", "c"]


def test_ti17_boar_moves_a_torii_with_tile_1() -> None:
    game = make(
        """
        ......
        ......
        ......
        .o....
        .C....
        ......""",
        spirits="Be1,Kd5",
        tiles="123,123",
    )
    event = game.apply("1 torii b2-b3 e2")
    assert event.torii_move == (sq("b2"), sq("b3")) and event.torii_bumped == O
    game.end_turn()
    assert cell(game, "b2") == "." and cell(game, "b3") == "C"
    assert game.pos.supply(O) == 9
    blocked = make(".O....\n.C....\n......", spirits="Be1,Kd5")
    assert "already holds a Torii" in refused(blocked, "1 torii b2-b3 e2", "TI17").reason
    refused(blocked, "3 torii b2-a2 e2 e3 e4", "TI17")


def test_ti17_a_moved_torii_forms_lines() -> None:
    game = make(
        """
        ......
        ......
        ......
        ..ccc.
        .C....
        ......""",
        spirits="Be1,Kd5",
        tiles="1,123",
    )
    play(game, "1 torii b2-b3 f1 build c3")
    assert [cell(game, s) for s in ("b3", "c3", "d3", "e3")] == ["C", "C", ".", "."]


# ---- end and records ------------------------------------------------------------------------


def test_ti18_the_game_ends_only_by_a_win_resignation_or_agreement() -> None:
    game = new()
    for _ in range(40):
        if game.is_over():
            break
        game.apply(game.legal_actions()[0])
        game.end_turn()
    assert game.is_over() == (game.outcome() is not None)
    resigned = new()
    resigned.apply("1 c3")
    resigned.resign(O)
    assert str(resigned.outcome()) == "challenger wins (resignation)"
    assert resigned.staged() == []
    with pytest.raises(IllegalAction) as info:
        resigned.apply("1 c3")
    assert info.value.rule == "TI18"
    drawn = new()
    assert drawn.agreements() == ("draw",)
    drawn.agree("draw")
    assert drawn.outcome().winner is None and drawn.agreements() == ()
    lost = new()
    lost.forfeit(C)
    assert lost.outcome().reason == FORFEIT and lost.outcome().winner == O


def test_ti19_notation_reads_forgivingly_and_writes_canonically() -> None:
    game = new(powers=False)
    for text in ("3 c3 c4 c6", "  3  C3 c4   C6 ", "3 up up up", "3 u n north", "c3, c4, c6"):
        assert game.notation(game.parse_action(text)) == "3 c3 c4 c6"
    assert game.notation(game.parse_action("tile 1 b2")) == "1 b2"
    record = TORII.write_record(play(game, "3 c3 c4 c6"), None)
    assert record.startswith(
        '[Game "torii"]\n[ChallengerSpirit "Deer"]\n[OppositionSpirit "Kitsune"]\n[Powers "off"]'
    )
    assert record.rstrip().endswith("C: 3 c3 c4 c6")


def test_ti20_perft_from_the_start_without_powers() -> None:
    game = new(powers=False)
    assert [TORII.perft(game, depth) for depth in (1, 2, 3)] == [31, 1215, 7440]


def test_ti20_perft_with_powers_stays_as_published() -> None:
    """Our own figures (docs/TORII.md), kept so a change to the rules core shows."""
    game = new("Deer", "Kitsune")
    assert [TORII.perft(game, depth) for depth in (1, 2)] == [118, 6018]
