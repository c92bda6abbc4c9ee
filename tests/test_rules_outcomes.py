"""How games end and how points are counted: R24 loss of command, R25 trapped, R26 resign and
draw, R27 points, R28 series to a target.

Positions are built by clearing a fresh Game and placing only the pieces a case needs, so each
test reads like a small diagram. Squares are written as in the rulings: ``v5h7``.
"""

from __future__ import annotations

import pytest
from positions import C, O, at, bare, begin, put, sq

from bot.i18n import speaking, word
from rules.tora import Game, IllegalAction, Side, jeopardy, trapped
from rules.tora.record import replay, write_record

# ---- building positions ----------------------------------------------------------------------


def texts(game: Game) -> list[str]:
    return [game.notation(action) for action in game.legal_actions()]


def refusal(game: Game, text: str) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        game.apply(text)
    return caught.value


# ---- R24 loss of command ---------------------------------------------------------------------
def test_r24_short_board_general_removed_at_round_end_challenger_wins():
    g = bare()
    put(g, C, "G", "v5h9")
    put(g, C, "A", "v5h6")
    put(g, O, "G", "v5h4")
    put(g, O, "A", "v1h1")
    begin(g)

    g.apply("A v5h6 x v5h4")
    g.end_turn()
    # Doomed, not removed: the round is not over and the doomed General can still act (R11).
    assert g.outcome() is None
    assert g.side == O
    assert at(g, "v5h4").doomed
    g.apply("G v5h4-v4h3")
    g.end_turn()

    assert str(g.outcome()) == "challenger wins (loss of command)"
    assert g.outcome().winner == C
    assert at(g, "v4h3") is None
    assert g.legal_actions() == []


def test_r24_short_board_opposition_removes_challenger_general_wins():
    g = bare()
    put(g, C, "G", "v5h9")
    put(g, O, "A", "v5h7")
    put(g, O, "G", "v5h1")
    begin(g)
    g.end_turn()

    g.apply("A v5h7 x v5h9")
    assert g.outcome() is None  # only at the end of the round
    g.end_turn()
    assert str(g.outcome()) == "opposition wins (loss of command)"
    assert g.scores() == (0, 8)


def test_r24_doomed_general_retaliates_in_the_same_round_tie():
    g = bare()
    put(g, C, "G", "v5h6")
    put(g, O, "G", "v5h4")
    begin(g)

    g.apply("G v5h6-v5h5 x v5h4")
    g.end_turn()  # R30's exception: only the doomed General threatens the attacker
    assert g.outcome() is None

    g.apply("G v5h4 x v5h5")  # the doomed General strikes back in the same round
    g.end_turn()
    outcome = g.outcome()
    assert outcome.winner is None
    assert str(outcome) == "tie (both sides lost command)"
    assert g.scores() == (8, 8)
    assert at(g, "v5h4") is None and at(g, "v5h5") is None


def long_ruler_dies(generals: list[str], rulers: tuple[str, str] = ("K", "K")) -> Game:
    """Long board: the Opposition's Archer removes the Challenger's Ruler on v9h17 in round 1."""
    g = bare("long", rulers=rulers)
    put(g, C, "R", "v9h17")
    for where in generals:
        put(g, C, "G", where)
    put(g, C, "A", "v1h10")
    put(g, O, "R", "v9h1")
    put(g, O, "A", "v9h15")
    begin(g)
    g.end_turn()
    g.apply("A v9h15 x v9h17")
    g.end_turn()
    return g


def test_r24_long_board_last_general_becomes_ruler_automatically():
    g = long_ruler_dies(["v4h14"], rulers=("Q", "K"))

    assert g.outcome() is None
    assert at(g, "v9h17") is None
    assert at(g, "v4h14").kind == "R"
    assert g.actions_left == 1  # one command piece left (R8)
    # No crown is asked for; the new Ruler moves like one (3 steps) and is written Q.
    assert not any(text.startswith("crown") for text in texts(g))
    exc = refusal(g, "crown v4h14")
    assert exc.rule == "R24"
    assert "no crown is due" in exc.reason
    assert g.apply("Q v4h14-v4h11").text == "Q v4h14-v4h11"


