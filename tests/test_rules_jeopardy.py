"""Jeopardy: R29 (the definition, judged against the opponent's real next turn) and R30 (an
operated command piece may not end its turn in jeopardy), after rule book chapter 11.

Positions are built by clearing a fresh Game and placing only the pieces a case needs.
"""

from __future__ import annotations

import pytest
from positions import C, O, at, bare, begin, put, sq

from rules.tora import Game, IllegalAction, Side, jeopardy
from rules.tora.hosting import skipping_trapped

# ---- building positions ----------------------------------------------------------------------


def threatened(game: Game, where: str) -> bool:
    """R29: is the piece on ``where`` in jeopardy if the side to act ended its turn now?"""
    return jeopardy.in_jeopardy(jeopardy.next_turn(game.pos), sq(game, where))


def end_refused(game: Game) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        game.end_turn()
    return caught.value


def short_generals(opposition_general: str = "v5h1") -> Game:
    """The Challenger's General on v5h9, the Opposition's far away."""
    g = bare()
    put(g, C, "G", "v5h9")
    put(g, O, "G", opposition_general)
    return begin(g)


# ---- R29: multi-action threats against the opponent's real next turn -------------------------
@pytest.mark.parametrize(
    ("defending", "where", "expected"),
    [
        (True, "v5h8", True),  # switch to attack, then land on the General
        (True, "v5h7", False),  # switching leaves one action: one step is not enough
        (False, "v5h7", True),  # two steps, the second lands on it
        (False, "v5h6", False),  # three steps away
    ],
    ids=["defending-adjacent", "defending-2-away", "attacking-2-away", "attacking-3-away"],
)
def test_r29_soldier_threat_counts_stance_switch_and_steps(defending, where, expected):
    g = short_generals()
    put(g, O, "S", where, defending=defending)
    begin(g)
    assert threatened(g, "v5h9") is expected


@pytest.mark.parametrize(
    ("ready", "supporters", "expected"),
    [
        (True, ["v4h3", "v6h3"], True),  # fire down the line v5
        (True, ["v4h3"], False),  # one supporter is not enough (R19)
        (True, ["v4h3", "v3h3"], True),  # a second one steps next to it, then it fires
        (False, ["v4h3", "v6h3"], False),  # readying spends both supporters (R19, R22)
        (False, ["v4h3", "v6h3", "v4h2"], False),
        (False, ["v4h3", "v6h3", "v4h2", "v6h2"], True),  # ready with two, fire with two more
    ],
    ids=["ready", "ready-1", "ready-1-plus-1-arriving", "unready-2", "unready-3", "unready-4"],
)
def test_r29_cannon_readied_then_fired(ready, supporters, expected):
    g = short_generals(opposition_general="v1h1")
    put(g, O, "C", "v5h3", ready=ready)
    for where in supporters:
        put(g, O, "S", where)
    begin(g)
    assert threatened(g, "v5h9") is expected


@pytest.mark.parametrize(
    ("helper", "expected"),
    [(None, False), ("v7h6", True)],
    ids=["cannon-alone", "archer-kills-the-blocker"],
)
def test_r29_blocker_killed_then_a_shot(helper, expected):
    g = short_generals()
    put(g, O, "C", "v5h3")
    put(g, O, "S", "v4h3")
    put(g, O, "S", "v6h3")
    put(g, C, "S", "v5h6")  # the Challenger's own Soldier stands in the line of fire
    if helper:
        put(g, O, "A", helper)
    begin(g)
    # Firing at the blocker leaves the Cannon unready; an Archer can clear it instead.
    assert threatened(g, "v5h9") is expected


@pytest.mark.parametrize(
    ("kind", "where", "expected"),
    [
        ("A", "v5h5", True),  # move 2, then shoot 2
        ("A", "v5h4", False),
        ("G", "v5h4", True),  # move 2, then move 2 and strike 1
        ("G", "v5h3", False),
    ],
)
def test_r29_reach_over_two_actions(kind, where, expected):
    g = bare()
    put(g, C, "G", "v5h9")
    put(g, O, kind, where)
    if kind != "G":
        put(g, O, "G", "v1h1")
    begin(g)
    assert threatened(g, "v5h9") is expected


def test_r29_threat_is_noticed_when_ending_the_turn():
    g = short_generals()
    put(g, O, "S", "v5h6")  # attack stance: two steps reach v5h8
    begin(g)
    g.apply("G v5h9-v5h8")
    exc = end_refused(g)
    assert exc.rule == "R30"
    assert "G v5h8" in exc.reason
    g.undo()
    g.apply("G v5h9-v6h9")  # three steps from the Soldier: safe
    g.end_turn()
    assert g.side == O


