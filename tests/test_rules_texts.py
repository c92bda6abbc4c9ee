"""The rules core speaks no language (issue 30): its texts are ``rules.words.Text`` values,
a message id (the English with its placeholders) and parameters, that the layers above word
in the reader's language (``bot.i18n.word``). Their English is byte for byte the old one (the
rules' own tests assert it unchanged); every id is in the catalogs, translated in each
shipped language with the same placeholders; notation and ruling ids stay as they are."""

from __future__ import annotations

import ast
import pickle
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from positions import C, O, hidden, position, with_assassins

from bot.i18n import LOCALES, SOURCE, speaking, word
from bot.i18n.catalogs import TEMPLATE
from rules import ActionError, IllegalAction, game_type
from rules.words import Text, frame, listing, msg, msg_n

ROOT = Path(__file__).resolve().parent.parent
NOTATION = re.compile(r"[a-g0-9, \-]+")  # a label of squares only (Torii's "c3, c4")
CONVERTED = ("torishogi", "torii", "tora")  # the games whose every text is a message


def _ids_in_rules() -> list[tuple[str, int, str]]:
    """Every ``msg``/``msg_n`` call under ``rules/``: file, line, the id (or "" when the id
    is not a literal, which extraction cannot read)."""
    found = []
    for path in sorted((ROOT / "rules").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            if node.func.id not in ("msg", "msg_n") or path.name == "words.py":
                continue
            literals = [a for a in node.args[: 1 + (node.func.id == "msg_n")]]
            ok = all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in literals)
            first = node.args[0]
            text = first.value if ok and isinstance(first, ast.Constant) else ""
            found.append((str(path.relative_to(ROOT)), node.lineno, text))
    return found


def test_every_rules_message_is_a_literal_the_extraction_reads() -> None:
    unreadable = [f"{path}:{line}" for path, line, text in _ids_in_rules() if not text]
    assert unreadable == []


def test_every_rules_message_is_in_the_template() -> None:
    with TEMPLATE.open("rb") as file:
        template = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(file) if m.id}
    ids = {text for _path, _line, text in _ids_in_rules()}
    assert len(ids) > 60
    assert sorted(ids - template) == []


def test_a_text_is_its_english_and_keeps_its_message() -> None:
    said = msg(
        "a {piece} on {origin} cannot move to {target}", piece="Falcon", origin="4f", target="1a"
    )
    assert said == "a Falcon on 4f cannot move to 1a" and isinstance(said, str)
    assert said.id == "a {piece} on {origin} cannot move to {target}"
    assert said.params == {"piece": "Falcon", "origin": "4f", "target": "1a"}
    many = msg_n("{n} move", "{n} moves", 3)
    assert (many, msg_n("{n} move", "{n} moves", 1)) == ("3 moves", "1 move")
    assert listing(["a", "b", "c"]) == "a, b and c" and listing(["a"]) == "a" and listing([]) == ""
    braces = frame("`{text}`", text="{x}")  # a parameter is never read as a format
    assert braces == "`{x}`"


def test_a_text_crosses_a_process_whole() -> None:
    """A refusal made in a worker (the long board's turn ends) is worded by the bot."""
    refusal = IllegalAction(
        "TS3", msg("there is no piece of yours on {square}", square="4d"), ["x"]
    )
    again = pickle.loads(pickle.dumps(refusal.reason))
    assert isinstance(again, Text) and again.id == refusal.reason.id and again == refusal.reason
    copied = IllegalAction(refusal.rule, again, refusal.allowed)
    with speaking("de"):
        assert word(copied.message) == "auf 4d steht keine deiner Figuren (TS3). Erlaubt: x"


def _refusal(game: str, text: str) -> ActionError:
    kind = game_type(game)
    options, answers = kind.sample_setup({})
    state = kind.new_game(options, answers)
    with pytest.raises(ActionError) as refused:
        state.apply(text)
    return refused.value


@pytest.mark.parametrize("code", LOCALES)
def test_a_torishogi_refusal_in_every_language_keeps_its_notation_and_ruling(code) -> None:
    refusal = _refusal("torishogi", "Falcon 4f-1a")
    assert isinstance(refusal.message, Text)
    with speaking(code):
        shown = word(refusal.message)
    assert "(TS3)" in shown and "4f" in shown and "1a" in shown and "Falcon" in shown
    assert (shown == refusal.message) == (code == SOURCE), shown