def test_r24_long_board_two_generals_crown_due_before_any_other_action():
    g = long_ruler_dies(["v4h14", "v14h13"])

    assert g.outcome() is None
    assert texts(g) == ["crown v4h14", "crown v14h13"]
    for text in ("A v1h10-v1h9", "G v4h14-v4h13"):
        exc = refusal(g, text)
        assert exc.rule == "R24"
        assert "crown one of your Generals before any other action" in exc.reason
        assert exc.allowed == ["crown v4h14", "crown v14h13"]
    exc = refusal(g, "crown v9h9")
    assert exc.rule == "R24"
    assert "v9h9 is not one of your Generals" in exc.reason

    # A turn may end without acting; the crown stays due.
    g.end_turn()
    g.end_turn()
    assert texts(g) == ["crown v4h14", "crown v14h13"]
    before = g.actions_left
    g.apply("crown v14h13")
    assert g.actions_left == before == 2  # crowning costs no action
    assert at(g, "v14h13").kind == "R"
    assert at(g, "v4h14").kind == "G"
    exc = refusal(g, "crown v4h14")
    assert exc.rule == "R24" and "no crown is due" in exc.reason
    g.apply("K v14h13-v14h10")
    turn = g.end_turn()
    assert turn.texts == ["crown v14h13", "K v14h13-v14h10"]


def test_r24_a_crown_on_the_short_board_is_refused_for_what_is_true_there():
    """The short board has no Ruler: losing the General loses the game. Regression: `crown
    v5h9` there was refused with "you crown a General only after your Ruler is removed",
    as if a Ruler stood on it."""
    exc = refusal(Game(), "crown v5h9")
    assert exc.rule == "R24"
    assert "no crown is due" in exc.reason and "Ruler is removed" not in exc.reason
    assert "the short board has no Ruler" in exc.reason


def test_r24_long_board_ruler_removed_without_general_loses():
    g = long_ruler_dies([])
    assert str(g.outcome()) == "opposition wins (loss of command)"


def test_r24_no_action_once_the_game_is_over():
    g = long_ruler_dies([])
    exc = refusal(g, "K v9h1-v9h2")
    assert exc.rule == "R24"
    assert "the game is over" in exc.reason
    with pytest.raises(IllegalAction) as caught:
        g.end_turn()
    assert caught.value.rule == "R24"


# ---- R25 trapped -----------------------------------------------------------------------------
def cornered(*extra: tuple[Side, str, str]) -> Game:
    """The Opposition's General in the corner v1h1. A Challenger Archer steps to v5h5: in two
    actions it reaches every square within 4 (the whole corner), and the Challenger's General on
    v9h9 covers the squares next to the Archer, so killing it does not help either."""
    g = bare()
    put(g, C, "G", "v9h9")
    put(g, O, "G", "v1h1")
    put(g, C, "A", "v7h7")
    for side, kind, where in extra:
        put(g, side, kind, where)
    begin(g)
    g.apply("A v7h7-v5h5")
    return g


def test_r25_general_with_no_saving_turn_loses_at_the_start_of_its_turn():
    g = cornered()
    assert g.outcome() is None
    g.end_turn()  # the Opposition's turn starts: it has no turn that saves its General
    assert str(g.outcome()) == "challenger wins (trapped)"
    assert g.legal_actions() == []


def test_r25_history_replayed_unjudged_is_judged_once_where_it_ends():
    """``skip_trapped`` (trusted replays) postpones R25 to ``judge_trapped``."""
    g = cornered()
    g.skip_trapped = True
    g.end_turn()
    assert g.outcome() is None
    g.judge_trapped()
    assert str(g.outcome()) == "challenger wins (trapped)"


def test_r25_an_undecided_search_lets_the_game_go_on(monkeypatch):
    # When the search for a saving turn runs out of its budget, nobody is declared trapped:
    # the game goes on (a truly trapped General is still lost at the next round end).
    monkeypatch.setattr(trapped, "TRAPPED_BUDGET", 0)
    g = cornered()
    g.end_turn()
    assert g.outcome() is None
    assert g.side == O


def test_r25_no_one_is_trapped_in_a_round_whose_end_reaches_the_series_target():
    """Regression: R25 counted only a lost command as a turn that never comes, so with the
    Challenger's 5th point due at this round's end (R28) the cornered Opposition was judged
    trapped, though whatever it does the series ends with the round and its General is in
    jeopardy of nothing."""
    g = bare(target=5)
    put(g, C, "G", "v9h9")
    put(g, O, "G", "v1h1")
    put(g, C, "A", "v7h7")
    put(g, O, "S", "v9h8")
    g.pos.score[0] = 4
    begin(g)
    g.apply("A v7h7-v5h5")  # corners the Opposition's General, as ``cornered`` does
    g.apply("G v9h9 x v9h8")  # the 5th point, booked at the round's end
    g.end_turn()
    assert g.outcome() is None and g.side == O
    g.end_turn()
    assert str(g.outcome()) == "challenger wins (reached the target of 5 points)"