def test_r29_doomed_enemy_general_counts_at_the_end_of_the_challengers_turn():
    g = bare()
    put(g, C, "G", "v5h7")
    put(g, C, "A", "v3h4")
    put(g, O, "G", "v5h4")
    begin(g)
    g.apply("A v3h4 x v5h4")  # the Opposition's General is doomed but acts next turn
    g.apply("G v5h7-v5h5")  # next to it: in jeopardy from the doomed General
    exc = end_refused(g)
    assert exc.rule == "R30"
    assert "G v5h5" in exc.reason
    g.undo()
    g.end_turn()
    assert g.side == O


@pytest.mark.parametrize("doomed", [True, False], ids=["doomed", "alive"])
def test_r29_doomed_general_does_not_count_at_the_end_of_the_oppositions_turn(doomed):
    g = bare()
    put(g, C, "G", "v5h7")
    put(g, O, "A", "v3h6" if doomed else "v1h1")
    put(g, O, "G", "v5h4")
    begin(g)
    g.end_turn()
    if doomed:
        g.apply("A v3h6 x v5h7")
    g.apply("G v5h4-v5h6")  # next to the Challenger's General
    if doomed:
        g.end_turn()  # the round ends first: the doomed General is gone before it could act
        assert str(g.outcome()) == "opposition wins (loss of command)"
    else:
        exc = end_refused(g)
        assert exc.rule == "R30" and "G v5h6" in exc.reason


def long_doom_then_move(doom: bool) -> Game:
    """Long board, the Opposition to act with 2 actions. Its Archer may doom the Challenger's
    General; then its King moves 3 from the Challenger's Archer on v9h6."""
    g = bare("long")
    put(g, C, "R", "v17h17")
    put(g, C, "G", "v9h10")
    put(g, C, "A", "v9h6")
    put(g, O, "R", "v9h1")
    put(g, O, "G", "v1h17")
    put(g, O, "A", "v9h8")
    begin(g, O)
    if doom:
        g.apply("A v9h8 x v9h10")
    g.apply("K v9h1-v9h3")
    return g


def test_r29_judged_with_the_actions_the_opponent_will_really_have():
    # The doomed General is removed when the round ends, so the Challenger will have 1 action:
    # its Archer then cannot reach a King 3 squares away.
    g = long_doom_then_move(doom=True)
    g.end_turn()
    assert g.side == C
    assert g.actions_left == 1
    # With both of its command pieces alive the Challenger has 2 actions: move 1, shoot 2.
    g = long_doom_then_move(doom=False)
    exc = end_refused(g)
    assert exc.rule == "R30" and "K v9h3" in exc.reason


def test_r29_doomed_command_pieces_still_give_actions_after_the_challengers_turn():
    g = bare("long")
    put(g, C, "R", "v9h17")
    put(g, C, "G", "v17h1")
    put(g, C, "A", "v9h10")
    put(g, O, "R", "v1h1")
    put(g, O, "G", "v9h8")
    put(g, O, "A", "v9h12")
    begin(g)
    g.apply("A v9h10 x v9h8")  # doomed, but it still counts for the Opposition's 2 actions
    g.apply("K v9h17-v9h15")  # 3 from the Opposition's Archer: move 1, then shoot 2
    exc = end_refused(g)
    assert exc.rule == "R30" and "K v9h15" in exc.reason


@pytest.mark.parametrize(
    ("generals", "start", "to"),
    [(("v9h12",), "v9h6", "v9h8"), (("v9h12", "v17h1"), "v9h4", "v9h6")],
    ids=["one General crowned at once", "a crown due first"],
)
def test_r30_judges_the_opposition_turn_end_against_the_general_crowned_at_round_end(
    generals, start, to
):
    """Regression: at the end of the Opposition's turn the round's end was judged without its
    crowning (R24), so the Challenger's General about to become its Ruler threatened only as a
    General would (move 2, attack 1) and the Opposition's General could end the turn within the
    new Ruler's reach (move 3, attack 2). With several Generals the crown due first was ignored."""
    g = bare("long")
    put(g, C, "R", "v17h17")
    for where in generals:
        put(g, C, "G", where)
    put(g, O, "R", "v1h1")
    put(g, O, "G", start)
    put(g, O, "A", "v16h15")
    begin(g, O)
    g.apply("A v16h15 x v17h17")  # dooms the Challenger's King
    g.apply(f"G {start}-{to}")  # out of a General's reach, within a Ruler's
    exc = end_refused(g)
    assert exc.rule == "R30" and f"G {to}" in exc.reason
    g.undo()
    g.end_turn()


