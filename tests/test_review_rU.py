"""Review rU: TORA's rules (rules/tora) against the rule book and rulings R1-R51.

Each test fails on a bug a player would notice; its docstring says what the player sees
and what they should see.
"""

from __future__ import annotations

import pytest
from positions import C, O, hidden, occupant, position, sq, with_assassins

from rules.tora import ActionError


def _refusal(game, text: str) -> str:
    with pytest.raises(ActionError) as info:
        game.apply(text)
    return str(info.value)


def test_r43_r51_an_attack_then_search_is_not_refused_for_a_forest_that_is_not_there():
    """`A v9h12 x v9h10 search` (an attack and a search in one action, which R51 has no form
    for: a search follows at most a move) is read as a search with a target and refused with
    "R32: every square this arrow could pass is forest" on a board with no terrain at all;
    the same with a 1-away target says the Archer "cannot make that attack", an attack it
    may make. The player should be told what is wrong: a search cannot follow an attack
    (R43, R51)."""
    g = with_assassins((C, "A", "v9h12"), (O, "A", "v9h10"), (O, "A", "v9h11"))
    assert not g.pos.terrain.forest
    for text in ("A v9h12 x v9h10 search", "A v9h12 x v9h11 search"):
        message = _refusal(g, text)
        assert "forest" not in message, message
        assert "cannot make that attack" not in message, message
        assert "search" in message.lower(), message


def test_r18_the_menu_says_a_cavalry_landing_on_a_defending_soldier_is_lost_with_it():
    """The Play menu offers `H v9h9-v9h8` onto an enemy defending Soldier as "move onto v9h8,
    taking the Soldier there"; picking it removes the Cavalry (3 points) along with the
    Soldier (1 point), a trade the label never mentions (R18: "removes both pieces"). The
    label should say the Cavalry is lost too."""
    g = position((C, "H", "v9h9"), (O, "S", "v9h8", {"defending": True}), board="long")
    choice = next(c for c in g.choices() if c.notation == "H v9h9-v9h8")
    event = g.copy().apply("H v9h9-v9h8")
    assert {(side, kind) for side, kind, _sq in event.removed} == {(O, "S"), (C, "H")}
    assert "Cavalry" in choice.label or "both" in choice.label, choice.label


def test_r11_the_menu_does_not_say_a_soldier_striking_a_general_moves_onto_it():
    """A Soldier next to an enemy General is offered `S v5h5-v5h4` as "move onto v5h4,
    taking the General there"; played, the Soldier stays on v5h5 and the General stays
    doomed on v5h4 until the round ends (R11; docs/RULES.md: it strikes from the square
    before, "a Soldier or Cavalry next to it stays where it is"), as the turn's own words
    say ("dooms the command piece on v5h4"). The label should not promise a move."""
    g = position((C, "S", "v5h5"), (O, "G", "v5h4"), (O, "G", "v9h9"), generals=False)
    choice = next(c for c in g.choices() if c.notation == "S v5h5-v5h4")
    played = g.copy()
    played.apply("S v5h5-v5h4")
    assert occupant(played, "v5h5") == ("C", "S") and occupant(played, "v5h4") == ("O", "G")
    assert "move onto v5h4" not in choice.label, choice.label


def test_r18_r42_a_turns_words_never_say_a_piece_takes_its_own_side():
    """The turn post's words list every piece an action removes as taken by the acting
    piece, its own side's losses included: a Cavalry trade (R18) reads "ann's Cavalry on
    v9h9 takes bob's Soldier on v9h8 and ann's Cavalry on v9h9", and a hidden Assassin
    that strikes a General from an enemy's square (revealed there and taken at once, R42,
    R43) reads "ann's Assassin on v9h11 takes ann's Assassin on v9h11 and dooms ...". The
    words should say the Cavalry is lost in the trade and the Assassin is taken by the
    enemy, not that a piece took itself."""
    names = ("ann", "bob")
    trade = position((C, "H", "v9h9"), (O, "S", "v9h8", {"defending": True}), board="long")
    words = str(trade.apply("H v9h9-v9h8").words(names))
    assert "and ann's Cavalry" not in words, words

    strike = with_assassins(hidden(C, "v9h11"), (O, "A", "v9h11"), (O, "G", "v9h10"))
    event = strike.apply("X v9h11 x v9h10")
    assert event.removed == ((C, "X", sq(strike, "v9h11")),)  # taken by bob's Archer there
    words = str(event.words(names))
    assert "takes ann's Assassin" not in words, words


def test_r21_a_cannon_told_to_attack_a_square_is_told_it_attacks_by_firing():
    """`C v5h5 x v5h3` (a ready, supported Cannon told to attack the enemy 2 squares west)
    is refused with "your Cannon on v5h5 cannot do that (R20)": no reason, and the ruling
    for a Cannon's move. A Soldier or Cavalry told the same is told how it attacks ("attacks
    only by landing on the enemy (write S v5h5-<square>)"); the Cannon's refusal should say
    it attacks only by firing in a direction (`C v5h5 fire W`, R21)."""
    g = position((C, "C", "v5h5"), (C, "S", "v4h5"), (C, "S", "v6h5"), (O, "A", "v5h3"))
    assert "C v5h5 fire W" in [g.notation(a) for a in g.legal_actions()]
    with pytest.raises(ActionError) as info:
        g.apply("C v5h5 x v5h3")
    message = str(info.value).split(" Allowed")[0]
    assert getattr(info.value, "rule", None) == "R21", message
    assert "fire" in message, message
