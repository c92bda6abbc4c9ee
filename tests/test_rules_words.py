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


def test_r18_r42_a_piece_is_never_said_to_take_its_own_side() -> None:
    """Every piece an action removed was told as taken by the acting piece, its own side's
    losses included: a Cavalry trade (R18) read "... takes bob's Soldier on v9h8 and ann's
    Cavalry on v9h9", and an Assassin revealed on an enemy's square as it strikes a General
    (R42, R43) "ann's Assassin on v9h11 takes ann's Assassin on v9h11 ...". The acting
    piece is now said to be lost, with any piece of its own that goes with it."""
    trade = position((C, "H", "v9h9"), (O, "S", "v9h8", {"defending": True}), board="long")
    assert trade.apply("H v9h9-v9h8").words(NAMES) == (
        "ann's Cavalry on v9h9 takes bob's Soldier on v9h8 and is lost"
    )
    taken = with_assassins(hidden(C, "v9h11"), (O, "A", "v9h11"), (O, "G", "v9h10"))
    assert taken.apply("X v9h11 x v9h10").words(NAMES) == (
        "ann's Assassin on v9h11 dooms bob's command piece on v9h10 and is lost "
        "(the Assassin is revealed on v9h11, on an enemy's square, and taken)"
    )
    shared = with_assassins(hidden(C, "v9h11"), (C, "S", "v9h11"), (O, "G", "v9h10"))
    assert shared.apply("X v9h11 x v9h10").words(NAMES) == (
        "ann's Assassin on v9h11 dooms bob's command piece on v9h10 and is lost with ann's "
        "Soldier on v9h11 (the Assassin is revealed on v9h11, sharing the square with its "
        "own Soldier: both are removed)"
    )


def test_r11_a_doomed_command_piece_is_named_with_its_side() -> None:
    """A turn post said "dooms the command piece on v9h10" and left spectators to work out
    whose General it was; it now names the side, as the words for a taken piece do."""
    g = with_assassins(hidden(C, "v9h12"), (O, "G", "v9h10"))
    assert g.apply("X v9h12-v9h11 x v9h10").words(NAMES) == (
        "ann's Assassin moves v9h12-v9h11 and dooms bob's command piece on v9h10 "
        "(the Assassin is revealed on v9h11)"
    )