def test_r30_a_turn_ended_when_it_was_played_is_not_judged_again_when_its_log_is_replayed():
    """A stored match is replayed from its log when it loads (whole, when the rules' state
    changed shape): a turn its player ended was judged by R30 then. A later correction of
    R30 that refuses it (the crowning above) must not leave the match unloadable: replaying
    a judged log takes the turn end as it was; played live, it is refused."""
    g = bare("long")
    put(g, C, "R", "v17h17")
    put(g, C, "G", "v9h12")
    put(g, O, "R", "v1h1")
    put(g, O, "G", "v9h6")
    put(g, O, "A", "v16h15")
    begin(g, O)
    g.apply("A v16h15 x v17h17")
    g.apply("G v9h6-v9h8")
    assert end_refused(g).rule == "R30"
    with skipping_trapped(g):  # how the store replays a match's log
        g.end_turn()
    assert g.side == C and not g.judged_log


# ---- R30 the restriction ---------------------------------------------------------------------
def test_r30_operated_general_may_not_end_in_jeopardy_and_undo_works():
    g = short_generals()
    put(g, O, "A", "v5h5")
    begin(g)
    g.apply("G v5h9-v5h7")
    exc = end_refused(g)
    assert exc.rule == "R30"
    assert exc.reason.startswith("the turn cannot end: G v5h7 moved or attacked this turn")
    assert "would be in jeopardy" in exc.reason
    assert exc.allowed == ["undo (G v5h9-v5h7)"]
    assert g.side == C and g.staged() == ["G v5h9-v5h7"]  # nothing was ended
    assert g.undo() == "G v5h9-v5h7"
    g.end_turn()
    assert g.side == O


def test_r30_take_back_an_earlier_action_then_end():
    g = short_generals()
    put(g, O, "A", "v5h5")
    put(g, C, "A", "v1h9")
    begin(g)
    g.apply("G v5h9-v5h7")
    g.apply("A v1h9-v1h8")
    assert end_refused(g).rule == "R30"
    g.take_back(0)
    assert g.staged() == ["A v1h9-v1h8"]
    assert g.end_turn().texts == ["A v1h9-v1h8"]


def test_r30_command_piece_not_operated_may_stay_in_jeopardy():
    g = short_generals()
    put(g, O, "A", "v5h7")  # already threatens the General
    put(g, C, "A", "v1h9")
    begin(g)
    assert threatened(g, "v5h9")
    g.apply("A v1h9-v1h8")
    turn = g.end_turn()
    assert turn.texts == ["A v1h9-v1h8"]
    assert g.side == O


def test_r30_general_removing_its_threat_may_end_the_turn():
    g = short_generals()
    put(g, O, "S", "v5h7")  # two steps from the General
    begin(g)
    assert threatened(g, "v5h9")
    g.apply("G v5h9-v5h8 x v5h7")
    g.end_turn()
    assert g.side == O
    assert g.pending() == (1, 0)


def test_r30_deadline_drops_the_actions_that_break_it():
    g = short_generals()
    put(g, O, "A", "v5h5")
    put(g, C, "A", "v1h9")
    begin(g)
    g.apply("A v1h9-v1h8")
    g.apply("G v5h9-v5h7")
    turn = g.end_turn(deadline=True)
    assert turn.texts == ["A v1h9-v1h8"]
    assert at(g, "v5h9").kind == "G"


def challenger_slays(*extra: tuple[Side, str, str]) -> Game:
    g = bare()
    put(g, C, "G", "v5h6")
    put(g, O, "G", "v5h4")
    for side, kind, where in extra:
        put(g, side, kind, where)
    begin(g)
    g.apply("G v5h6-v5h5 x v5h4")
    return g


def test_r30_challenger_slayer_may_end_next_to_the_doomed_general():
    g = challenger_slays()
    g.end_turn()
    assert g.side == O
    assert at(g, "v5h5").kind == "G" and at(g, "v5h4").doomed


def test_r30_challenger_exception_fails_when_a_standard_piece_also_threatens():
    g = challenger_slays((O, "A", "v3h5"))
    exc = end_refused(g)
    assert exc.rule == "R30"
    assert "G v5h5" in exc.reason
    g.undo()
    g.end_turn()


