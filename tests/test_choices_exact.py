"""The players' autocomplete offers exactly what it offered before it was made cheaper: over
random positions of the short board and of the long board with Assassins (actions staged,
the player's own hidden Assassin among them), TORA's choices equal the plain oracle's
(``choices_oracle``), for all and for each group, and the autocomplete's entries made from
them equal those made from the oracle's (so whatever a player types finds the same entries
in the same order: ``finding.best`` reads nothing else)."""

from __future__ import annotations

import contextlib
import random
from typing import Any

import pytest
from choices_oracle import choices as oracle_choices
from test_choices import STARTS, positions

from bot.service import finding
from rules import ActionError, GameState, game_type
from rules.tora import Game


@pytest.mark.parametrize("start", ["tora-short", "tora-long"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_choices_equal_the_oracle(start: str, seed: int) -> None:
    for game in positions(start, seed, 12):
        assert isinstance(game, Game)
        assert game.choices() == oracle_choices(game)
        for group in game.menu():
            assert game.choices(group.key) == oracle_choices(game, group.key)


class _Oracle:
    """A game whose choices are the oracle's, for ``finding.entries``."""

    def __init__(self, game: Game) -> None:
        self._game = game

    def menu(self):  # type: ignore[no-untyped-def]
        return self._game.menu()

    def choices(self):  # type: ignore[no-untyped-def]
        return oracle_choices(self._game)

    def menu_and_choices(self):  # type: ignore[no-untyped-def]
        return self.menu(), self.choices()


@pytest.mark.parametrize("start", ["tora-short", "tora-long"])
def test_every_typed_text_finds_the_same(start: str) -> None:
    for game in positions(start, 4, 8):
        assert isinstance(game, Game)
        assert finding.entries(game) == finding.entries(_Oracle(game))  # type: ignore[arg-type]


@pytest.mark.parametrize("start", ["tora-short", "tora-long"])
@pytest.mark.parametrize("seed", [5, 6])
def test_every_state_a_action_apart_equals_the_oracle(start: str, seed: int) -> None:
    """As a match is played, one action at a time (where kept choices are found again
    most): each state's choices, for the side to act, equal the oracle's."""
    game_id, options, answers = STARTS[start]
    game = game_type(game_id).new_game(options, answers)
    assert isinstance(game, Game)
    rng = random.Random(seed)
    for _ in range(60):
        if game.is_over():
            break
        assert game.choices() == oracle_choices(game)
        legal = game.legal_actions()
        if game.actions_left and legal and rng.random() < 0.8:
            with contextlib.suppress(ActionError):  # a search refused (R43)
                game.apply(rng.choice(legal))
        elif not ended(game):
            break


def ended(game: GameState[Any]) -> bool:
    """The turn ended, its refused last actions taken back first (R30); False if it cannot."""
    while True:
        try:
            game.end_turn()
            return True
        except ActionError:
            if not game.staged():
                return False
            game.undo()
