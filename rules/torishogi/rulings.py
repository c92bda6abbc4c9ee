"""How a game ends after a move (TS9, TS10), judged when a turn is confirmed."""

from __future__ import annotations

from rules.sides import Outcome, Side
from rules.turn import ENDINGS
from rules.words import msg

from .position import Key

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
