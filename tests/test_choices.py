"""What the seam's menus say of each legal action, in every game: labels that tell two actions
of one menu apart, the squares each action touches (which the panel's picture letters and the
web board lights), and TORA's warning before a command piece's move the turn could not end on
(R30)."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from positions import C, O, hidden, occupant, position, with_assassins

from rules import GameState, IllegalAction, game_type
from rules.protocol import FROM, HIT, ROLES, TO, VIA, WITH, Choice

STARTS = {
    "tora-short": (
        "tora",
        {"board": "short"},
        ({"strategy": "aggressive"}, {"strategy": "defensive"}),
    ),
    "tora-long": (
        "tora",
        {"board": "long", "assassins": True},
        (
            {"strategy": "aggressive", "ruler": "K", "assassin": "v3h17"},
            {"strategy": "defensive", "ruler": "Q", "assassin": "v15h1"},
        ),
    ),
    "torishogi": ("torishogi", {}, ({}, {})),
    "torii": ("torii", {"powers": True}, ({"spirit": "Crane"}, {"spirit": "Monkey"})),
}


DECISIONS = ("pass", "monkey")  # Torii's groups that no piece acts in


def positions(start: str, seed: int, count: int) -> list[GameState]:
    """``count`` positions of one random game (copies), each with some actions staged."""
    game_id, options, answers = STARTS[start]
    game = game_type(game_id).new_game(options, answers)
    rng = random.Random(seed)
    out: list[GameState] = []
    while len(out) < count and not game.is_over():
        for _ in range(rng.randint(0, game.actions_left)):
            legal = game.legal_actions()
            if not legal:
                break
            try:
                game.apply(rng.choice(legal))
            except Exception:  # a search refused (R43): the position stays as it was
                break
        out.append(game.copy())
        while game.actions_left and game.legal_actions():
            try:
                game.apply(rng.choice(game.legal_actions()))
            except Exception:
                break
        game.end_turn(deadline=True)
    return out


def all_choices(game: GameState) -> list[tuple[str, tuple[Choice, ...]]]:
    return [(group.origin, game.choices(group.key)) for group in game.menu()]


@pytest.mark.parametrize("start", list(STARTS))
@pytest.mark.parametrize("seed", range(3))
def test_two_actions_of_one_menu_never_share_a_label(start, seed):
    for game in positions(start, seed, 3 if start == "tora-long" else 8):
        for _origin, choices in all_choices(game):
            labels = Counter(choice.label for choice in choices)
            assert [label for label, n in labels.items() if n > 1] == []
            steps = Counter(choice.path[-1] for choice in choices)
            assert max(steps.values(), default=1) == 1 or len(choices) > 25


@pytest.mark.parametrize("start", list(STARTS))
def test_the_menu_and_every_choice_at_once_are_the_menu_and_the_choices(start):
    """What autocomplete and the web board read whole, from one list of legal actions, is
    what the two asked apart give."""
    for game in positions(start, 7, 4 if start == "tora-long" else 8):
        assert game.menu_and_choices() == (game.menu(), game.choices())


@pytest.mark.parametrize("start", list(STARTS))
@pytest.mark.parametrize("seed", range(2))
def test_every_action_says_the_squares_it_touches(start, seed):
    for game in positions(start, seed, 6):
        for origin, choices in all_choices(game):
            for choice in choices:
                if choice.group in DECISIONS:
                    assert choice.touches == () and choice.spot is None
                    continue
                assert {touch.role for touch in choice.touches} <= set(ROLES)
                assert choice.spot is not None, choice
                assert [t.square for t in choice.touches if t.role == FROM] == [origin], choice


def test_a_move_onto_an_enemy_and_an_attack_in_place_are_told_apart():
    """`A v5h3 x v6h4` (attack, stay) and `A v5h3-v6h4` (move onto it and take it) were both
    "attack the Archer on v6h4"."""
    game = position((C, "A", "v5h3"), (O, "A", "v6h4"))
    choices = {c.notation: c for c in game.choices("Av5h3")}
    stay, onto = choices["A v5h3 x v6h4"], choices["A v5h3-v6h4"]
    assert stay.label == "attack the Archer on v6h4, staying on v5h3"
    assert onto.label == "move onto v6h4, taking the Archer there"
    assert [(t.square, t.role) for t in stay.touches] == [("v5h3", FROM), ("v6h4", HIT)]
    assert [(t.square, t.role) for t in onto.touches] == [("v5h3", FROM), ("v6h4", TO)]
    assert stay.spot == onto.spot == "v6h4"


def test_r11_a_soldier_or_cavalry_striking_a_command_piece_is_not_offered_as_moving_onto_it():
    """A Soldier next to an enemy General strikes it from where it stands and the General
    stays, doomed (R11; docs/RULES.md: from the square before on the path). `S v5h5-v5h4` was
    offered as "move onto v5h4, taking the General there", and a Cavalry's strike likewise;
    each now says where the piece stays and what it attacks, and touches it so."""
    game = position(
        (C, "S", "v5h5"), (C, "H", "v7h6"), (O, "G", "v5h4"), (O, "G", "v9h9"), board="long"
    )
    soldier = next(c for c in game.choices("Sv5h5") if c.notation == "S v5h5-v5h4")
    assert soldier.label == "attack the General on v5h4, staying on v5h5"
    assert [(t.square, t.role) for t in soldier.touches] == [("v5h5", FROM), ("v5h4", HIT)]
    cavalry = next(c for c in game.choices("Hv7h6") if c.label.endswith("General on v5h4"))
    assert cavalry.label == "move to v6h5 and attack the General on v5h4"
    assert [(t.square, t.role) for t in cavalry.touches] == [
        ("v7h6", FROM),
        ("v6h5", TO),
        ("v5h4", HIT),
    ]
    for choice, stays in ((soldier, "v5h5"), (cavalry, "v6h5")):
        played = game.copy()
        played.apply(choice.notation)
        assert occupant(played, stays) == ("C", choice.notation[0])
        assert occupant(played, "v5h4") == ("O", "G")
    ghost = with_assassins(hidden(C, "v9h12"), (O, "G", "v9h10"))  # it would share the square
    shares = next(c for c in ghost.choices() if c.notation.startswith("X v9h12-v9h10 via"))
    assert shares.label.startswith("move to v9h10 (via")


def test_r18_a_cavalry_landing_on_a_defending_soldier_is_offered_as_the_trade_it_is():
    """`H v9h9-v9h8` onto an enemy defending Soldier removes the Cavalry with the Soldier
    (R18); the menu offered it as "move onto v9h8, taking the Soldier there"."""
    game = position((C, "H", "v9h9"), (O, "S", "v9h8", {"defending": True}), board="long")
    choice = next(c for c in game.choices() if c.notation == "H v9h9-v9h8")
    assert choice.label == "move onto v9h8, trading the Cavalry for the Soldier there"
    event = game.copy().apply(choice.notation)
    assert {(side, kind) for side, kind, _sq in event.removed} == {(O, "S"), (C, "H")}


def test_a_cannon_shot_touches_its_line_up_to_the_first_piece_and_its_supporters():
    game = position((C, "C", "v5h5"), (C, "S", "v4h5"), (C, "S", "v4h4"), (O, "S", "v8h5"))
    shot = next(c for c in game.choices("Cv5h5") if c.notation.endswith("fire N"))
    assert [(t.square, t.role) for t in shot.touches if t.role in (VIA, HIT)] == [
        ("v6h5", VIA),
        ("v7h5", VIA),
        ("v8h5", HIT),
    ]
    assert {t.square for t in shot.touches if t.role == WITH} == {"v4h5", "v4h4"}
    assert shot.spot == "v8h5"


def test_r30_a_command_piece_move_the_turn_could_not_end_on_is_marked_before_it_is_staged():
    """Warned exactly when ending the turn right after it is refused by R30."""
    game = position((C, "G", "v5h5"), (O, "A", "v9h5"))
    choices = game.choices("Gv5h5")
    warnings = game.warnings([c.notation for c in choices])
    for choice, warning in zip(choices, warnings, strict=True):
        trial = game.copy()
        trial.apply(choice.notation)
        try:
            trial.end_turn()
            refused = False
        except IllegalAction as exc:
            refused = exc.rule == "R30"
        assert ("R30" in warning) == refused, choice
    assert any(warnings) and not all(warnings)


@pytest.mark.parametrize("start", ["torishogi", "torii"])
def test_the_other_games_warn_of_nothing(start):
    game = positions(start, 0, 1)[0]
    notations = [c.notation for c in game.choices()]
    assert game.warnings(notations) == ("",) * len(notations)
