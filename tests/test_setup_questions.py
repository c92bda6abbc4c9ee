"""What each game declares of its setup: every question with options says what each option
means (a player picks a Spirit knowing its power), within a menu's 100 characters."""

from __future__ import annotations

import pytest

from rules import SetupQuestion
from rules.registry import GAMES
from rules.torii import POWERS, TORII

MATCHES = [
    ("tora", {"board": "short"}),
    ("tora", {"board": "long", "assassins": True}),
    ("torishogi", {}),
    ("torii", {"powers": True}),
    ("torii", {"powers": False}),
]


@pytest.mark.parametrize(("game", "options"), MATCHES)
def test_every_option_of_every_question_is_described(game, options):
    for question in GAMES[game].setup_questions(options):
        for option in question.options:
            assert 0 < len(question.description(option)) <= 100, (game, option)


def test_ti4_every_spirit_is_described_by_its_power():
    (spirit,) = TORII.setup_questions({"powers": True})
    assert [spirit.description(name) for name in spirit.options] == [
        POWERS[name] for name in spirit.options
    ]
    assert "diagonal" in spirit.description("Deer") and "TI15" in spirit.description("Monkey")
    (token,) = TORII.setup_questions({"powers": False})
    assert all(token.description(name).startswith("Not in play.") for name in token.options)


def test_a_question_refuses_descriptions_that_do_not_fit():
    with pytest.raises(ValueError, match="one description per option"):
        SetupQuestion("x", "?", ("a", "b"), descriptions=("only one",))
    with pytest.raises(ValueError, match="at most 100"):
        SetupQuestion("x", "?", ("a",), descriptions=("y" * 101,))
    assert SetupQuestion("x", "?", ("a",)).description("a") == ""
