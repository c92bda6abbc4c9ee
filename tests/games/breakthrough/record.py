"""Breakthrough's records, as the other games write theirs: ``[Key "value"]`` headers, then a
line per turn (``C: a1-a2``, or a game word, ``resign``, ``draw``, ``forfeit``, last)."""

from __future__ import annotations

from collections.abc import Mapping

from rules.errors import ActionError, MalformedAction
from rules.protocol import FORFEIT
from rules.records import RecordError, ReplayError, headers_of, lines_of, write
from rules.sides import Side
from rules.turn import DRAW, RESIGN

from .board import START
from .game import BreakthroughGame

GAME_ID = "breakthrough"
MAX_LINES = 2000
MAX_LINE = 200
_COMPUTED = ("Game", "FEN", "Result", "Termination")


def write_record(game: BreakthroughGame, extra: Mapping[str, str] | None = None) -> str:
    headers = {"Game": GAME_ID}
    if game.start != START:
        headers["FEN"] = game.start
    for key, value in {**game.headers, **(extra or {})}.items():
        if key not in _COMPUTED:
            headers[key] = value
    return write(headers, game.outcome(), [f"{t.side.letter}: {t.texts[0]}" for t in game.turns])


def read_record(text: str) -> BreakthroughGame:
    """RecordError if the record is malformed, ReplayError at an illegal move."""
    lines = lines_of(text)
    if len(lines) > MAX_LINES:
        raise RecordError(MAX_LINES + 1, f"a record has at most {MAX_LINES} lines")
    headers = headers_of(text)
    if headers.get("Game", GAME_ID).lower() != GAME_ID:
        raise RecordError(1, f"this is not a record of {GAME_ID}")
    try:
        game = BreakthroughGame(headers.get("FEN", START))
    except ValueError as exc:
        raise RecordError(1, f"bad FEN: {exc}") from None
    game.headers = {key: value for key, value in headers.items() if key not in _COMPUTED}
    turn = 0
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if len(raw) > MAX_LINE:
            raise RecordError(number, f"a line has at most {MAX_LINE} characters")
        if not line or line.startswith("["):
            continue
        letter, colon, body = line.partition(":")
        if not colon or letter.strip() not in ("C", "O"):
            raise RecordError(number, "a turn line starts with 'C:' or 'O:'")
        turn += 1
        _play(game, turn, number, Side.from_letter(letter.strip()), body.strip().lower())
    return game


def _play(game: BreakthroughGame, turn: int, line: int, side: Side, body: str) -> None:
    try:
        if body in (RESIGN, FORFEIT):
            (game.resign if body == RESIGN else game.forfeit)(side)
        elif side != game.side:
            raise ReplayError(turn, 1, f"it is the {game.side.title}'s turn (BT1)")
        elif body == DRAW:
            game.agree(DRAW)
        else:
            game.apply(body)
            game.end_turn()
    except MalformedAction as exc:
        raise RecordError(line, exc.message) from None
    except ActionError as exc:
        raise ReplayError(turn, 1, exc.message) from None
