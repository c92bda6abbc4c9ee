"""Torii's turn notation (TI19): what it accepts, what it writes, how it refuses, and hostile
input to the action parser, the position reader and the record reader."""

from __future__ import annotations

import contextlib
import random
import re
import time
from collections.abc import Callable

import pytest
from test_torii_positions import LINES_GAME, make, refused

from rules.errors import ECHO, ActionError, AmbiguousAction, IllegalAction, MalformedAction
from rules.torii import TORII, RecordError, ReplayError, ToriiGame
from rules.torii.notation import MAX_TEXT
from rules.torii.record import MAX_LINE

HEAD = '[Game "torii"]\n[ChallengerSpirit "Deer"]\n[OppositionSpirit "Boar"]\n\n'


def new(c: str = "Deer", o: str = "Kitsune") -> ToriiGame:
    return TORII.new_game({}, ({"spirit": c}, {"spirit": o}))


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("3 c3 c4 c6", "3 c3 c4 c6"),
        ("3 C3 C4 C6", "3 c3 c4 c6"),
        ("\t3   c3  c4 c6  ", "3 c3 c4 c6"),
        ("3 up up up", "3 c3 c4 c6"),
        ("3 U North n", "3 c3 c4 c6"),
        ("3 c3 up c6", "3 c3 c4 c6"),
        ("c3 c4 c6", "3 c3 c4 c6"),
        ("tile 3 c3, c4, c6", "3 c3 c4 c6"),
        ("1 right", "1 e2"),
        ("1 up-left", "1 b3"),
        ("1 upleft", "1 b3"),
        ("1 nw", "1 b3"),
        ("1 left-up", "1 b3"),
        ("1 DOWN-LEFT", "1 b1"),
    ],
)
def test_forms_of_a_turn(text: str, canonical: str) -> None:
    game = new()
    assert game.notation(game.parse_action(text)) == canonical


def test_power_notation() -> None:
    kitsune = new("Kitsune", "Deer")
    assert kitsune.notation(kitsune.parse_action("1 push down up")) == "1 push d4 c3"
    crane = make(".O.O..\n......\n......", spirits="Ca1,Kd5")
    assert crane.notation(crane.parse_action("FLY b3 1 up")) == "fly b3 1 b4"
    boar = make(".o....\n.C....\n......", spirits="Be1,Kd5")
    refused(boar, "1 torii b3-b2 e2", "TI17")  # b3 holds the opponent's Follower
    assert boar.notation(boar.parse_action("1 torii b2-b3 up")) == "1 torii b2-b3 e2"


def test_build_notation_names_the_line_only_when_needed() -> None:
    game = make(LINES_GAME, spirits="Ma2,Kf6", tiles="1,123")
    assert game.notation(game.parse_action("1 a3 build b3")) == "1 a3 build b3"
    assert game.notation(game.parse_action("1 a3 build b3 a3-d3")) == "1 a3 build b3"
    assert game.notation(game.parse_action("1 a3 build b3 d3-a3")) == "1 a3 build b3"
    assert (
        game.notation(game.parse_action("1 a3 build a3 a3-a6 build d3 flip o"))
        == "1 a3 build a3 a3-a6 build d3 flip O"
    )
    assert game.notation(game.parse_action("1 a3 build b3 flip none")) == "1 a3 build b3"
    with pytest.raises(AmbiguousAction) as info:
        game.parse_action("1 a3 build a3 a3-a6 flip c")  # one more build, three ways
    assert len(info.value.candidates) == 3
    with pytest.raises(AmbiguousAction) as info:
        game.parse_action("1 a3 build a3")
    assert len(info.value.candidates) == 6


