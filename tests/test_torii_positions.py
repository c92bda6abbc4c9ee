"""Torii's position string (``fen``), and ``make``: test positions drawn as diagrams, which
the other Torii test modules import."""

from __future__ import annotations

import pytest

from rules.errors import IllegalAction
from rules.sides import Side
from rules.torii import TORII, ToriiGame
from rules.torii.board import parse_square

C, O = Side.CHALLENGER, Side.OPPOSITION
START = "6/6/6/6/6/6 Dc2,Kd5 9,9 4,4 13,123 C on"
# A Spirit on a2 stepping up to a3 forms two lines at once: a3-d3 and a3-a6.
LINES_GAME = """
    c.....
    c.....
    c.....
    .ccc..
    ......
    ......"""

# The Challenger's tile 3 (e2 e4 d4) forms b4-e4 and e1-e4: a Torii on e4 that does not win,
# then the 4th on the other line. The Torii before the 4th owes the Opposition's Monkey a flip
# (TI15). The Challenger's Spirit by its initial: the Boar or the Monkey.
BEFORE_THE_WIN = "6/2o3/1cc3/4CC/2OO1o/o1o1c1 {}e1,Mf3 4,3 2,2 123,1 C on"
TWO_TORII = "3 e2 e4 d4 build e4 e1-e4 build d4"


def make(
    rows: str = "",
    spirits: str = "Dc2,Kd5",
    tiles: str = "123,123",
    side: str = "C",
    powers: bool = True,
) -> ToriiGame:
    """A game from a diagram: six rows, rank 6 first, six of ``.`` ``c`` ``o`` ``C`` ``O``
    each (``C``/``O``: a Follower under its owner's Torii); empty rows may be left out at the
    top. Spirits by initial and square, Challenger's first; unused tiles per side."""
    lines = [line.replace(" ", "") for line in rows.strip().splitlines() if line.strip()]
    lines = ["......"] * (6 - len(lines)) + lines
    board = "/".join(_rank(line) for line in lines)
    text = "".join(lines)
    supplies = f"{9 - sum(ch in 'cC' for ch in text)},{9 - sum(ch in 'oO' for ch in text)}"
    torii = f"{4 - text.count('C')},{4 - text.count('O')}"
    fen = f"{board} {spirits} {supplies} {torii} {tiles} {side} {'on' if powers else 'off'}"
    return TORII.from_fen(fen, {})


def _rank(line: str) -> str:
    out, empty = "", 0
    for char in line:
        if char == ".":
            empty += 1
            continue
        out += (str(empty) if empty else "") + char
        empty = 0
    return out + (str(empty) if empty else "")


def sq(text: str) -> int:
    square = parse_square(text)
    assert square is not None
    return square


def refused(game: ToriiGame, text: str, rule: str) -> IllegalAction:
    with pytest.raises(IllegalAction) as info:
        game.parse_action(text)
    assert info.value.rule == rule, info.value
    return info.value


def play(game: ToriiGame, *texts: str) -> ToriiGame:
    """Play whole turns (a Monkey decision turn: its decisions joined by ' ; ')."""
    for text in texts:
        for action in text.split(" ; "):
            game.apply(action)
        game.end_turn()
    return game


def test_start_position_string() -> None:
    game = TORII.new_game({}, ({"spirit": "Deer"}, {"spirit": "Kitsune"}))
    assert game.fen() == START
    assert TORII.from_fen(START, {}).fen() == START


def test_make_draws_the_diagram() -> None:
    game = make("..C.o.\n..C...", spirits="Kb1,Me4", tiles="1,-", side="O2")
    assert game.fen() == "6/6/6/6/2C1o1/2C3 Kb1,Me4 7,8 2,4 1,- O2 on"


@pytest.mark.parametrize(
    ("fen", "problem"),
    [
        ("6/6/6/6/6 Dc2,Kd5 9,9 4,4 13,123 C on", "6 ranks"),
        ("6/6/6/6/6/7 Dc2,Kd5 9,9 4,4 13,123 C on", "rank 1"),
        ("6/6/6/6/6/5x Dc2,Kd5 9,9 4,4 13,123 C on", "'x'"),
        ("6/6/6/6/6/6 Xc2,Kd5 9,9 4,4 13,123 C on", "initial"),
        ("6/6/6/6/6/6 Dc2,Kc5 9,9 4,4 13,123 C on", "one lane"),
        ("6/6/6/6/6/c5 Dc2,Kd5 9,9 4,4 13,123 C on", "supplies 8,9"),
        ("CCCCC1/6/6/6/6/6 Dc2,Kd5 4,9 -1,4 13,123 C on", "more than 4 Torii"),
        ("6/6/6/6/6/6 Dc2,Kd5 9,9 4,4 31,123 C on", "in order"),
        ("6/6/6/6/6/6 Dc2,Kd5 9,9 4,4 13,123 X on", "C or O"),
        ("6/6/6/6/6/6 Dc2,Kd5 9,9 4,4 13,123 O1 on", "Monkey"),
        ("6/6/6/6/6/6 Dc2,Md5 9,9 4,4 13,123 O1 on", "only 0 Torii built"),
        ("ccccc1/cccc2/6/6/6/6 Dc2,Md5 0,9 4,4 13,123 O1 on", "owed only by the loser"),
        ("CCCC2/6/6/6/6/6 Mc2,Kd5 5,9 0,4 13,123 C1 on", "owed only by the loser"),
        ("6/6/6/6/6/6 Dc2,Kd5 9,9 4,4 13,123 C maybe", "'on' or 'off'"),
        ("6/6/6/6/6/6 Dc2,Kd5 9,9 4,4 13,123 C", "7 fields"),
        ("6/6/6/6/6/6 Dc2,Kd5 9,9 4,4 13,123 C on" + " " * 200, "at most 120"),
    ],
)
def test_position_string_names_the_problem(fen: str, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        TORII.from_fen(fen, {})


def test_position_string_and_options_must_agree() -> None:
    with pytest.raises(ValueError, match="disagree"):
        TORII.from_fen(START, {"powers": False})
    assert TORII.from_fen(START, {"powers": True}).setup.powers
