"""Turn posts tell each action in plain words beside its notation: moves, shots,
stances, cannon fire, game-level acts, and a hidden Assassin's public form, which says only
what its notation shows (the victims)."""

from __future__ import annotations

from positions import C, O, hidden, position, with_assassins

from rules.tora import Game

NAMES = ("ann", "bob")


def test_moves_shots_and_stances_in_words() -> None:
    g = Game()
    assert g.apply("A v5h7-v4h6").words(NAMES) == "ann's Archer moves v5h7-v4h6"
    assert g.apply("S v4h8 defend").words(NAMES) == (
        "ann's Soldier on v4h8 takes the defensive stance"
    )
    g.end_turn()
    assert g.apply("C v5h2 fire SW").words(NAMES) == "bob's Cannon on v5h2 fires south-west"
    assert g.resign(C).words(NAMES) == "ann resigns"


def test_a_shot_that_takes_names_the_victim() -> None:
    g = position((C, "A", "v5h7"), (O, "S", "v5h5"))
    event = g.apply("A v5h7 x v5h5")
    assert event.words(NAMES) == "ann's Archer on v5h7 shoots bob's Soldier on v5h5"


def test_a_hidden_assassin_is_told_only_by_its_victims() -> None:
    g = with_assassins(hidden(C, "v9h13"), (O, "S", "v9h11"))
    event = g.apply("X v9h13-v9h12 x v9h11")
    assert event.words(NAMES) == (
        "ann's Assassin moves v9h13-v9h12 and takes bob's Soldier on v9h11"
    )
    assert event.public().words(NAMES) == (
        "ann's hidden Assassin strikes unseen and takes bob's Soldier on v9h11"
    )
