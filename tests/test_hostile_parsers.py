"""Every reader of user text parses or refuses any input up to Discord's 6,000 characters
quickly, with its own error type: no regular expression that backtracks, lengths capped.

The time bound is generous (a quarter of a second, where the square pattern once took 17 s
on 606 characters): a guard against a return of super-linear parsing, not a benchmark."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.app import rulebook
from bot.app.parsing import BadDuration, parse_duration
from rules.tora import ActionError, Game, Options
from rules.tora.geometry import parse_square
from rules.tora.notation import MAX_ACTION, parse
from rules.tora.record import RecordError, ReplayError, replay
from rules.tora.terrain import TerrainError, parse_map

BOUND = 0.25  # seconds for one parse of up to 6,000 characters
DISCORD_MOST = 6000
ALPHABET = "vhVH0123456789 .,-x;:ACSGHKQXfirewthdsNESW\t\n[]\"'`@*_~|<>#&"
LONG_GAME = Game(Options(board="long", assassins=True), assassin_starts=("v3h17", None))


def bombs(n: int) -> list[str]:
    """Inputs built to make a backtracking parser explode."""
    s = " " * n
    return [
        f"A v{s}5{s}h{s}z",
        f"v{s}.{s}5{s},{s}h{s}.{s}",
        "v" * 3 * n,
        "v5" * n + "h",
        "1" * 3 * n + "x",
        "1 " * n + "h",
        "1.1" * n,
        f"water {'v 1 ' * n}",
        "[" + "a" * 3 * n,
        '[Board "' + "\\" * 3 * n,
        "C:" + " ;" * n,
        "A " + "v5h7-" * n,
        "x" * 3 * n,
    ]


READERS: dict[str, tuple[Callable[[str], object], tuple[type[Exception], ...]]] = {
    "action": (lambda t: parse(t, 17), (ActionError,)),
    "game action": (LONG_GAME.parse_action, (ActionError,)),
    "square": (lambda t: parse_square(t, 17), (ValueError,)),
    "duration": (parse_duration, (BadDuration,)),
    "terrain map": (lambda t: parse_map(t, 17), (TerrainError,)),
    "record": (replay, (RecordError, ReplayError)),
    "rules topic": (rulebook.lookup, ()),
}


def check(reader: str, text: str) -> None:
    read, errors = READERS[reader]
    start = time.perf_counter()
    with contextlib.suppress(*errors):
        read(text)
    took = time.perf_counter() - start
    assert took < BOUND, f"{reader} took {took:.2f} s on {len(text)} characters"


@pytest.mark.parametrize("reader", sorted(READERS))
def test_adversarial_inputs_are_read_in_linear_time(reader: str) -> None:
    for n in (200, DISCORD_MOST // 3):
        for text in bombs(n):
            check(reader, text[:DISCORD_MOST])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    reader=st.sampled_from(sorted(READERS)),
    text=st.text(alphabet=ALPHABET, max_size=DISCORD_MOST)
    | st.text(max_size=DISCORD_MOST)
    | st.builds(
        lambda part, n: part * n, st.text(alphabet=ALPHABET, max_size=12), st.integers(0, 500)
    ),
)
def test_random_inputs_are_read_or_refused_quickly(reader: str, text: str) -> None:
    check(reader, text[:DISCORD_MOST])


def test_a_long_action_is_refused_with_its_length_and_not_echoed() -> None:
    text = "A v5h7-v4h6 " + "x" * 5000
    with pytest.raises(ActionError) as refused:
        parse(text, 9)
    message = str(refused.value)
    assert f"{len(text)} characters" in message and str(MAX_ACTION) in message
    assert len(message) < 400


def test_the_square_pattern_reads_every_accepted_form() -> None:
    for text in ("v5h7", "V5H7", "v.5, h.7", "v 5 h 7", "v. 5 , h. 7", "h7v5", "v5.h7"):
        assert parse_square(text, 9) == parse_square("v5h7", 9), text


def test_durations_are_bounded() -> None:
    assert parse_duration("1h30m") == 5400
    assert parse_duration(" 3 days, 2 hours ") == 3 * 86400 + 7200
    for text in ("9" * 400 + "h", "inf", "nan", "1e999h", "400 weeks", "-5m", "5", "h", ""):
        with pytest.raises(BadDuration):
            parse_duration(text)
