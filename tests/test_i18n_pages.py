"""The application layer's texts in every language hold Discord's limits (a button's label
80 characters, a menu's option 100, a message 2000) and say what the English says: each
game's quick start in one message with its commands in the names the reader's Discord shows,
the buttons worded where they are built, the setup form's questions named as the reader's
Discord names them, the tiebreak columns short enough for the standings."""

from __future__ import annotations

import re

import pytest

from bot.app import rulebook
from bot.app.buttons import VERBS, Press, label
from bot.app.setup_form import FormSelect, layout
from bot.i18n import LOCALES, SOURCE, option, speaking
from bot.service import PROPOSAL_KINDS, Stamp, Terms
from bot.service.agreements import DECLINE
from bot.service.questions import SetupForm, fields
from bot.tournament.tiebreaks import Tiebreak
from rules import Side
from rules.registry import GAMES

TRANSLATED = [code for code in LOCALES if code != SOURCE]
COMMAND = re.compile(r"`/tora ([^` ]+)")


@pytest.mark.parametrize("code", LOCALES)
def test_every_button_label_holds_discords_limit(code: str) -> None:
    with speaking(code):
        labels = {verb: label(verb) for verb in VERBS}
    assert all(0 < len(text) <= 80 for text in labels.values()), labels
    # a proposal's Decline (which names the proposal it declines) is the Decline button
    assert {labels[DECLINE + kind] for kind in PROPOSAL_KINDS} == {labels["decline"]}
    shown = {verb: text for verb, text in labels.items() if not verb.startswith(DECLINE)}
    assert len(set(shown.values())) == len(shown), labels  # no two other buttons look alike


def test_a_button_is_worded_when_it_is_built() -> None:
    press = Press("resign", 1, Stamp(1, 2))
    with speaking("de"):
        assert press.label == "Aufgeben"
    with speaking("ja"):
        assert press.label == "投了"
    assert press.label == "Resign"


@pytest.mark.parametrize("code", LOCALES)
@pytest.mark.parametrize("game", list(GAMES))
def test_each_quick_start_is_one_message_with_the_readers_command_names(
    code: str, game: str
) -> None:
    english = rulebook.help_text(game)
    with speaking(code):
        text = rulebook.help_text(game)
    assert len(text) <= 2000, (code, game, len(text))
    # the same commands as the English, in the names that language's Discord shows
    assert len(COMMAND.findall(text)) == len(COMMAND.findall(english))
    if code != SOURCE:
        assert text != english
        assert "`/tora challenge" not in text and "`/tora rules" not in text, text


def test_the_english_quick_start_is_the_data_file_as_written() -> None:
    for game in GAMES:
        written = "\n".join(rulebook.quick_start(game))
        assert rulebook.help_text(game).startswith(written + "\n-# The other games' quick starts")


@pytest.mark.parametrize("code", TRANSLATED)
def test_an_unknown_ruling_lists_the_games_rulings_in_the_readers_language(code: str) -> None:
    """`/tora rules R99` answers with the list of TORA's rulings. Regression: its last two
    runs were joined with an English "and" in every language ("die Regeln von TORA sind
    R1-R33, R40-R44, R50 and R51")."""
    with speaking(code):
        text = rulebook.lookup("R99")
    assert "R50" in text and "R51" in text, text
    assert " and " not in text, text


@pytest.mark.parametrize("code", TRANSLATED)
def test_tiebreak_columns_stay_short(code: str) -> None:
    with speaking(code):
        assert all(0 < len(t.label) <= 6 for t in Tiebreak), [t.label for t in Tiebreak]


SETUPS = [
    Terms(game="tora", options={"board": "long", "assassins": True}),
    Terms(game="torii"),
]


@pytest.mark.parametrize("code", LOCALES)
@pytest.mark.parametrize("terms", SETUPS, ids=["tora-long-assassins", "torii"])
def test_the_setup_form_holds_discords_limits_in_every_language(code: str, terms: Terms) -> None:
    """Buttons of 80 characters, menus' placeholders of 150 and options of 100, with each
    question named as the reader's Discord names ``/tora setup``'s option."""
    form = SetupForm(Stamp(1, 0), "", fields(terms, Side.CHALLENGER, {}), False)
    with speaking(code):
        rows = layout(form)
        named = {option(f.name)[:1].upper() + option(f.name)[1:] for f in form.fields}
    assert rows
    for row in rows:
        if isinstance(row, FormSelect):
            assert (
                len(row.placeholder) <= 150 and row.placeholder.split(" ")[0].rstrip(":") in named
            )
            for choice in row.options:
                assert max(len(choice.label), len(choice.value), len(choice.description)) <= 100
        else:
            assert all(len(b.label) <= 80 and b.label.split(":")[0] in named for b in row)
