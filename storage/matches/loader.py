"""Rebuilding a match's game from its rows: the latest snapshot plus the log after it, every
entry replayed through the rules core and compared with what was stored."""

from __future__ import annotations

from rules import ActionError, GameState

from ..errors import CorruptMatch
from .codec import load_game
from .games import joined, new_game, replaying, same_setup, spec_from_json
from .log import Entry, play, step_of
from .models import State
from .reads import Stored, entry_of


class SnapshotUnusable(Exception):
    """The snapshot does not unpickle into a game: rebuild from the whole log instead."""


def rebuild(stored: Stored) -> GameState:
    """The game of ``stored``; CorruptMatch (naming the match) if any row is inconsistent,
    SnapshotUnusable if the snapshot must be ignored."""
    match_id, game_id = stored.info.id, stored.info.game
    try:
        spec = joined(spec_from_json(game_id, stored.options), stored.secrets)
    except ValueError as exc:
        raise CorruptMatch(match_id, str(exc)) from None
    if stored.snapshot is not None:
        game = load_game(stored.snapshot.data, stored.snapshot.state_version, game_id)
        if game is None:
            raise SnapshotUnusable(f"its snapshot at log entry {stored.snapshot.seq} is unreadable")
        if not same_setup(game_id, game, spec):
            raise CorruptMatch(match_id, "its snapshot is of a game with other options")
        seq = stored.snapshot.seq
    else:
        try:
            game = new_game(game_id, spec)
        except (ActionError, ValueError):  # the reason may name a secret square: not shown
            raise CorruptMatch(match_id, "the rules core refuses its secret setup") from None
        seq = 0
    with replaying(game):  # the log was judged when played (TORA: R25 once, where it ends)
        for number, row in stored.entries:
            if number != seq + 1:
                raise CorruptMatch(match_id, f"its action log jumps from entry {seq} to {number}")
            _replay(match_id, game, number, row)
            seq = number
    if seq != stored.info.actions:
        raise CorruptMatch(
            match_id, f"it counts {stored.info.actions} log entries but its log ends at {seq}"
        )
    _check_state(stored, game)
    return game


def _replay(match_id: int, game: GameState, number: int, row: tuple[object, ...]) -> None:
    try:
        entry = entry_of(row)
    except ValueError as exc:
        raise CorruptMatch(match_id, f"log entry {number} is unreadable: {exc}") from None
    shown = f"log entry {number} ({entry.kind} {entry.public!r})"
    try:
        replayed, _result = play(game, step_of(entry))
    except (ActionError, ValueError) as exc:
        # a refusal may describe a hidden piece: say why only for public actions
        why = "" if entry.hidden else f": {exc}"
        raise CorruptMatch(match_id, f"{shown} is refused{why}") from None
    except Exception as exc:  # whatever the damage, it is this match's, reported as such
        why = "" if entry.hidden else f" ({exc!r})"
        raise CorruptMatch(match_id, f"{shown} fails in the rules core{why}") from exc
    if _essence(replayed) != _essence(entry):
        raise CorruptMatch(
            match_id,
            f"log entry {number} is stored as {_shown(entry)} but replays as {_shown(replayed)}",
        )


def _essence(entry: Entry) -> tuple[object, ...]:
    """What a replayed entry must share with its row. Not the texts: they are the rules
    core's rendering of the action, which a newer rules core may write differently."""
    return entry.kind, entry.side, entry.turn, entry.hidden


def _shown(entry: Entry) -> str:
    hidden = ", hidden" if entry.hidden else ""
    return f"({entry.kind} by {entry.side.letter} in turn {entry.turn}: {entry.public!r}{hidden})"


def _check_state(stored: Stored, game: GameState) -> None:
    kept, replayed = stored.info.state, State.of(game)
    if kept != replayed:
        raise CorruptMatch(
            stored.info.id, f"its stored state {kept} differs from its log's {replayed}"
        )
