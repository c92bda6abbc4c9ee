"""How a game ends after a move (TS9, TS10), judged when a turn is confirmed; and the warning
of a move that would end it against its player by repetition (TS10), before it is staged."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rules.sides import Outcome, Side
from rules.turn import ENDINGS
from rules.words import Text, msg

from .movegen import in_check
from .moves import Move
from .position import Key, Position

REPETITIONS = 4


def repetition_outcome(history: list[tuple[Key, bool]]) -> Outcome | None:
    """TS10, as Fairy-Stockfish judges ``torishogi``. ``history[i]`` is the key of the i-th
    position of the game and whether its side to move was in check; the last one is now.

    When the position now occurs for the fourth time, look at the stretch from its first of
    those four occurrences to now: if the player who just moved gave check in every position
    of it and the other did not, the checker loses (perpetual check); if the player to move
    gave every check, they lose; if both did, it is a draw; otherwise the player who made the
    repeating move loses."""
    now = len(history) - 1
    key = history[now][0]
    seen = []
    for index in range(now, -1, -2):
        if history[index][0] == key:
            seen.append(index)
            if len(seen) == REPETITIONS:
                break
    if len(seen) < REPETITIONS:
        return None
    first = seen[-1]
    to_move = Side(key[2])
    mover = to_move.other
    mover_checks = all(history[i][1] for i in range(first, now + 1, 2))
    to_move_checks = all(history[i][1] for i in range(first + 1, now, 2))
    if mover_checks and to_move_checks:
        return Outcome(None, "mutual perpetual check")
    if mover_checks:
        return Outcome(to_move, "perpetual check")
    if to_move_checks:
        return Outcome(mover, "perpetual check")
    return Outcome(to_move, "fourfold repetition")


def repetition_warnings(
    pos: Position, history: list[tuple[Key, bool]], legal: Sequence[Move], notations: Sequence[str]
) -> tuple[str, ...]:
    """For each of the moves ``notations`` names among the ``legal`` ones of ``pos``, the
    last position of ``history``: what TS10 would hold against it, "" for nothing. Only a
    position seen three times already can occur a fourth time, so unless one has, no move is
    even looked at: the menus ask for this at every look, and a repetition is rare."""
    seen = Counter(key for key, _checked in history)
    due = {key for key, times in seen.items() if times >= REPETITIONS - 1}
    if not due:
        return ("",) * len(notations)
    code_of = {move.uci: move.code for move in legal}
    trial = pos.copy()
    return tuple(_repetition_warning(trial, code_of[n], history, due) for n in notations)


def _repetition_warning(
    trial: Position, move: int, history: list[tuple[Key, bool]], due: set[Key]
) -> str:
    """The warning of ``move`` when it makes a position of ``due`` and the mover does not
    win by it (the checked side's move ending a perpetual check wins)."""
    mover = Side(trial.side)
    token = trial.make(move)
    key = trial.key()
    checked = key in due and in_check(trial)
    trial.unmake(move, token)
    if key not in due:
        return ""
    outcome = repetition_outcome([*history, (key, checked)])
    if outcome is None or outcome.winner == mover:
        return ""
    return _repeat_warning(outcome)


def _repeat_warning(outcome: Outcome) -> Text:
    reason = REASONS[outcome.reason]
    if outcome.winner is None:
        return msg(
            "it would repeat a position a fourth time: the game would be drawn by {reason} (TS10)",
            reason=reason,
        )
    return msg(
        "it would repeat a position a fourth time: you would lose by {reason} (TS10)",
        reason=reason,
    )


def no_move_outcome(to_move: Side, checked: bool) -> Outcome:
    """TS9: the player with no legal move loses, checkmated or stalemated."""
    return Outcome(to_move.other, "checkmate" if checked else "stalemate")


# Every reason a ToriShogi game ends for, worded (its summary, a refusal once it is over).
REASONS = {
    **ENDINGS,
    "checkmate": msg("checkmate"),
    "stalemate": msg("stalemate"),
    "perpetual check": msg("perpetual check"),
    "mutual perpetual check": msg("mutual perpetual check"),
    "fourfold repetition": msg("fourfold repetition"),
}
