"""What the games' records share (R50 style: ``[Key "value"]`` headers, then a line per
turn): the two errors of reading one, the judge's audience, and which game a record is of."""

from __future__ import annotations

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
    none (every TORA record before the other games came). Reads only the header lines, in
    linear time; the game's own reader checks the header's form."""
    for number, line in enumerate(text.splitlines()):
        line = line.strip()
        if number >= MAX_HEADER_SCAN or (line and not line.startswith("[")):
            break
        key, _, rest = line[1:].partition(" ")
        if key == "Game" and rest.strip().startswith('"'):
            return rest.strip().strip('"]').strip().lower()
    return default