def test_r25_general_in_jeopardy_with_an_escape_is_not_trapped():
    # An Opposition Archer on v7h5 can shoot the Challenger's Archer: that saves the General.
    g = cornered((O, "A", "v7h5"))
    g.end_turn()
    assert g.outcome() is None
    assert g.side == O
    assert jeopardy.in_jeopardy(jeopardy.next_turn(g.pos), sq(g, "v1h1"))
    g.apply("A v7h5 x v5h5")
    g.end_turn()
    assert g.outcome() is None
    assert g.side == C


def test_r25_dooming_the_enemy_king_is_no_escape_from_the_general_crowned_at_round_end():
    """Regression: R25 judged the Opposition's candidate turns against a round end without its
    crowning (R24), so dooming the Challenger's King and stopping 4 squares from its only
    General (reach 3 as a General, 5 as the Ruler it is crowned) passed for an escape."""
    g = bare("long")
    put(g, C, "R", "v9h12")
    put(g, C, "G", "v9h7")
    put(g, C, "A", "v9h4")
    put(g, O, "R", "v9h9")
    begin(g)
    g.end_turn()  # the Opposition's turn starts: its King's every turn ends in jeopardy
    assert str(g.outcome()) == "challenger wins (trapped)"


def test_r25_escape_by_moving_then_shooting_the_attacker_is_not_trapped():
    g = bare()
    put(g, C, "G", "v9h9")
    put(g, C, "A", "v3h6")
    put(g, O, "G", "v6h2")  # keeps the Challenger's General from attacking the Archer itself
    put(g, O, "A", "v7h3")
    begin(g, O)
    g.apply("A v7h3-v7h5")  # now 4 from the General on v9h9: in jeopardy
    g.end_turn()
    # The Challenger escapes with "A v3h6-v5h6 ; A v5h6 x v7h5", so it is not trapped.
    escape = g.copy()
    escape.result = None
    escape.apply("A v3h6-v5h6")
    escape.apply("A v5h6 x v7h5")
    escape.end_turn()
    assert escape.outcome() is None
    assert g.outcome() is None


def test_r25_only_doomed_command_pieces_left_the_round_plays_out():
    g = cornered((C, "A", "v3h3"))
    g.apply("A v3h3 x v1h1")  # the cornered General is now doomed as well
    g.end_turn()
    assert g.outcome() is None  # not trapped: its only command piece is doomed
    assert g.side == O
    g.apply("G v1h1-v2h2")  # the doomed General may still act
    g.end_turn()
    assert str(g.outcome()) == "challenger wins (loss of command)"


@pytest.mark.parametrize(
    ("free_general", "expected"),
    [(False, "challenger wins (trapped)"), (True, None)],
    ids=["ruler-alone", "general-far-away"],
)
def test_r25_long_board_every_command_piece_must_be_in_jeopardy(free_general, expected):
    g = bare("long")
    for where in ("v17h17", "v16h17", "v17h16"):  # three actions for the Challenger
        put(g, C, "R" if where == "v17h17" else "G", where)
    put(g, C, "A", "v7h7")
    put(g, C, "A", "v6h7")
    put(g, O, "R", "v1h1")
    if free_general:
        put(g, O, "G", "v17h1")
    begin(g)
    g.apply("A v7h7-v5h5")
    g.end_turn()
    assert (None if g.outcome() is None else str(g.outcome())) == expected


# ---- R26 resign and agree --------------------------------------------------------------------
def test_r26_resign_on_own_turn():
    g = Game()
    g.apply("resign")
    assert str(g.outcome()) == "opposition wins (resignation)"
    assert g.turns[-1].side == C and g.turns[-1].texts == ["resign"]
    assert g.legal_actions() == []


def test_r26_resign_on_own_turn_keeps_the_staged_actions_in_that_line():
    """Regression: the staged actions were dropped from the record but left staged."""
    g = Game()
    g.apply("A v5h7-v4h6")
    g.resign(C)
    assert g.turns[-1].texts == ["A v5h7-v4h6", "resign"] and g.staged() == []
    again = replay(write_record(g))
    assert again.turns[-1].texts == g.turns[-1].texts and again.outcome() == g.outcome()


