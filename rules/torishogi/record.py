"""Game records (TS12): headers as TORA's (``[Key "value"]``), then one line per turn.

    [Game "torishogi"]
    [FEN "..."]              only when the game did not start from the start position
    [Challenger "ann"]
    [Result "1-0"]
    [Termination "checkmate"]

    C: c3c4
    O: c5c4
    C: resign

A turn line holds one move in canonical notation, or a game word (``resign``, ``draw``,
``forfeit``) as the record's last line. Reading is one pass over lines of at most
``MAX_LINE`` characters (and at most ``MAX_LINES`` lines), with no regular expressions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from rules.errors import ActionError, MalformedAction
from rules.sides import Side
from rules.turn import DRAW, RESIGN

from ..records import RecordError, ReplayError, lines_of, unquote, write
from .events import FORFEIT_WORD, GAME_WORDS
from .fen import START_FEN
from .game import ToriShogiGame

GAME_ID = "torishogi"
MAX_LINE = 300
MAX_LINES = 4000
_COMPUTED = ("Game", "FEN", "Result", "Termination")


def write_record(game: ToriShogiGame, extra: Mapping[str, str] | None = None) -> str:
    """The record of ``game``; nothing is hidden, so every audience gets the same one."""
    headers = {"Game": GAME_ID}
    if game.start_fen != START_FEN:
        headers["FEN"] = game.start_fen
    for key, value in {**game.headers, **(extra or {})}.items():
        if key not in _COMPUTED:
            headers[key] = value
    return write(headers, game.outcome(), [f"{t.side.letter}: {t.texts[0]}" for t in game.turns])


def read_record(
    text: str, each_turn: Callable[[ToriShogiGame], None] | None = None
) -> ToriShogiGame:
    """Replay a record: RecordError if it is malformed, ReplayError at an illegal move.
    ``each_turn`` sees the game at the start and after every line (a move, or the
    resignation, agreed draw or forfeit that ends it)."""
    headers: dict[str, tuple[int, str]] = {}
    turns: list[tuple[int, Side, str]] = []
    lines = lines_of(text)
    if len(lines) > MAX_LINES:
        raise RecordError(MAX_LINES + 1, f"a record has at most {MAX_LINES} lines")
    for number, raw in enumerate(lines, start=1):
        if len(raw) > MAX_LINE:
            raise RecordError(
                number, f"the line is {len(raw)} characters long, the limit is {MAX_LINE}"
            )
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            if turns:
                raise RecordError(number, "header lines must come before the turns")
            key, value = _header(number, line)
            headers[key] = (number, value)
        else:
            turns.append(_turn(number, line))
    game = _start(headers)
    if each_turn is not None:
        each_turn(game)
    for index, (number, side, body) in enumerate(turns, start=1):
        if body in GAME_WORDS and index != len(turns):
            raise RecordError(number, f"'{body}' ends the game: it must be the last line")
        _play(game, index, number, side, body)
        if each_turn is not None:
            each_turn(game)
    return game


def _header(number: int, line: str) -> tuple[str, str]:
    """``[Key "value"]``, the value quoted as ``rules.records.quote`` writes it."""
    shape = 'a header line looks like [Key "value"]'
    if not line.endswith('"]'):
        raise RecordError(number, shape)
    key, _, rest = line[1:-1].partition(" ")
    rest = rest.lstrip()
    if not key or not (key[0].isascii() and key[0].isalpha()) or len(rest) < 2:
        raise RecordError(number, shape)
    if not all(c.isascii() and (c.isalnum() or c == "_") for c in key) or rest[0] != '"':
        raise RecordError(number, shape)
    try:
        return key, unquote(rest[1:-1])
    except ValueError as exc:
        raise RecordError(number, str(exc)) from None


def _turn(number: int, line: str) -> tuple[int, Side, str]:
    letter, colon, body = line.partition(":")
    if not colon or letter.strip() not in ("C", "O"):
        raise RecordError(number, "a turn line starts with 'C:' or 'O:'")
    body = body.strip()
    if not body:
        raise RecordError(number, "a turn line holds one move")
    if ";" in body:
        raise RecordError(number, "a turn line holds exactly one move or game word")
    word = body.lower()
    return number, Side.from_letter(letter.strip()), word if word in GAME_WORDS else body


def _start(headers: dict[str, tuple[int, str]]) -> ToriShogiGame:
    if "Game" in headers and headers["Game"][1].lower() != GAME_ID:
        line, value = headers["Game"]
        raise RecordError(line, f'this is a record of {value!r}, not of "{GAME_ID}"')
    fen_line, fen = headers.get("FEN", (1, START_FEN))
    try:
        game = ToriShogiGame(fen)
    except ValueError as exc:
        raise RecordError(fen_line, f"bad FEN: {exc}") from None
    game.headers = {key: value for key, (_l, value) in headers.items() if key not in _COMPUTED}
    return game


def _play(game: ToriShogiGame, turn: int, line: int, side: Side, body: str) -> None:
    try:
        if body in (RESIGN, FORFEIT_WORD):
            (game.resign if body == RESIGN else game.forfeit)(side)
            return
        if game.is_over():
            raise ReplayError(turn, 1, f"the game is over: {game.outcome()}")
        if side != game.side:
            raise ReplayError(
                turn, 1, f"it is the {game.side.title}'s turn, not the {side.title}'s (TS1)"
            )
        if body == DRAW:
            game.agree(DRAW)
            return
        game.apply(body)
        game.end_turn()
    except MalformedAction as exc:
        raise RecordError(line, exc.message) from None
    except ActionError as exc:
        raise ReplayError(turn, 1, exc.message) from None
