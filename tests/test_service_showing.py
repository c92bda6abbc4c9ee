"""What the service says of a finished turn besides its actions (``showing.turn_notes``),
on TORA positions built for the case: doomed pieces removed at the end of a round, and an
Assassin's record made public in the post of the turn that revealed it, and only there."""

from __future__ import annotations

from positions import C, O, bare, begin, hidden, put, with_assassins
from test_torii_positions import LINES_GAME, make

from bot.service import showing

NAMES = ("ann", "bob")


def test_doomed_pieces_are_named_with_their_owner_and_kind() -> None:
    g = bare()
    put(g, C, "G", "v5h9")
    put(g, C, "A", "v5h6")
    put(g, O, "G", "v5h4")
    put(g, O, "G", "v9h1")
    begin(g)
    g.apply("A v5h6 x v5h4")
    g.end_turn()
    g.apply("G v9h1-v8h1")
    g.end_turn()
    notes = showing.turn_notes(g.view_for(None), NAMES, 1)
    assert notes == ["At the end of the round, doomed pieces are removed: bob's General on v5h4."]


def test_a_revealed_assassins_record_is_told_once() -> None:
    g = with_assassins(hidden(O, "v9h11"), hidden(C, "v9h5"), (C, "G", "v9h13"), (O, "G", "v9h3"))
    g.apply("G v9h13-v9h12 search")  # finds bob's Assassin on v9h11
    g.end_turn()
    first = showing.turn_notes(g.view_for(None), NAMES, 1)
    assert first == ["bob's Assassin is revealed, so its record is public now (R44): start v9h11."]
    g.apply("G v9h3-v9h4 search")  # finds ann's on v9h5
    g.end_turn()
    second = showing.turn_notes(g.view_for(None), NAMES, 1)
    assert second == ["ann's Assassin is revealed, so its record is public now (R44): start v9h5."]


def test_a_decision_in_the_opponents_turn_says_what_is_decided() -> None:
    game = make(LINES_GAME, spirits="Ka2,Mf6", tiles="1,123")
    game.apply("1 a3 build b3")
    game.end_turn()
    view = game.view_for(None)
    assert view.deciding
    assert showing.to_act(view) == (
        "1 decision in the opponent's turn, the Monkey's: flip either player's tile 1 (used "
        "to unused or back), or neither (TI15)"
    )
    game.apply("flip none")
    game.end_turn()
    assert showing.to_act(game.view_for(None)) == "a move"
