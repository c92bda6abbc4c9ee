"""Review rF4: the Play panel and menus of ToriShogi and Torii (failing tests, one per bug)."""

from __future__ import annotations

import random

from bot.app import playing
from bot.i18n import _, speaking
from bot.service.models import Menu
from bot.service.ports import Stamp
from rules.torii import TORII
from rules.torishogi import ToriShogiGame

SPIRITS = ({"spirit": "Kitsune"}, {"spirit": "Monkey"})


def _checking_position() -> tuple[ToriShogiGame, str]:
    """A ToriShogi game and one legal move of the side to move that gives check."""
    rng = random.Random(7)
    game = ToriShogiGame()
    for _ply in range(200):
        assert not game.is_over()
        for move in game.legal_actions():
            twin = game.copy()
            twin.apply(move)
            twin.end_turn()
            if twin.in_check():
                return game, move.uci
        game.apply(rng.choice(game.legal_actions()))
        game.end_turn()
    raise AssertionError("no checking move found")


def test_torishogi_menu_label_of_a_checking_move_says_check() -> None:
    """The Play panel's option for a move that checks the opponent's Phoenix reads only
    "to 4d" (or "drop on 4d"); the player should read that it gives check, as the staged
    line and the turn post then say ("..., check"), before picking it."""
    game, notation = _checking_position()
    choice = next(c for c in game.choices() if c.notation == notation)
    assert "check" in str(choice.label), (notation, str(choice.label))


def _deciding_game():
    rng = random.Random(3)
    for _attempt in range(200):
        game = TORII.new_game({"powers": True}, SPIRITS)
        for _turn in range(60):
            if game.is_over():
                break
            if game.deciding:
                return game
            while game.actions_left:
                actions = game.legal_actions()
                builds = [a for a in actions if "build" in game.notation(a)]
                game.apply(rng.choice(builds or actions))
            game.end_turn()
    raise AssertionError("no Monkey decision reached")


def _menu_of(game, staged: tuple[str, ...] = ()) -> Menu:
    return Menu(
        Stamp(1, 5),
        "Torii",
        staged,
        game.menu(),
        (),
        game.actions_left,
        to_act="1 decision",
        prompt=game.prompt(),
        one_move=True,
    )


def test_torii_monkey_decision_panel_does_not_speak_of_a_move() -> None:
    """The Monkey's owner opening the Play panel to decide a flip (TI15) reads "Choose the
    Monkey's flip in the menu, then the move: the picture letters where each goes"; there
    is no move and no lettered square: it should say to pick the decision (as /tora act's
    "stage your decision" does)."""
    game = _deciding_game()
    panel = playing._panel(1, _menu_of(game), playing.Nav(), None)
    assert "then the move" not in panel.text, panel.text
    assert "letters where each goes" not in panel.text, panel.text


def test_torii_monkey_decisions_staged_panel_does_not_say_your_move_is_staged() -> None:
    """Once the Monkey's decisions are staged the panel says "Your move is staged: End turn
    plays it, or pick another to play instead"; it should speak of the decision(s) made."""
    game = _deciding_game()
    while game.actions_left:
        game.apply(game.legal_actions()[0])
    menu = Menu(
        Stamp(1, 5),
        "Torii",
        tuple(game.staged()),
        game.menu() or _menu_of(_deciding_game()).groups,
        (),
        0,
        to_act="1 decision",
        prompt="Choose the Monkey's flip",
        one_move=True,
    )
    panel = playing._panel(1, menu, playing.Nav(), None)
    assert "Your move is staged" not in panel.text, panel.text


def test_panel_in_german_does_not_repeat_the_staged_move() -> None:
    """In English a plain pick's "Staged: 4d." is left out of the panel (its "This turn so
    far" line says it); in German (or any other language) the panel shows it twice,
    "Vorgemerkt: ..." and "Dieser Zug bisher: 1. ...", since playing._panel tests the news
    for the English word "Staged:"."""
    game = ToriShogiGame()
    move = game.legal_actions()[0].uci
    game.apply(move)
    menu = Menu(
        Stamp(1, 1),
        "ToriShogi",
        tuple(game.staged()),
        ToriShogiGame().menu(),
        (),
        0,
        to_act="a move",
        prompt="Choose a piece",
        one_move=True,
    )
    with speaking("de"):
        news = _("Staged: {actions}.", actions=game.staged()[0])
        panel = playing._panel(1, menu, playing.Nav(), None, news)
    english = None
    with speaking("en"):
        english = playing._panel(
            1, menu, playing.Nav(), None, _("Staged: {actions}.", actions=game.staged()[0])
        )
    assert english.text.count(game.staged()[0]) == 1, english.text
    assert panel.text.count(game.staged()[0]) == 1, panel.text
