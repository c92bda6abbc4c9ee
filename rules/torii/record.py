"""Game records (TI19, after TORA's R50): headers, then one line per finished turn.

    [Game "torii"]
    [ChallengerSpirit "Kitsune"]
    [OppositionSpirit "Monkey"]
    [Powers "on"]
    [FEN "c5/c5/c5/1ccc2/6/6 Ka2,Mf6 3,9 4,4 1,123 C on"]
    [Result "*"]

    C: 1 a3 build a3 a3-d3 build a5
    O: flip C ; flip none
    O: 3 e6 e5 e4

A Monkey decision turn lists its decisions separated by `` ; ``; ``pass`` is a pass (TI8)
or a turn left to its deadline (the same effect); ``resign``, ``forfeit`` and ``draw`` end
the game. ``[FEN "..."]`` gives a start other than TI3's. Reading is one pass over lines
split once; a record is at most ``MAX_RECORD`` characters.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from rules.errors import IllegalAction
from rules.protocol import FORFEIT
from rules.sides import Side
from rules.turn import DRAW, RESIGN
from rules.words import msg

from ..records import JUDGE, RecordError, ReplayError, act, lines_of, stage, unquote, write
from . import fen as position_string
from .actions import PASS, PASS_TEXT
from .game import ToriiGame
from .state import Setup, spirit_named, start_position

MAX_RECORD = 1 << 20  # 1 MiB: about 20,000 turns
MAX_LINE = 400
GAME_ID = "torii"
GAME_ENDERS = (RESIGN, DRAW, FORFEIT)
# Headers a record's writer makes from the game itself; any others are kept as read.
DERIVED_HEADERS = (
    "Game",
    "ChallengerSpirit",
    "OppositionSpirit",
    "Powers",
    "FEN",
    "Result",
    "Termination",
)


@dataclass
class Record:
    headers: dict[str, str]
    turns: list[tuple[int, Side, list[str]]]  # (line number, side, action texts)


def write_record(
    game: ToriiGame, audience: Side | str | None = JUDGE, extra: Mapping[str, str] | None = None
) -> str:
    """The record; Torii hides nothing, so it is the same for every ``audience``."""
    headers = {
        "Game": GAME_ID,
        "ChallengerSpirit": game.setup.spirits[Side.CHALLENGER],
        "OppositionSpirit": game.setup.spirits[Side.OPPOSITION],
        "Powers": "on" if game.setup.powers else "off",
    }
    if game.start != start_position():
        headers["FEN"] = position_string.write(game.start, game.setup)
    for key, value in {**game.headers, **(extra or {})}.items():
        headers.setdefault(key, value)
    turns = [f"{turn.side.letter}: {' ; '.join(turn.texts)}" for turn in game.turns]
    return write(headers, game.outcome(), turns)


def parse_record(text: str) -> Record:
    if len(text) > MAX_RECORD:
        raise RecordError(1, f"the record is {len(text)} characters, the limit is {MAX_RECORD}")
    headers: dict[str, str] = {}
    turns: list[tuple[int, Side, list[str]]] = []
    for number, raw in enumerate(lines_of(text), start=1):
        line = raw.strip()
        if len(line) > MAX_LINE:
            raise RecordError(number, f"a line is at most {MAX_LINE} characters, not {len(line)}")
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            if turns:
                raise RecordError(number, "header lines must come before the turns")
            key, value = _header(number, line)
            headers[key] = value
            continue
        side_letter, colon, body = line.partition(":")
        if not colon or side_letter.strip() not in ("C", "O"):
            raise RecordError(number, "a turn line starts with 'C:' or 'O:'")
        # R50 writes a pass as nothing after the colon: read so, it is Torii's ``pass``
        actions = [part.strip() for part in body.split(";")] if body.strip() else [PASS_TEXT]
        if any(not part for part in actions):
            raise RecordError(number, "an empty action (nothing between ':' or ';' separators)")
        turns.append((number, Side.from_letter(side_letter.strip()), actions))
    return Record(headers, turns)


def _header(number: int, line: str) -> tuple[str, str]:
    """``[Key "value"]``, the value quoted as ``rules.records.quote`` writes it."""
    key, space, rest = line[1:].partition(" ")
    plain = key.replace("_", "")
    if not space or not plain.isascii() or not plain.isalnum() or not key[:1].isalpha():
        raise RecordError(number, 'a header line looks like [Key "value"]')
    rest = rest.strip()
    if len(rest) < 3 or rest[0] != '"' or not rest.endswith('"]'):
        raise RecordError(number, 'a header line looks like [Key "value"]')
    try:
        return key, unquote(rest[1:-2])
    except ValueError as exc:
        raise RecordError(number, str(exc)) from None


def setup_from_headers(headers: dict[str, str]) -> Setup:
    if headers.get("Game", "").lower() != GAME_ID:
        raise ValueError(f'a Torii record starts with [Game "{GAME_ID}"]')
    spirits = []
    for key in ("ChallengerSpirit", "OppositionSpirit"):
        if key not in headers:
            raise ValueError(f'the header [{key} "..."] is required')
        spirits.append(spirit_named(headers[key]))
    powers = headers.get("Powers", "on").lower()
    if powers not in ("on", "off"):
        raise ValueError(f'Powers must be "on" or "off", not {headers["Powers"]!r}')
    return Setup((spirits[0], spirits[1]), powers == "on")


def read_record(text: str, each_turn: Callable[[ToriiGame], None] | None = None) -> ToriiGame:
    """Replay a record: RecordError if it is malformed, ReplayError at the first illegal
    action. ``each_turn`` sees the game at the start and after every turn."""
    record = parse_record(text)
    try:
        setup = setup_from_headers(record.headers)
        start = None
        if "FEN" in record.headers:
            start, fen_setup = position_string.read(record.headers["FEN"])
            if fen_setup != setup:
                raise ValueError("the FEN header's Spirits or powers differ from the headers")
    except ValueError as exc:
        raise RecordError(_header_line(text), str(exc)) from None
    game = ToriiGame(setup, start)
    game.headers = {k: v for k, v in record.headers.items() if k not in DERIVED_HEADERS}
    if each_turn is not None:
        each_turn(game)
    for number, (line, side, actions) in enumerate(record.turns, start=1):
        play_turn(game, number, line, side, actions)
        if each_turn is not None:
            each_turn(game)
    return game


def play_turn(game: ToriiGame, number: int, line: int, side: Side, actions: list[str]) -> None:
    if len(actions) == 1 and actions[0] in GAME_ENDERS:
        act(number, 1, lambda: _end_game(game, side, actions[0]))
        return
    if game.is_over():
        raise ReplayError(number, 1, f"the game is over: {game.outcome()}")
    if side != game.side:
        raise ReplayError(number, 1, f"it is the {game.side.title}'s turn, not the {side.title}'s")
    if lapsed(game, actions):
        act(number, 1, lambda: game.end_turn(deadline=True))
        return
    for index, text in enumerate(actions, start=1):
        stage(game, line, number, index, text)
    act(number, len(actions) + 1, game.end_turn)


def lapsed(game: ToriiGame, actions: Sequence[str]) -> bool:
    """Whether a turn recorded as ``actions`` was left to its deadline: a ``pass`` that is
    not TI8's (a tile had a path), played by ending the turn at its deadline."""
    return list(actions) == [PASS_TEXT] and not game.deciding and game.legal_actions() != [PASS]


def _end_game(game: ToriiGame, side: Side, kind: str) -> None:
    if kind == RESIGN:
        game.resign(side)
    elif kind == FORFEIT:
        game.forfeit(side)
    elif side != game.side:
        raise IllegalAction("TI18", msg("a draw is recorded in the turn of the side to act"))
    else:
        game.agree(DRAW)


def _header_line(text: str) -> int:
    for number, line in enumerate(text.split("\n"), start=1):
        if line.strip().startswith("["):
            return number
    return 1
