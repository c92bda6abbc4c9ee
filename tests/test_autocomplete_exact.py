"""The players' autocomplete answers exactly what it answered before its first answer on a
state was made cheaper, in every game: over matches played one action at a time (actions
staged, taken back, turns ended), each state's entries (which actions, in which order, their
texts, words and notations) equal the oracle's (``choices_oracle``: TORA's menus the plain
way, every game's menus asked for apart on a fresh copy of the state, which holds none of
what the game or its menus kept), and so do its menus, each group's choices and what every
typed word finds."""

from __future__ import annotations

import contextlib
import pickle
import random
from typing import Any

import pytest
from choices_oracle import game_entries
from choices_oracle import menu as oracle_menu
from test_choices import STARTS
from test_choices_exact import ended

from bot.service import finding
from rules import ActionError, GameState, game_type
from rules.tora import Game

TYPED = ("", "s", "g", "v5", "a v5h", "x", "e2", "k", "fire", "to 4", "pass", "h")


def states(start: str, seed: int, count: int) -> Any:
    """``count`` states of one random match, each the same game object a step later: an
    action staged (most often), one taken back, or the turn ended."""
    game_id, options, answers = STARTS[start]
    game = game_type(game_id).new_game(options, answers)
    rng = random.Random(seed)
    for _ in range(count):
        if game.is_over():
            return
        yield game
        legal = game.legal_actions()
        roll = rng.random()
        if game.staged() and roll < 0.1:
            with contextlib.suppress(ActionError):  # a search stays (R10)
                game.undo()
        elif game.actions_left and legal and roll < 0.8:
            with contextlib.suppress(ActionError):  # e.g. a search refused (R43)
                game.apply(rng.choice(legal))
        elif not ended(game):
            return


def fresh(game: GameState[Any]) -> GameState[Any]:
    """The same state, without what the game kept (its pickled copy)."""
    copy: GameState[Any] = pickle.loads(pickle.dumps(game))
    return copy


COUNTS = {"tora-short": 60, "tora-long": 20, "torishogi": 80, "torii": 60}


@pytest.mark.parametrize("start", list(STARTS))
@pytest.mark.parametrize("seed", [1, 2])
def test_every_state_answers_as_the_oracle(start: str, seed: int) -> None:
    for game in states(start, seed, COUNTS[start]):
        new = finding.entries(game)
        old = game_entries(fresh(game))
        assert new == old
        for typed in TYPED:
            assert finding.best(typed, new, 25) == finding.best(typed, old, 25), typed


@pytest.mark.parametrize("start", list(STARTS))
def test_every_group_answers_as_the_oracle(start: str) -> None:
    for game in states(start, 3, COUNTS[start] // 2):
        other = fresh(game)
        groups = game.menu()
        if isinstance(game, Game):
            assert isinstance(other, Game)
            assert groups == oracle_menu(other)
        else:
            assert groups == other.menu()
        every = other.choices()
        assert game.choices() == every
        for group in groups:
            assert game.choices(group.key) == tuple(c for c in every if c.group == group.key)
        assert game.choices("no such group") == ()
