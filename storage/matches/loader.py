"""Rebuilding a match's game from its rows: the latest snapshot plus the log after it, every
entry replayed through the rules core and compared with what was stored."""

from __future__ import annotations

from contextlib import ExitStack

from rules import ActionError, GameState
from rules.digits import whole_number

from ..errors import CorruptMatch
from .codec import load_game
from .games import Spec, joined, new_game, replaying, same_setup, spec_from_json
from .log import REWIND, Entry, play, step_of
from .models import State
from .reads import Stored, entry_of


class SnapshotUnusable(Exception):
    """The snapshot does not unpickle into a game: rebuild from the whole log instead."""


def rebuild(stored: Stored, upto: int | None = None) -> GameState:
    """The game of ``stored``; CorruptMatch (naming the match) if any row is inconsistent,
    SnapshotUnusable if the snapshot must be ignored. With ``upto``, the game as it was
    after that log entry (``stored`` holds the whole log; the match's own totals are not
    checked)."""
    match_id, game_id = stored.info.id, stored.info.game
    try:
        spec = joined(spec_from_json(game_id, stored.options), stored.secrets)
    except ValueError as exc:
        raise CorruptMatch(match_id, str(exc)) from None
    game, seq = _first(stored, spec)
    entries = stored.entries if upto is None else [e for e in stored.entries if e[0] <= upto]
    game, seq = _replay_all(stored, spec, game, seq, entries)
    if upto is not None:
        if seq != upto:
            raise CorruptMatch(match_id, f"its log has no entry {upto} to go back to")
        return game
    if seq != stored.info.actions:
        raise CorruptMatch(
            match_id, f"it counts {stored.info.actions} log entries but its log ends at {seq}"
        )
    _check_state(stored, game)
    if stored.info.closed is not None:
        game.publish()  # it ended without a result: what it hid is public (R44)
    return game


def _first(stored: Stored, spec: Spec) -> tuple[GameState, int]:
    """Where a replay starts: the snapshot's game and log entry, or a new game."""
    match_id, game_id = stored.info.id, stored.info.game
    if stored.snapshot is not None:
        game = load_game(stored.snapshot.data, stored.snapshot.state_version, game_id)
        if game is None:
            raise SnapshotUnusable(f"its snapshot at log entry {stored.snapshot.seq} is unreadable")
        if not same_setup(game_id, game, spec):
            raise CorruptMatch(match_id, "its snapshot is of a game with other options")
        return game, stored.snapshot.seq
    try:
        return new_game(game_id, spec), 0
    except (ActionError, ValueError):  # the reason may name a secret square: not shown
        raise CorruptMatch(match_id, "the rules core refuses its secret setup") from None


def _replay_all(
    stored: Stored,
    spec: Spec,
    game: GameState,
    seq: int,
    entries: list[tuple[int, tuple[object, ...]]],
) -> tuple[GameState, int]:
    """``entries`` replayed on ``game`` (after log entry ``seq``); a rewind starts again
    from the beginning and replays up to the entry it goes back to."""
    match_id = stored.info.id
    with ExitStack() as judged:  # the log was judged when played (TORA: R25 once, where it ends)
        judged.enter_context(replaying(game))
        for number, row in entries:
            if number != seq + 1:
                raise CorruptMatch(match_id, f"its action log jumps from entry {seq} to {number}")
            back = _rewind_to(match_id, number, row)
            if back is None:
                _replay(match_id, game, number, row)
            else:
                game = _rewound(stored, spec, back)
                judged.enter_context(replaying(game))
            seq = number
    return game, seq


def _rewind_to(match_id: int, number: int, row: tuple[object, ...]) -> int | None:
    """The log entry a rewind goes back to, or None for any other entry."""
    if row[3] != REWIND:
        return None
    back = whole_number(str(row[4]))
    if back is None or back >= number:
        raise CorruptMatch(match_id, f"log entry {number} rewinds to {row[4]!r}")
    return back


def _rewound(stored: Stored, spec: Spec, back: int) -> GameState:
    """The game as it was after log entry ``back``, replayed again from the start (or from
    the snapshot, if it is not later)."""
    if stored.snapshot is not None and stored.snapshot.seq > back:
        raise SnapshotUnusable(f"a rewind goes back before its snapshot ({back})")
    game, seq = _first(stored, spec)
    head = [entry for entry in stored.entries if entry[0] <= back]
    game, seq = _replay_all(stored, spec, game, seq, head)
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