def test_a_refusal_nested_in_others_is_worded_through() -> None:
    refusal = _refusal("torishogi", "Falcon 4f-4z")
    assert refusal.message.startswith("cannot read `Falcon 4f-4z`: `4z` is not a square")
    with speaking("de"):
        shown = word(refusal.message)
    assert shown.startswith("`Falcon 4f-4z` ist nicht lesbar: `4z` ist kein Feld"), shown
    assert "Schreib Züge so, wie das Brett sie zeigt" in shown, shown
    with speaking("ja"):
        assert "はマスではありません" in word(refusal.message)


@pytest.mark.parametrize("game", CONVERTED)
@pytest.mark.parametrize("code", [c for c in LOCALES if c != SOURCE])
def test_a_converted_games_menus_and_words_are_messages_worded_everywhere(game, code) -> None:
    """Every label, description and the prompt of a game's menus are messages (none lost
    to a string glued inside the rules), each translated in every shipped language; the
    events of a few turns too."""
    kind = game_type(game)
    options, answers = kind.sample_setup({})
    state = kind.new_game(options, answers)
    names = ("ann", "bob")
    for _turn in range(6):
        texts = [state.prompt()]
        for group in state.menu():
            texts += [group.description, *[c.label for c in state.choices(group.key)]]
        with speaking(code):
            for text in texts:
                if NOTATION.fullmatch(text):  # squares alone: the same in every language
                    continue
                assert isinstance(text, Text), text
                assert word(text) != text, (text, word(text))
        event = state.apply(state.legal_actions()[0])
        with speaking(code):
            assert isinstance(event.words(names), Text)
            assert word(event.words(names)) != event.words(names)
        state.end_turn()
        with speaking(code):
            assert word(state.view_for(None).summary(names)) != state.view_for(None).summary(names)


REFUSALS = ("IllegalAction", "MalformedAction")  # their second argument is the reason


