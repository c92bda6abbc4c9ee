"""A match as its game record (R50): what export writes, what import turns into a log."""

from __future__ import annotations

from dataclasses import dataclass

from rules.tora import (
    ASSASSIN_HEADERS,
    Game,
    Options,
    assassin_starts_from_headers,
    replay,
    write_record,
)

from .loader import new_game
from .log import Entry, fingerprint, play, steps_from_turns
from .writes import Finish

# Headers the record writer derives from the game itself; an imported record's own values
# are not kept with the match (the Assassin start squares are secrets, kept privately).
DERIVED_HEADERS = frozenset(
    {
        "Board",
        "ChallengerSetup",
        "OppositionSetup",
        "Terrain",
        "TerrainMap",
        "Assassins",
        "ChallengerRuler",
        "OppositionRuler",
        "Target",
        "Result",
        "Termination",
        *ASSASSIN_HEADERS,
    }
)


def record_headers(headers: dict[str, str], challenger: str, opposition: str) -> dict[str, str]:
    """The extra headers of a match's record: the players' names, then any headers the match
    was imported with (they win: they are the record's own)."""
    return {"Challenger": challenger, "Opposition": opposition, **headers}


def finish_of(game: Game, extra: dict[str, str]) -> Finish:
    outcome = game.outcome()
    if outcome is None:
        raise ValueError("the game is not over")
    return Finish(outcome.winner, outcome.reason, game.scores(), write_record(game, extra))


@dataclass(frozen=True)
class Imported:
    options: Options
    starts: tuple[str | None, str | None]  # secret (R41)
    headers: dict[str, str]
    game: Game
    entries: list[Entry]


def prepare_import(text: str) -> Imported:
    """Replay a record (RecordError / ReplayError if it is malformed or illegal) and derive
    the log that rebuilds the same game; ValueError if it cannot be stored faithfully."""
    recorded = replay(text)
    headers = {
        key: value
        for key, value in getattr(recorded, "headers", {}).items()
        if key not in DERIVED_HEADERS
    }
    starts = assassin_starts_from_headers(recorded.headers)
    game = new_game(recorded.options, starts)
    entries = [play(game, step)[0] for step in steps_from_turns(recorded.turns)]
    if fingerprint(game) != fingerprint(recorded):
        raise ValueError("this record does not rebuild into the same game, so it is not stored")
    return Imported(recorded.options, starts, headers, game, entries)
