"""A match as its game record: what export writes, what import turns into a log. The
record's ``[Game]`` header names its game (none: TORA)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rules import GameState, game_type
from rules.records import JUDGE, game_of, headers_of

from .games import DEFAULT_GAME, Spec, new_game, spec_of
from .log import Entry, fingerprint, play, steps_from_turns
from .writes import Finish

# Written from the game's outcome, whatever the record said.
OUTCOME_HEADERS = frozenset({"Result", "Termination"})


def record_headers(headers: dict[str, str], challenger: str, opposition: str) -> dict[str, str]:
    """The extra headers of a match's record: the players' names, then any headers the match
    was imported with (they win: they are the record's own)."""
    return {"Challenger": challenger, "Opposition": opposition, **headers}


def write_record(game: GameState, extra: Mapping[str, str], audience: object = JUDGE) -> str:
    return game_type(game.game_type).write_record(game, audience, extra)  # type: ignore[arg-type]


def finish_of(game: GameState, extra: dict[str, str]) -> Finish:
    outcome = game.outcome()
    if outcome is None:
        raise ValueError("the game is not over")
    return Finish(outcome.winner, outcome.reason, game.scores(), write_record(game, extra))


@dataclass(frozen=True)
class Imported:
    game_id: str
    spec: Spec  # secret answers included (R41)
    headers: dict[str, str]
    game: GameState
    entries: list[Entry]


def prepare_import(text: str) -> Imported:
    """Replay a record (RecordError / ReplayError if it is malformed or illegal, ValueError
    for an unknown game) and derive the log that rebuilds the same game; ValueError if it
    cannot be stored faithfully."""
    kind = game_type(game_of(text, DEFAULT_GAME))
    recorded = kind.read_record(text)
    game = new_game(kind.id, spec_of(recorded))
    spec = spec_of(game)  # as the game type reads it back
    derived = set(headers_of(kind.write_record(game, JUDGE))) | OUTCOME_HEADERS
    headers = {
        key: value for key, value in getattr(recorded, "headers", {}).items() if key not in derived
    }
    entries = [play(game, step)[0] for step in steps_from_turns(recorded.turns)]
    if fingerprint(game) != fingerprint(recorded):
        raise ValueError("this record does not rebuild into the same game, so it is not stored")
    return Imported(kind.id, spec, headers, game, entries)