def test_no_refusal_of_the_rules_is_plain_english() -> None:
    """Every reason a refusal gives is a message, never a literal or an f-string, so no
    player reads one half worded (``rules.words`` has no English-only text any more)."""
    plain = []
    for path in sorted((ROOT / "rules").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            if node.func.id in REFUSALS and len(node.args) > 1:
                reason = node.args[1]
                if isinstance(reason, ast.JoinedStr | ast.Constant):
                    plain.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert plain == []


def test_a_tora_refusal_is_worded_whole_with_its_ruling_and_notation() -> None:
    refusal = _refusal("tora", "S v4h8 fire N")
    assert refusal.message.startswith(
        "only Cannons fire or get readied; your Soldier on v4h8 cannot (R21). Allowed: "
    )
    with speaking("de"):
        shown = word(refusal.message)
    assert shown.startswith(
        "nur Cannons feuern oder werden feuerbereit gemacht; dein Soldier auf v4h8 nicht (R21). "
        "Erlaubt: S v4h8 defend, "
    ), shown
    with speaking("ja"):
        shown = word(refusal.message)
    assert "Cannon だけです" in shown and "v4h8 のあなたの Soldier" in shown, shown
    assert "(R21)" in shown and "S v4h8 defend" in shown, shown


def test_a_tora_refusal_names_the_sides_as_the_game_does_in_every_language() -> None:
    """Moving the other side's piece is refused naming both sides, game terms written as the
    rule book writes them ("Challenger", "Opposition"). Regression: they came as lowercase
    English ids into every language ("am Zug ist challenger")."""
    refusal = _refusal("tora", "A v5h3-v5h4")
    assert "v5h3 holds a piece of the Opposition; it is the Challenger's turn" in refusal.message
    with speaking("de"):
        shown = word(refusal.message)
    assert "der Seite Opposition; am Zug ist Challenger" in shown, shown


def test_a_tora_text_that_cannot_be_read_is_worded_through() -> None:
    """The reason inside a notation refusal, and the notation hint after it."""
    refusal = _refusal("tora", "nonsense here")
    with speaking("de"):
        shown = word(refusal.message)
    assert shown.startswith(
        "`nonsense here` ist nicht lesbar: `nonsense` ist kein Figurenbuchstabe (G K Q A S C H X)."
    ), shown
    assert "Schreib Aktionen wie 'A v5h7-v4h6'" in shown, shown
    with speaking("ja"):
        assert "は駒の文字ではありません" in word(refusal.message)


def test_a_tora_menu_label_and_action_in_words_are_worded() -> None:
    game = position((C, "A", "v5h7"), (O, "S", "v5h5"))
    [shot] = [c.label for c in game.choices() if c.label.startswith("shoot")]
    assert shot == "shoot the Soldier on v5h5, staying on v5h7"
    with speaking("de"):
        assert word(shot) == "auf den Soldier auf v5h5 schießen und auf v5h7 bleiben"
    with speaking("ja"):
        assert word(shot) == "v5h7 に留まって v5h5 の Soldier を射撃"
    said = game.apply("A v5h7 x v5h5").words(("ann", "bob"))
    assert said == "ann's Archer on v5h7 shoots bob's Soldier on v5h5"
    with speaking("de"):
        assert word(said) == "Archer von ann auf v5h7 trifft per Schuss Soldier von bob auf v5h5"
    with speaking("ja"):
        assert word(said) == "v5h7 の ann の Archer が v5h5 の bob の Soldier を射撃で倒し"


@pytest.mark.parametrize("code", LOCALES)
def test_a_hidden_assassins_public_words_tell_only_its_victims_in_every_language(code) -> None:
    game = with_assassins(hidden(C, "v9h13"), (O, "S", "v9h11"))
    public = game.apply("X v9h13-v9h12 x v9h11").public()
    with speaking(code):
        shown = word(public.words(("ann", "bob")))
    assert "v9h11" in shown and "Assassin" in shown, shown
    assert "v9h13" not in shown and "v9h12" not in shown, shown


@pytest.mark.parametrize("code", LOCALES)
@pytest.mark.parametrize("powers", [True, False])
def test_the_spirits_powers_hold_a_menus_limit_in_every_language(code, powers) -> None:
    """A setup option's description is shown beside it in a select menu (100 characters):
    the Spirits' powers fit there in every language, and say their ruling."""
    [question] = game_type("torii").setup_questions({"powers": powers})
    assert all(isinstance(d, Text) for d in question.descriptions)
    with speaking(code):
        worded = [word(d) for d in question.descriptions]
        assert len(word(question.prompt)) <= 100
    assert all(len(d) <= 100 for d in worded), max(worded, key=len)
    assert all(f"(TI1{n})" in d for n, d in zip(range(2, 8), worded, strict=True))


def test_actions_in_words_among_the_allowed_are_worded_too() -> None:
    """Torii's refusal of a short path lists the next steps in words, in German too."""
    refusal = _refusal("torii", "3")
    assert "Allowed: next step to " in refusal.message, refusal.message
    with speaking("de"):
        shown = word(refusal.message)
    assert "Erlaubt: nächster Schritt nach " in shown and "next step" not in shown, shown


def test_the_reason_a_game_ended_is_worded_in_its_summary() -> None:
    """A finished game's summary says why it ended in the reader's language (the stored
    reason stays the English key)."""
    kind = game_type("torishogi")
    options, answers = kind.sample_setup({})
    state = kind.new_game(options, answers)
    state.resign(state.side)
    summary = state.view_for(None).summary(("ann", "bob"))
    assert summary.endswith("bob wins (resignation)"), summary
    with speaking("de"):
        assert word(summary).endswith("bob gewinnt (Aufgabe)"), word(summary)
    with pytest.raises(IllegalAction) as over:
        state.apply("4f5f")
    with speaking("fr"):
        assert "la partie est finie : Opposition gagne (abandon) (TS11)" in word(over.value.message)


@pytest.mark.parametrize("code", LOCALES)
@pytest.mark.parametrize("board", ["short", "long"])
def test_toras_setup_questions_hold_a_menus_limit_in_every_language(code, board) -> None:
    """The strategies' and Rulers' meanings are shown beside them in a select menu (100
    characters), each question's prompt above it: within the limit in every language, the
    rulings they name kept."""
    asked = game_type("tora").setup_questions({"board": board, "assassins": board == "long"})
    assert [q.name for q in asked] == (
        ["strategy"] if board == "short" else ["strategy", "ruler", "assassin"]
    )
    with speaking(code):
        worded = [word(text) for q in asked for text in (q.prompt, *q.descriptions)]
    assert all(len(text) <= 100 for text in worded), max(worded, key=len)
    assert all("(R4)" in d or "(R5)" in d for d in worded[1:3]), worded
