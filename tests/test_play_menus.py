"""The Play panel's menus reach every legal action within Discord's limits: walked over
random long-board positions with Assassins (the largest menus there are), each legal action
is offered exactly once, at most four picks away, in selects of at most 25 options with
labels and values of at most 100 characters."""

from __future__ import annotations

import contextlib
import random
from collections import Counter

import pytest
from rules_helpers import end_the_turn

from bot.app import menus
from bot.app.menus import Nav
from rules.tora import Game, IllegalAction, Options


def random_position(seed: int) -> Game:
    """A long-board game with Assassins, some random turns in (attacks preferred, so that
    positions thin out and open up)."""
    rng = random.Random(seed)
    setups = ("aggressive", "defensive")
    options = Options(
        board="long",
        assassins=True,
        challenger_setup=rng.choice(setups),
        opposition_setup=rng.choice(setups),
    )
    game = Game(options, assassin_starts=("v3h17", "v15h1"))
    for _ in range(rng.randint(0, 10)):
        for _ in range(game.actions_left):
            actions = game.legal_actions()
            if not actions:
                break
            keen = [a for a in actions if a.target] or actions
            with contextlib.suppress(IllegalAction):  # a search refused (R43)
                game.apply(rng.choice(keen if rng.random() < 0.5 else actions))
        end_the_turn(game)
        if game.is_over():
            break
    return game


def walk(game: Game) -> Counter[str]:
    """Every action the menus offer, with the picks it takes to reach it."""
    groups = game.menu()
    reached: Counter[str] = Counter()
    for group in groups:
        choices = game.choices(group.key)
        for choice in choices:
            picks = reach(groups, choices, choice.notation)
            assert picks <= 4, f"{choice.notation}: {picks} picks"
            reached[choice.notation] += 1
    return reached


def reach(groups, choices, notation: str) -> int:
    category, key, step = menus.route(groups, choices, notation)
    nav, picks = Nav(), 0
    while True:
        shown = menus.selects(groups, choices if nav.group else (), nav)
        assert len(shown) <= 4  # and the buttons' row: Discord's five
        for select in shown:
            assert 1 <= len(select.options) <= menus.MOST
            assert all(len(o.label) <= 100 and len(o.value) <= 100 for o in select.options)
        last = shown[-1]
        values = {o.value: o for o in last.options}
        picks += 1
        if last.level == "a":
            assert "=" + notation in values, notation
            return picks
        if last.level == "c":
            nav = Nav(category)
        elif last.level == "g":
            nav = Nav(nav.category, key)
        else:
            index = next(int(o.value) for o in last.options if o.label == step)
            nav = Nav(nav.category, nav.group, index)
        assert picks < 4


@pytest.mark.parametrize("seed", range(8))
def test_every_legal_action_is_at_most_four_picks_away(seed: int) -> None:
    game = random_position(seed)
    if game.is_over():
        pytest.skip("this playout ended the game")
    reached = walk(game)
    legal = game.notations(game.legal_actions())
    assert sorted(reached) == sorted(legal)  # every one, and nothing else
    assert set(reached.values()) == {1}  # each once


def test_the_start_of_the_long_board_is_picked_by_kind_of_piece_first() -> None:
    game = Game(Options(board="long", assassins=True), assassin_starts=("v3h17", None))
    groups = game.menu()
    assert len(groups) > menus.MOST  # more acting pieces than one menu holds
    [kinds] = menus.selects(groups, (), Nav())
    assert kinds.level == "c"
    assert [o.label for o in kinds.options] == [
        "Cavalry (4)",
        "Soldiers (9)",
        "Archers (9)",
        "Assassin (1)",
        "Generals (2)",
        "Cannons (2)",
        "Ruler (1)",
    ]
    cavalry = menus.selects(groups, (), Nav("Cavalry"))[1]
    assert cavalry.options[0].label == "Cavalry v2h13"
    assert cavalry.options[0].description == "28 moves, 29 searches"