def test_r30_challenger_exception_fails_when_the_doomed_general_clears_a_cannon_line():
    # The doomed General steps aside and the Cannon behind it fires: the final attacker is a
    # standard piece, so the exception does not apply (engine's reading of "every piece").
    g = challenger_slays((O, "C", "v5h2"), (O, "S", "v4h2"), (O, "S", "v6h2"))
    exc = end_refused(g)
    assert exc.rule == "R30" and "G v5h5" in exc.reason


def test_r30_exception_needs_the_command_piece_itself_to_attack():
    g = bare()
    put(g, C, "G", "v5h7")
    put(g, C, "A", "v3h3")
    put(g, O, "G", "v5h4")
    begin(g)
    g.apply("A v3h3 x v5h4")  # the Archer, not the General, dooms it
    g.apply("G v5h7-v5h5")
    assert end_refused(g).rule == "R30"


def opposition_slays(*extra: tuple[Side, str, str]) -> Game:
    """Long board: the Opposition's General dooms the Challenger's General and stays next to it;
    the Challenger keeps its King, so the game goes on."""
    g = bare("long")
    put(g, C, "R", "v17h17")
    put(g, C, "G", "v9h10")
    put(g, O, "R", "v1h1")
    put(g, O, "G", "v9h8")
    for side, kind, where in extra:
        put(g, side, kind, where)
    begin(g)
    g.end_turn()
    g.apply("G v9h8-v9h9 x v9h10")
    return g


def test_r30_opposition_next_to_its_doomed_victim_is_safe():
    g = opposition_slays()
    g.end_turn()
    assert g.outcome() is None
    assert g.side == C
    assert at(g, "v9h10") is None


def test_r30_opposition_has_no_exception():
    g = opposition_slays((C, "A", "v7h11"))  # shoots v9h9 with the Challenger's 1 action
    exc = end_refused(g)
    assert exc.rule == "R30"
    assert "G v9h9" in exc.reason


def test_r30_opposition_killing_the_last_general_may_end_within_reach_of_a_dying_side():
    # R29 judges the opponent's next turn as it will really be: the Challenger loses command
    # when this round ends and never gets that turn, so nothing threatens the striking General.
    g = bare()
    put(g, C, "G", "v5h6")
    put(g, C, "A", "v5h9")
    put(g, O, "G", "v5h3")
    put(g, O, "A", "v1h1")
    begin(g)
    g.end_turn()
    g.apply("G v5h3-v5h5 x v5h6")
    g.end_turn()
    assert str(g.outcome()) == "opposition wins (loss of command)"


def test_r30_no_jeopardy_when_the_round_end_reaches_the_series_target():
    """Regression: only a lost command counted as the opponent getting no next turn, so
    when the Opposition's turn closes a round whose points reach the series' target (R28)
    and the Challenger never plays again, its General stepping within reach of a Challenger
    Archer was refused (R30)."""
    g = bare("short", target=5)
    put(g, C, "G", "v9h9")
    put(g, C, "S", "v5h5")
    put(g, C, "A", "v1h5")
    put(g, O, "G", "v1h1")
    put(g, O, "A", "v5h3")
    g.pos.score[1] = 4
    begin(g, O)
    g.apply("A v5h3 x v5h5")  # the 5th point, booked at the round's end
    g.apply("G v1h1-v1h3")  # 2 from the Challenger's Archer
    g.end_turn()
    assert str(g.outcome()) == "opposition wins (reached the target of 5 points)"


def test_r30_doomed_command_pieces_are_exempt():
    g = bare("long")
    put(g, C, "R", "v9h17")
    put(g, C, "A", "v9h4")
    put(g, C, "A", "v12h5")
    put(g, O, "R", "v1h1")
    put(g, O, "G", "v9h2")
    begin(g)
    g.apply("A v9h4 x v9h2")
    g.end_turn()
    g.apply("G v9h2-v11h4")  # doomed, and next to the Archer on v12h5: allowed
    g.end_turn()
    assert g.outcome() is None
    assert at(g, "v11h4") is None  # removed at the end of the round


def test_r30_refusal_names_every_offender():
    g = bare("long")
    put(g, C, "R", "v9h17")
    put(g, C, "G", "v4h14")
    put(g, O, "R", "v1h1")
    put(g, O, "G", "v17h1")  # two actions for the Opposition
    put(g, O, "A", "v6h11")
    begin(g)
    g.apply("K v9h17-v8h14")
    g.apply("G v4h14-v5h13")
    exc = end_refused(g)
    assert exc.rule == "R30"
    assert "K v8h14, G v5h13" in exc.reason