def test_r26_resign_out_of_turn_keeps_the_staged_actions():
    g = Game()
    g.apply("A v5h7-v4h6")
    g.resign(O)  # the Opposition resigns during the Challenger's turn: it never ended
    assert str(g.outcome()) == "challenger wins (resignation)"
    assert [(t.side, t.texts) for t in g.turns] == [
        (C, ["A v5h7-v4h6", "unfinished"]),
        (O, ["resign"]),
    ]


def test_r26_resign_between_turns_and_after_some_rounds():
    g = Game()
    g.apply("A v5h7-v4h6")
    g.end_turn()
    g.end_turn()
    g.resign(O)  # on the Challenger's turn, nothing staged
    assert g.outcome().winner == C
    assert g.outcome().reason == "resignation"


def test_r12_an_unfinished_turn_is_discarded_never_played():
    """The host ends a match mid-turn (a resignation, an agreed draw, an abort): what the
    player to act staged never happened, a search (which cannot be undone) included."""
    g = Game()
    g.apply("A v5h7-v4h6")
    g.apply("G v5h9-v4h9")
    before = g.view_for(None)
    assert g.discard_turn() == ["A v5h7-v4h6", "G v5h9-v4h9"]
    assert g.staged() == [] and g.view_for(C).pieces == before.pieces
    g.resign(O)
    assert [(t.side, t.texts) for t in g.turns] == [(O, ["resign"])]


def test_r12_a_forfeit_discards_the_turn_and_is_recorded_as_such():
    g = Game()
    g.apply("A v5h7-v4h6")
    g.forfeit(C)
    assert str(g.outcome()) == "opposition wins (forfeit)"
    assert [(t.side, t.texts) for t in g.turns] == [(C, ["forfeit"])]
    record = write_record(g)
    assert '[Termination "forfeit"]' in record and record.rstrip().endswith("C: forfeit")
    again = replay(record)
    assert again.outcome() == g.outcome() and again.turns[-1].texts == ["forfeit"]
    with pytest.raises(IllegalAction, match="the game is over"):
        g.forfeit(O)


def test_r12_a_forfeit_after_an_empty_turn_replays():
    g = Game()
    g.end_turn()  # ann's turn ends empty at its deadline (R30 took everything back)...
    g.forfeit(C)  # ...and that was one missed turn too many
    again = replay(write_record(g))
    assert [t.texts for t in again.turns] == [[], ["forfeit"]]
    assert again.outcome() == g.outcome()


def test_r26_agreed_draw():
    g = Game()
    g.apply("A v5h7-v4h6")
    g.apply("draw")
    outcome = g.outcome()
    assert outcome.winner is None
    assert str(outcome) == "tie (agreed draw)"
    assert g.turns[-1].texts == ["A v5h7-v4h6", "draw"]


def test_r26_nothing_to_resign_or_agree_after_the_game_ended():
    g = Game()
    g.agree_draw()
    with pytest.raises(IllegalAction) as caught:
        g.resign(C)
    assert caught.value.rule == "R26"
    assert "the game is over" in caught.value.reason
    with pytest.raises(IllegalAction):
        g.agree_draw()


def _resigned() -> Game:
    g = Game()
    g.resign(C)
    return g


def _agreed() -> Game:
    g = Game()
    g.agree_draw()
    return g


def _forfeited() -> Game:
    g = Game()
    g.forfeit(C)
    return g


def _trapped() -> Game:
    g = cornered()
    g.end_turn()
    return g


@pytest.mark.parametrize(
    ("ended", "rule"),
    [
        (_resigned, "R26"),
        (_agreed, "R26"),
        (_forfeited, "R12"),
        (_trapped, "R25"),
        (lambda: general_falls(target=8), "R28"),
        (lambda: long_ruler_dies([]), "R24"),
    ],
)
def test_r26_an_action_after_the_end_cites_the_ruling_that_ended_the_game(ended, rule):
    """Regression: "the game is over: ..." cited R24 (loss of command) however the game had
    ended: after a resignation, an agreed draw, a forfeit, a trap or a series' target too."""
    g = ended()
    assert g.outcome() is not None
    with pytest.raises(IllegalAction) as caught:
        g.resign(O)
    assert caught.value.rule == rule, str(caught.value)
    assert "the game is over" in caught.value.reason