def test_refusals_name_the_ruling_and_the_alternatives() -> None:
    game = TORII.new_game({"powers": False}, ({"spirit": "Deer"}, {"spirit": "Boar"}))
    error = refused(game, "3 c3 c4 c5", "TI6")
    assert error.allowed == ["c6", "b4", "e4"]
    twice = refused(game, "3 c3 c4 c3", "TI7")
    assert str(twice).startswith("c3 was already landed on this turn (TI7)")
    assert refused(game, "2 c3 c4", "TI5").allowed == ["tile 1", "tile 3"]
    assert "3 steps, 2 given" in refused(game, "3 c3 c4", "TI5").reason
    refused(game, "3 c3 c4 c6 d6", "TI5")
    refused(game, "1 c3 build c3", "TI10")
    refused(game, "flip C", "TI15")
    refused(new(), "3 c3 c4 c6 build c6 flip C", "TI10")
    lines = make(LINES_GAME, spirits="Da2,Kf6", tiles="1,123")
    assert "no Follower of yours" in refused(lines, "1 a3 build e3", "TI10").reason
    assert "not a formed line" in refused(lines, "1 a3 build b3 b3-b6", "TI10").reason
    assert "only the Monkey" in refused(lines, "1 a3 build b3 flip C", "TI15").reason


def test_ti12_a_diagonal_step_of_a_deer_without_powers_is_refused_as_powers_off() -> None:
    """A Deer without powers (TI4: only a token) is not told that the Deer steps diagonally,
    but that powers are off; another Spirit with powers is told which one it is."""
    game = TORII.new_game({"powers": False}, ({"spirit": "Deer"}, {"spirit": "Kitsune"}))
    reason = refused(game, "1 b3", "TI5").reason
    assert reason.endswith("; powers are off in this match"), reason
    kitsune = TORII.new_game({}, ({"spirit": "Kitsune"}, {"spirit": "Deer"}))
    assert refused(kitsune, "1 b3", "TI5").reason.endswith("; yours is the Kitsune")


def test_ti5_a_far_square_in_the_opponents_lane_is_not_one_step_away() -> None:
    """f5 is in the opponent's row but three files and ranks from c2: no step passes over it,
    so it is refused as out of reach (TI5), not as jumped over (TI6) as c5 is from c4."""
    game = TORII.new_game({}, ({"spirit": "Kitsune"}, {"spirit": "Deer"}))
    assert "f5 is not one step from c2" in refused(game, "1 f5", "TI5").reason
    assert "c5 is in a lane" in refused(game, "3 c3 c4 c5", "TI6").reason


def test_ti13_a_refused_push_says_why() -> None:
    """The Kitsune on c2 pushing the opponent from d5: c5 is in the Kitsune's column, so the
    push jumps over it; a1 is no step at all; a diagonal is no push."""
    game = TORII.new_game({}, ({"spirit": "Kitsune"}, {"spirit": "Deer"}))
    lanes = refused(game, "1 push c5 c3", "TI13").reason
    assert lanes.endswith("c5 is in your Spirit's lanes, so the push jumps over it to b5"), lanes
    assert "a1 is not one orthogonal step from d5" in refused(game, "1 push a1 c3", "TI13").reason
    assert "one orthogonal step" in refused(game, "1 push ul c3", "TI13").reason
    edge = make(spirits="Kb6,Da5")
    assert "a step up from a5 would leave" in refused(edge, "1 push a6 b5", "TI13").reason


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "empty"),
        ("hello", "`hello` is neither a square"),
        ("3 c3 c4 c7", "`c7` is neither"),
        ("3 c3 3", "`3` is out of place: the tile"),
        ("fly", "missing"),
        ("fly z9 1 c3", "not a square"),
        ("1 torii b2 b3", "two squares joined"),
        ("1 c3 build", "missing"),
        ("1 c3 build c3 c3-c9", "two squares joined"),
        ("1 c3 build c3 c3-d4", "not a line of 4"),
        ("1 c3 build c3 flip x", "C, O or none"),
        ("flip", "Monkey decision"),
        ("1 c3 fly d4", "out of place"),
        ("tile", "followed by 1, 2 or 3"),
    ],
)
def test_malformed_text(text: str, reason: str) -> None:
    with pytest.raises(MalformedAction, match=reason):
        new().parse_action(text)


