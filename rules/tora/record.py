"""Reading game records (R50): PGN-like headers, then one line per finished turn; and
replaying them. Writing one is ``rules.tora.transcript``'s."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ..digits import whole_number
from ..errors import ActionError
from ..protocol import UNFINISHED
from ..records import RecordError, ReplayError, act, lines_of, stage, unquote
from ..sides import Side
from .actions import DRAW, FORFEIT, RESET, RESIGN
from .events import HIDDEN_TEXT
from .game import Game
from .options import Options
from .terrain import TerrainError
from .transcript import ASSASSIN_HEADERS, write_record

_HEADER = re.compile(r'^\[(?P<key>[A-Za-z][A-Za-z0-9_]*)\s+"(?P<value>(?:[^"\\]|\\.)*)"\]$')
_TURN = re.compile(r"^(?P<side>[CO])\s*:(?P<body>.*)$")
REQUIRED = ("Board", "ChallengerSetup", "OppositionSetup")
GAME_ENDERS = (RESIGN, DRAW, RESET)
MAX_LINE = 4000  # characters: a long-board turn of 20 actions is under 800


@dataclass
class Record:
    headers: dict[str, str]
    turns: list[tuple[int, Side, list[str]]]  # (line number, side, action texts)


def parse_record(text: str) -> Record:
    headers: dict[str, str] = {}
    turns: list[tuple[int, Side, list[str]]] = []
    for number, raw in enumerate(lines_of(text), start=1):
        if len(raw) > MAX_LINE:
            raise RecordError(number, f"a line is at most {MAX_LINE} characters, not {len(raw)}")
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            if turns:
                raise RecordError(number, "header lines must come before the turns")
            m = _HEADER.match(line)
            if not m:
                raise RecordError(number, 'a header line looks like [Key "value"]')
            try:
                headers[m["key"]] = unquote(m["value"])
            except ValueError as exc:
                raise RecordError(number, str(exc)) from None
            continue
        m = _TURN.match(line)
        if not m:
            raise RecordError(number, "a turn line starts with 'C:' or 'O:'")
        body = m["body"].strip()
        actions = [part.strip() for part in body.split(";")] if body else []
        if any(not part for part in actions):
            raise RecordError(number, "an empty action between ';' separators")
        turns.append((number, Side.from_letter(m["side"]), actions))
    for key in REQUIRED:
        if key not in headers:
            raise RecordError(1, f'the header [{key} "..."] is required')
    return Record(headers, turns)


def options_from_headers(headers: dict[str, str]) -> Options:
    """Match options from record headers; ValueError names the bad header."""
    assassins = headers.get("Assassins", "off").lower()
    if assassins not in ("on", "off"):
        raise ValueError('Assassins must be "on" or "off"')
    target = headers.get("Target", "0") or "0"
    points = whole_number(target, 9)
    if points is None:
        raise ValueError(f"Target must be a whole number of points, not {target!r}")
    options = Options(
        board=headers["Board"].lower(),
        challenger_setup=headers["ChallengerSetup"].lower(),
        opposition_setup=headers["OppositionSetup"].lower(),
        terrain=headers.get("Terrain", "none").lower() or "none",
        terrain_map=headers.get("TerrainMap", ""),
        assassins=assassins == "on",
        rulers=(
            headers.get("ChallengerRuler", "K").upper(),
            headers.get("OppositionRuler", "K").upper(),
        ),
        target=points,
    )
    options.validate()
    return options


def assassin_starts_from_headers(headers: dict[str, str]) -> tuple[str | None, str | None]:
    """R41 start squares from a full record: a square, or ``none`` (not fielded)."""
    starts = [headers.get(key, "none") for key in ASSASSIN_HEADERS]
    return (
        None if starts[0].lower() == "none" else starts[0],
        None if starts[1].lower() == "none" else starts[1],
    )


def replay(
    text: str, *, trusted: bool = False, each_turn: Callable[[Game], None] | None = None
) -> Game:
    """Replay a record; RecordError if malformed, ReplayError at the first illegal action.

    ``trusted``: the record was judged when it was played (one of ours), so the trapped search
    (R25) runs only where the record ends and R30 does not judge its turn ends again (a
    later correction of R30 must not make our own records unreadable); every action is
    still checked. ``each_turn`` is
    called with the game at the start and after every finished turn."""
    record = parse_record(text)
    for line, _side, actions in record.turns:
        if any(action.startswith(HIDDEN_TEXT) for action in actions):
            raise RecordError(
                line,
                f"'{HIDDEN_TEXT}' is a hidden Assassin action: a public record cannot be "
                "replayed, only the full one",
            )
    try:
        options = options_from_headers(record.headers)
        game = Game(options, assassin_starts_from_headers(record.headers))
    except (ValueError, TerrainError) as exc:
        raise RecordError(_header_line(text), str(exc)) from None
    except ActionError as exc:
        raise RecordError(_header_line(text), exc.message) from None
    game.headers = {k: v for k, v in record.headers.items()}
    turns = record.turns
    if each_turn is not None:
        each_turn(game)
    for turn_number, (line, side, actions) in enumerate(turns, start=1):
        following = turns[turn_number] if turn_number < len(turns) else None
        cut_short = actions[-1:] == [UNFINISHED]
        if cut_short and not _resigned_against(side, following):
            raise RecordError(
                line, f"an '{UNFINISHED}' line must be followed by the opponent's 'resign'"
            )
        game.skip_trapped = trusted and following is not None
        game.judged_log = trusted  # the bot's own record: R30 judged each turn when played
        to_end = stage_line(game, turn_number, line, side, actions)
        if to_end and (not _resigned_against(side, following) or _was_ended(game)):
            act(turn_number, len(actions) + 1, game.end_turn)
        if each_turn is not None and not cut_short:
            each_turn(game)
    game.skip_trapped = game.judged_log = False
    return game


def _resigned_against(side: Side, following: tuple[int, Side, list[str]] | None) -> bool:
    """Whether the line ``following`` one of ``side``'s is the opponent's resignation."""
    return following is not None and following[1] != side and following[2] == [RESIGN]


def _was_ended(game: Game) -> bool:
    """Whether an unmarked line before the opponent's resignation was a finished turn.
    Records written before ``UNFINISHED`` marked a turn cut short left it unmarked: such a
    line is one if ending it is refused (R30), or if the end would finish the game before
    the resignation that follows; any other is read as ended, as it is written now."""
    trial = game.copy()
    try:
        trial.end_turn()
    except ActionError:
        return False
    return not trial.is_over()


def stage_line(game: Game, turn_number: int, line: int, side: Side, actions: list[str]) -> bool:
    """Play one turn line's actions; returns whether its turn is still to be ended: not a
    game-level act, nor a turn cut short by the opponent's resignation (R26), marked
    ``UNFINISHED``, which stays open."""
    cut_short = actions[-1:] == [UNFINISHED]
    if cut_short:
        actions = actions[:-1]
    if actions == [RESIGN]:
        act(turn_number, 1, lambda: game.resign(side))
        return False
    if actions == [FORFEIT]:  # always after the forfeiting side's last turn: never interrupts
        act(turn_number, 1, lambda: game.forfeit(side))
        return False
    if game.is_over():
        raise ReplayError(turn_number, 1, f"the game is over: {game.outcome()}")
    if side != game.side:
        raise ReplayError(
            turn_number, 1, f"it is the {game.side.title}'s turn, not the {side.title}'s (R7)"
        )
    for index, text in enumerate(actions, start=1):
        action = stage(game, line, turn_number, index, text)
        if action.kind in GAME_ENDERS:
            if index != len(actions):
                raise RecordError(line, f"'{action.kind}' must be the last action of its line")
            return False
    return not cut_short


def _header_line(text: str) -> int:
    for number, line in enumerate(lines_of(text), start=1):
        if line.strip().startswith("["):
            return number
    return 1


__all__ = [
    "ASSASSIN_HEADERS",
    "Record",
    "RecordError",
    "ReplayError",
    "assassin_starts_from_headers",
    "options_from_headers",
    "parse_record",
    "replay",
    "stage_line",
    "write_record",
]
