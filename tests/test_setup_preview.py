"""The board a player answers a square's setup question on: their own side as their answers
so far set it up, and nothing of the opponent's, whose answers are secret until the start."""

from __future__ import annotations

from rules import Side, game_type

TORA = game_type("tora")
LONG = TORA.check_options({"board": "long", "assassins": True})


def test_a_tora_setup_preview_shows_only_the_players_own_army() -> None:
    for side in Side:
        view = TORA.setup_preview(LONG, side, {"strategy": "defensive", "ruler": "Q"})
        assert view.pieces and {piece.side for piece in view.pieces} == {side}


def test_a_tora_setup_preview_puts_the_chosen_assassin_on_its_square() -> None:
    answers = {"strategy": "aggressive", "ruler": "K"}
    squares, _why = TORA.offered(LONG, Side.CHALLENGER, answers, "assassin")
    square = squares[0]
    view = TORA.setup_preview(LONG, Side.CHALLENGER, answers | {"assassin": square})
    assassins = [piece for piece in view.pieces if piece.kind == "X"]
    assert len(assassins) == 1 and assassins[0].hidden


def test_answers_that_do_not_go_together_show_the_start_not_a_refusal() -> None:
    answers = {"strategy": "aggressive", "ruler": "K", "assassin": "v9h9"}  # not a home square
    view = TORA.setup_preview(LONG, Side.OPPOSITION, answers)
    assert {piece.side for piece in view.pieces} == {Side.OPPOSITION}
    assert not [piece for piece in view.pieces if piece.kind == "X"]
