"""What the games' records share (R50 style: ``[Key "value"]`` headers, then a line per
turn): the two errors of reading one, the judge's audience, which game a record is of, its
lines and the quoting of a header's value.

A record's lines end with "\n" alone: a reader splits there (``lines_of``), not wherever
``str.splitlines()`` would (U+2028, U+0085, form feed...). So that no header holds any line
break, or any character a reader could take for one, a header value writes ``\\"`` for a
quote, ``\\\\`` for a backslash, and ``\\uXXXX`` (4 hex digits) for a control character (C0,
DEL, C1) or a line or paragraph separator (``quote``, ``unquote``): any player's name
round-trips. Records written before those escapes (``\\"`` and ``\\\\`` alone) read as ever."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from .errors import ActionError, MalformedAction
from .protocol import GameState
from .sides import Outcome, Side

A = TypeVar("A")

JUDGE = "judge"  # the audience of the full record, hidden actions included
MAX_HEADER_SCAN = 200  # lines: the headers come first, so a [Game] header is found early
# What a header value writes as \uXXXX: the control characters and the line separators.
_UNPRINTED = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_ESCAPE = re.compile(r'\\(?:u([0-9A-Fa-f]{4})|(["\\]))')
_ESCAPES = 'a header value escapes only \\", \\\\ and a control character or line break as \\uXXXX'


class RecordError(ValueError):
    """The record itself is malformed; ``line`` is 1-based."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.message = message


class ReplayError(ValueError):
    """An action in a well-formed record is illegal; ``turn`` and ``action`` are 1-based."""

    def __init__(self, turn: int, action: int, reason: str) -> None:
        super().__init__(f"turn {turn} action {action}: {reason}")
        self.turn, self.action, self.reason = turn, action, reason


def game_of(text: str, default: str) -> str:
    """The id in the record's ``[Game "..."]`` header, lower-cased, or ``default`` when it has
    none (a TORA record may omit it). Reads only the header lines, in
    linear time; the game's own reader checks the header's form."""
    game = headers_of(text).get("Game")
    return default if game is None else game.strip().lower()


def headers_of(text: str) -> dict[str, str]:
    """The ``[Key "value"]`` headers at the head of a record, read leniently in linear time
    (for labels such as player names; each game's reader checks a record strictly)."""
    headers: dict[str, str] = {}
    for number, line in enumerate(lines_of(text)):
        line = line.strip()
        if number >= MAX_HEADER_SCAN or (line and not line.startswith("[")):
            break
        key, _, rest = line[1:].partition(" ")
        rest = rest.strip()
        if key and rest.startswith('"') and rest.endswith('"]'):
            try:
                headers[key] = unquote(rest[1:-2])
            except ValueError:
                continue  # the game's own reader says what is wrong with it
    return headers


def lines_of(text: str) -> list[str]:
    """A record's lines, split at "\n" alone, as the writer joins them (a line keeps any
    other line break, as a header value of an older record may hold one raw); a "\r" that
    ends a line (a copy saved on Windows) is dropped, and so is the empty piece after the
    last "\n"."""
    lines = text.split("\n")
    if not lines[-1]:
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


def quote(value: str) -> str:
    """A header's value as written between its quotes: see the module's docstring."""
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return _UNPRINTED.sub(lambda m: f"\\u{ord(m[0]):04x}", escaped)


def unquote(value: str) -> str:
    """Undo ``quote``; ValueError (its message a record error's) for a value it does not
    write: a bare quote, a lone backslash, any other escape."""
    rest = _ESCAPE.sub("", value)
    if '"' in rest:
        raise ValueError('a quote inside a header value is written \\"')
    if "\\" in rest:
        raise ValueError(_ESCAPES)
    return _ESCAPE.sub(_unescaped, value)


def _unescaped(escape: re.Match[str]) -> str:
    if escape[2]:
        return escape[2]
    char = chr(int(escape[1], 16))
    if not _UNPRINTED.fullmatch(char):
        raise ValueError(_ESCAPES)
    return char


def result_tag(outcome: Outcome | None) -> str:
    """The ``Result`` header: ``*`` while playing, ``1-0``, ``0-1`` or ``1/2-1/2``."""
    if outcome is None:
        return "*"
    if outcome.winner is None:
        return "1/2-1/2"
    return "1-0" if outcome.winner == Side.CHALLENGER else "0-1"


def write(headers: dict[str, str], outcome: Outcome | None, lines: Sequence[str]) -> str:
    """A record: ``headers`` (then ``Result`` and, once over, ``Termination``), a blank line,
    and the turn ``lines`` (``C: ...``)."""
    closing = {"Result": result_tag(outcome)}
    if outcome is not None:
        closing["Termination"] = outcome.reason
    head = [f'[{key} "{quote(value)}"]' for key, value in {**headers, **closing}.items()]
    return "\n".join([*head, "", *lines]) + "\n"


def act(turn: int, index: int, step: Callable[[], object]) -> None:
    """Run one step of a replay; a refusal becomes ReplayError at ``turn``, ``index``."""
    try:
        step()
    except ActionError as exc:
        raise ReplayError(turn, index, exc.message) from None


def stage(game: GameState[A, Any, Any, Any], line: int, turn: int, index: int, text: str) -> A:
    """Parse and apply action ``text`` of a record's ``line`` (a ``GameState``); returns the
    action. Text that is not notation at all is RecordError, an illegal action ReplayError."""
    try:
        action = game.parse_action(text)
    except MalformedAction as exc:
        raise RecordError(line, exc.message) from None
    except ActionError as exc:
        raise ReplayError(turn, index, exc.message) from None
    act(turn, index, lambda: game.apply(action))
    return action