def test_r26_the_game_over_refusal_names_the_winner_as_the_rule_book_does_in_every_language():
    """Regression: "the game is over: {side} wins" put the side's lowercase id into every
    language ("das Spiel ist vorbei: challenger gewinnt"); it is the rule book's term."""
    g = long_ruler_dies([])
    with pytest.raises(IllegalAction) as caught:
        g.resign(O)
    assert "Challenger wins" in caught.value.reason or "Opposition wins" in caught.value.reason
    with speaking("de"):
        worded = word(caught.value.reason)
    assert "challenger" not in worded and "opposition" not in worded, worded


# ---- R27 points ------------------------------------------------------------------------------
def shoot_one(board: str, kind: str, **options) -> Game:
    """The Challenger's Archer on v3h5 shoots an Opposition piece of ``kind`` on v3h3."""
    g = bare(board, **options)
    command = "G" if board == "short" else "R"
    put(g, C, command, "v9h9" if board == "short" else "v9h17")
    put(g, C, "A", "v3h5")
    put(g, O, kind, "v3h3")
    if kind not in ("G", "R"):
        put(g, O, command, "v9h1")
    elif board == "long":
        put(g, O, "G" if kind == "R" else "R", "v17h1")
    begin(g)
    g.apply("A v3h5 x v3h3")
    return g


@pytest.mark.parametrize(
    ("board", "kind", "value"),
    [
        ("short", "S", 1),
        ("short", "A", 1),
        ("short", "C", 3),
        ("short", "G", 8),
        ("long", "H", 3),
        ("long", "C", 3),
        ("long", "G", 8),
        ("long", "R", 8),
    ],
)
def test_r27_points_without_assassins_booked_at_round_end(board, kind, value):
    g = shoot_one(board, kind)
    assert g.pending() == (value, 0)
    assert g.scores() == (0, 0)
    g.end_turn()
    assert g.pending() == (value, 0)  # still the same round
    assert g.scores() == (0, 0)
    g.end_turn()
    assert g.scores() == (value, 0)
    assert g.pending() == (0, 0)


@pytest.mark.parametrize(
    ("kind", "value"),
    [("S", 1), ("A", 1), ("C", 2), ("H", 3), ("X", 5), ("G", 7), ("R", 7)],
)
def test_r27_points_with_assassins(kind, value):
    g = shoot_one("long", kind, assassins=True)
    assert g.pending() == (value, 0)
    g.end_turn()
    g.end_turn()
    assert g.scores() == (value, 0)


def test_r27_both_sides_score_in_one_round():
    g = bare()
    put(g, C, "G", "v9h9")
    put(g, O, "G", "v9h1")
    put(g, C, "A", "v3h5")
    put(g, O, "C", "v3h3")
    put(g, O, "A", "v1h7")
    put(g, C, "S", "v1h9")
    begin(g)
    g.apply("A v3h5 x v3h3")
    g.end_turn()
    g.apply("A v1h7 x v1h9")
    assert g.pending() == (3, 1)
    assert g.scores() == (0, 0)
    g.end_turn()
    assert g.scores() == (3, 1)


def test_r27_attacking_a_doomed_general_again_scores_nothing_more():
    g = bare()
    put(g, C, "G", "v9h9")
    put(g, C, "A", "v3h5")
    put(g, C, "A", "v1h5")
    put(g, O, "G", "v2h3")
    begin(g)
    g.apply("A v3h5 x v2h3")
    g.apply("A v1h5 x v2h3")
    assert g.pending() == (8, 0)
    g.end_turn()
    g.end_turn()
    assert g.scores() == (8, 0)


def test_r27_points_of_the_running_round_are_booked_when_the_game_ends_mid_round():
    g = shoot_one("short", "C")
    assert g.scores() == (0, 0)
    g.resign(O)
    assert g.scores() == (3, 0)
    assert g.pending() == (0, 0)


@pytest.mark.parametrize(
    ("board", "setup", "assassins", "total"),
    [
        ("short", "aggressive", False, 16),
        ("short", "defensive", False, 16),
        ("long", "aggressive", False, 60),
        ("long", "defensive", False, 60),
        # The Assassin (5) is placed privately before round 1 and is not on the public board.
        ("long", "aggressive", True, 60 - 5),
    ],
)
def test_r27_whole_army_totals(board, setup, assassins, total):
    g = Game(board=board, challenger_setup=setup, opposition_setup=setup, assassins=assassins)
    for side in Side:
        army = [p for p in g.pieces() if p.side == side]
        assert sum(g.pos.values[p.kind] for p in army) == total


