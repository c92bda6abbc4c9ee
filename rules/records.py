"""What the games' records share (R50 style: ``[Key "value"]`` headers, then a line per
turn): the two errors of reading one, the judge's audience, and which game a record is of."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from .errors import ActionError, MalformedAction
from .protocol import GameState
from .sides import Outcome, Side

A = TypeVar("A")

JUDGE = "judge"  # the audience of the full record, hidden actions included
MAX_HEADER_SCAN = 200  # lines: the headers come first, so a [Game] header is found early


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
    for number, line in enumerate(text.splitlines()):
        line = line.strip()
        if number >= MAX_HEADER_SCAN or (line and not line.startswith("[")):
            break
        key, _, rest = line[1:].partition(" ")
        rest = rest.strip()
        if key and rest.startswith('"') and rest.endswith('"]'):
            headers[key] = _unquote(rest[1:-2])
    return headers


def _unquote(value: str) -> str:
    """Undo ``_quote``: a backslash keeps the character after it."""
    out: list[str] = []
    escaped = False
    for char in value:
        if escaped or char != "\\":
            out.append(char)
            escaped = False
        else:
            escaped = True
    return "".join(out)


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
    head = [f'[{key} "{_quote(value)}"]' for key, value in {**headers, **closing}.items()]
    return "\n".join([*head, "", *lines]) + "\n"


def _quote(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


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