@pytest.mark.parametrize(
    ("text", "token"),
    [
        ("3 " + "x" * 290, "x" * (ECHO + 1)),
        ("3 **bold** c4 c6", "**bold**"),
        ("flip [site](https://evil.example)", "[site](https://evil.example)"),
        ("1 c3 build c3 ||a1-a9||", "||a1-a9||"),
        ("1 torii __b2-b9__", "__b2-b9__"),
        ("3 c3 c4 c6 <@123>", "<@123>"),
    ],
)
def test_a_refusal_quotes_the_typed_text_only_code_styled_and_cut(text: str, token: str) -> None:
    """A refusal quotes what was typed as ``rules.errors.echo`` does, as TORA's reader
    quotes every bad token: in code style, where no bold, spoiler, masked link or mention
    takes effect, and cut to ``ECHO`` characters. (The reasons once repeated the bad token
    with ``repr()``: up to 290 characters in full, and markdown live in the refusal.)"""
    with pytest.raises(MalformedAction) as info:
        new().parse_action(text)
    message = str(info.value)
    assert token not in re.sub(r"`[^`]*`", "", message)
    assert "x" * (ECHO + 1) not in message


def test_length_is_capped() -> None:
    text = "3 " + "c3 " * 200
    with pytest.raises(MalformedAction) as info:
        new().parse_action(text)
    assert f"{len(text)} characters long, the limit is {MAX_TEXT}" in str(info.value)


def _quick(call: Callable[[], object], errors: tuple[type[Exception], ...]) -> None:
    start = time.perf_counter()
    with contextlib.suppress(errors):
        call()
    assert time.perf_counter() - start < 0.25


ADVERSARIAL = [
    "build " * 1000,
    "1 " + "c3-" * 2000,
    "up-" * 2000,
    "fly " * 1500,
    "[" * 6000,
    '[Game "' + "\\" * 5990 + '"]',
    '[Game "torii"]\n' + "C: " + ";" * 5980,
    "C:" + " 1 c3" * 1000,
    HEAD + "C: 3 c3 c4 c6\n" * 400,
    "6/6/6/6/6/6 " * 500,
    "1" * 6000,
    "/" * 6000,
    ",".join(["Dc2"] * 1500),
    "\n" * 6000,
    "\x00" * 6000,
]


@pytest.mark.parametrize("text", ADVERSARIAL)
def test_adversarial_input_fails_fast_with_the_right_error(text: str) -> None:
    _quick(lambda: new().parse_action(text), (ActionError,))
    _quick(lambda: TORII.from_fen(text, {}), (ValueError,))
    _quick(lambda: TORII.read_record(text), (RecordError, ReplayError))


def test_random_input_fails_with_the_right_error() -> None:
    rng = random.Random(7)
    alphabet = 'abcdefg0123456789 -,;:[]"\\/CO.\nupdownleftrighbuiltoryfsh\t'
    game = new()
    for _ in range(300):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 6000)))
        _quick(lambda text=text: game.parse_action(text), (ActionError,))
        _quick(lambda text=text: TORII.from_fen(text, {}), (ValueError,))
        _quick(lambda text=text: TORII.read_record(text), (RecordError, ReplayError))


def test_record_lines_are_capped() -> None:
    with pytest.raises(RecordError, match=f"at most {MAX_LINE}"):
        TORII.read_record(HEAD + "C: " + "c3 " * 200)


def test_illegal_action_is_not_malformed() -> None:
    with pytest.raises(IllegalAction):
        new().parse_action("1 f6")


def test_a_record_writing_a_pass_as_r50_does_with_nothing_after_the_colon_is_read() -> None:
    """TI19 makes Torii's records "as TORA's R50", and R50 writes a pass as a turn line with
    "nothing after the colon for a pass" (TORA's reader reads it so). Torii's reader refuses
    such a line: "an empty action (nothing between ':' or ';' separators)", so a record
    written by the rulings' convention cannot be loaded, replayed or analysed."""
    record = "\n".join(
        [
            '[Game "torii"]',
            '[ChallengerSpirit "Deer"]',
            '[OppositionSpirit "Kitsune"]',
            '[Powers "on"]',
            '[FEN "6/6/6/6/6/6 Dc2,Kd5 9,9 4,4 -,123 C on"]',  # C's tiles all used: TI8
            "",
            "C:",
            "O: 3 e5 f5 f4",
            "",
        ]
    )
    game = TORII.read_record(record)
    assert len(game.turns) == 2 and game.turns[1].texts == ["3 e5 f5 f4"]
    assert game.turns[0].events[0].kind == "pass"  # TI8's pass