# ---- R28 series to a target ------------------------------------------------------------------
def general_falls(target: int, retaliate: bool = False) -> Game:
    """Round 1: the Challenger's Archer dooms the Opposition's General; with ``retaliate`` the
    Opposition's Archer dooms the Challenger's General in reply."""
    g = bare(target=target)
    put(g, C, "G", "v5h9")
    put(g, C, "A", "v5h6")
    put(g, O, "G", "v5h4")
    put(g, O, "A", "v5h7")
    begin(g)
    g.apply("A v5h6 x v5h4")
    g.end_turn()
    g.apply("A v5h7 x v5h9" if retaliate else "A v5h7-v6h7")
    g.end_turn()
    return g


def test_r28_loss_of_command_starts_a_new_game_with_points_carried():
    g = general_falls(target=20)
    assert g.outcome() is None
    assert g.scores() == (8, 0)
    assert g.game_number == 2
    # A fresh short board: 7 pieces each, the Challenger to act with 2 actions.
    assert len(g.pieces()) == 14
    assert at(g, "v5h9").kind == "G" and at(g, "v5h1").kind == "G"
    assert g.side == C
    assert g.actions_left == 2
    assert "A v5h7-v4h6" in texts(g)


def test_r28_both_lose_command_in_a_series_also_starts_a_new_game():
    g = general_falls(target=20, retaliate=True)
    assert g.outcome() is None
    assert g.scores() == (8, 8)
    assert g.game_number == 2


def test_r28_reaching_the_target_ends_the_match():
    g = general_falls(target=8)
    assert str(g.outcome()) == "challenger wins (reached the target of 8 points)"
    assert g.scores() == (8, 0)
    assert g.game_number == 1


def test_r28_both_reaching_the_target_is_a_tie():
    g = general_falls(target=8, retaliate=True)
    assert g.outcome().winner is None
    assert str(g.outcome()) == "tie (both reached the target of 8)"


def test_r28_without_a_target_loss_of_command_ends_the_game():
    g = general_falls(target=0)
    assert str(g.outcome()) == "challenger wins (loss of command)"


def test_r28_trapped_ends_the_series():
    g = bare(target=20)
    put(g, C, "G", "v9h9")
    put(g, O, "G", "v1h1")
    put(g, C, "A", "v7h7")
    begin(g)
    g.apply("A v7h7-v5h5")
    g.end_turn()
    assert str(g.outcome()) == "challenger wins (trapped)"
    assert g.game_number == 1


def test_r28_reset_on_the_long_board_with_a_player_down_to_one_action():
    g = bare("long", target=30)
    put(g, C, "R", "v9h17")  # the Challenger is down to 1 action
    put(g, C, "A", "v5h5")
    put(g, O, "R", "v9h1")
    put(g, O, "G", "v1h1")
    put(g, O, "A", "v5h3")
    begin(g)
    assert g.actions_left == 1
    g.apply("A v5h5 x v5h3")
    g.apply("reset")  # proposed and agreed
    assert g.outcome() is None
    assert g.scores() == (1, 0)  # the running round's points are booked
    assert g.pending() == (0, 0)
    assert len(g.pieces()) == 54  # a fresh long board
    assert g.side == C
    assert g.actions_left == 3
    assert g.game_number == 2
    assert g.turns[-1].texts == ["A v5h5 x v5h3", "reset"]


@pytest.mark.parametrize(
    ("board", "target", "drop_generals"),
    [("short", 30, False), ("long", 0, True), ("long", 30, False)],
    ids=["short-board", "no-target", "nobody-down-to-one-action"],
)
def test_r28_reset_refused(board, target, drop_generals):
    g = Game(board=board, target=target)
    if drop_generals:
        for piece in g.pieces():
            if piece.side == C and piece.kind == "G":
                g.pos.remove(piece.id)
        begin(g)
    exc = refusal(g, "reset")
    assert exc.rule == "R28"
    assert "needs a series to a point target on the long board" in exc.reason
    assert "down to 1 action" in exc.reason
    with pytest.raises(IllegalAction) as caught:
        g.agree_reset()
    assert caught.value.rule == "R28"
    assert g.outcome() is None
