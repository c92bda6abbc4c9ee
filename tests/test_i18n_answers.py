"""The match service's answers in every language (issue 30): the longest of them (an
analysis, a hint, a setup prompt, a challenge post, the answer to declining every
proposal) hold Discord's limit of a message in every shipped language, with the longest
names and turns; the English stays as it was."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

import pytest

from bot.i18n import LOCALES, speaking
from bot.service import Terms, User, agreements, analysis, hints, lobby, setup_phase
from bot.service.context import Context, Mail
from bot.service.table import DRAW, PAUSE, RESET, REWIND, Table
from bot.service.terms import Settings
from bot.service.texts import escape
from rules import Side
from storage import Hosted

CONTENT = 2000  # Discord's longest message
LONG_NAME = "_*" * 16  # 32 characters, each escaped: the longest a name shows
TURN = tuple(f"v{10 + i}h{10 + i}-v{12 + i}h{12 + i} via v11h11" for i in range(8))
NOW = 1_800_000_000.0
CTX = cast(Context, SimpleNamespace(cmd=Settings().cmd, now=lambda: NOW))
LONGEST_TERMS = Terms(
    options={"board": "long", "assassins": True, "target": 99},
    roles="random",
    weekends_off=True,
    away_days=False,
    rated=False,
    forfeit_after=99,
)


def _table(terms: Terms) -> Table:
    hosted = Hosted(10**9, 1, 2, 3, 4, terms.to_json(), "setup", challenger_id=3, opposition_id=4)
    return Table(hosted, terms, {3: LONG_NAME, 4: LONG_NAME})


def _analysis() -> analysis.Analysis:
    slips = tuple(analysis.Slip(10**4 + i, Side.CHALLENGER, TURN, TURN, 1.2345e9) for i in range(3))
    return analysis.Analysis((0.0,) * 10**4, slips, ())


def _hint() -> hints.Hint:
    game: Any = None  # the texts read the notations alone
    return hints.Hint(game, TURN, TURN, 1)


@pytest.mark.parametrize("code", LOCALES)
def test_the_longest_answers_hold_discords_limit_in_every_language(code: str) -> None:
    table = _table(LONGEST_TERMS)
    mail = Mail(2)
    with speaking(code):
        shown = [
            analysis.summary(_analysis(), 10**9, "ToriShogi", [LONG_NAME, LONG_NAME]),
            hints.hint_text(CTX, _hint(), list(reversed(TURN)), list(TURN)),
            setup_phase.setup_prompt(CTX, table, Side.OPPOSITION),
            agreements._declined(table, Side.CHALLENGER, [DRAW, RESET], [PAUSE, REWIND]),
        ]
        lobby._post_challenge(
            CTX, mail, User(3, LONG_NAME), User(4, LONG_NAME), LONGEST_TERMS, 10**9, code
        )
    shown += [post.text for post in mail.posts]
    for text in shown:
        assert len(text) <= CONTENT, (code, len(text), text[:120])


def test_the_english_of_the_answers_is_as_it_was() -> None:
    """English answers byte for byte as before their conversion."""
    table = _table(Terms(game="torii", turn_seconds=7200.0))
    staged = hints.Hint(cast(Any, None), ("a", "b"), ("a", "b"), 1)
    with speaking("en"):
        prompt = setup_phase.setup_prompt(CTX, table, Side.CHALLENGER)
        declined = agreements._declined(table, Side.CHALLENGER, [DRAW], [PAUSE])
        hint = hints.hint_text(CTX, staged, ["c"], ["x"])
    assert prompt.startswith(
        f"Your match of Torii against {escape(LONG_NAME)} (Opposition): you play the "
        "Challenger and move first. Choose your setup privately, with the buttons or menus "
        "below or with `/tora setup`; your opponent sees your choices only when the game "
        "starts:\n- spirit: "
    ), prompt
    due = int(NOW + 7200)
    assert prompt.endswith(f"\nYou have until <t:{due}:f> (<t:{due}:R>) to choose."), prompt
    assert declined == (
        f"You declined {escape(LONG_NAME)}'s draw offer and took back your pause proposal: "
        "the game goes on and the clock keeps running."
    ), declined
    assert hint == (
        "The AI (hard) would play: x.\nThe picture shows it on your board. It differs from "
        "what you have staged (`a; b`): Play this stages it in its place (or take back what "
        "you staged after your search with `/tora undo`, then `/tora act` `c`), then "
        "`/tora end`; or find your own move."
    ), hint


def test_a_japanese_hint_joins_its_sentences_as_japanese_does() -> None:
    """The AI's turn and how to play it are one message: Japanese puts no space between
    its sentences."""
    staged = hints.Hint(cast(Any, None), ("a", "b"), ("a", "b"), 1)
    with speaking("ja"):
        hint = hints.hint_text(CTX, staged, ["c"], ["x"])
    assert "盤面に示しています。" in hint and "示しています。 " not in hint, hint


def test_a_spectators_press_on_a_players_button_is_refused_in_their_language() -> None:
    """carl, watching in a German server, pressed a match's Accept the draw (or Give +1
    day, or `/tora play`): "Only ann (Challenger) and bob (Opposition) play in this match;
    you are welcome to watch." came in English whatever the language, the catalogs never
    asked, and did not say how to follow the match. Now in carl's language, naming the
    command that shows the board."""
    from bot.service.errors import NotAllowed
    from bot.service.table import player_side

    table = _table(Terms())
    with speaking("de"), pytest.raises(NotAllowed) as refused:
        player_side(table, User(9, "carl"))
    assert "welcome to watch" not in refused.value.message, refused.value.message
    assert "`/tora brett`" in refused.value.message
