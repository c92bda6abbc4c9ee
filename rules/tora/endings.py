"""How rounds, games and series end (R11, R24, R27, R28): what the end of a round removes and
who succeeds a lost Ruler, loss of command, a series' point target, and when a reset may be
agreed. Each judges a position; the game applies the verdicts."""

from __future__ import annotations

from ..protocol import FORFEIT
from ..sides import Outcome, Side
from ..turn import ENDINGS
from ..words import msg
from .pieces import GENERAL, RULER, Piece
from .position import Position

# Every reason a game of TORA ends for, worded (``Outcome.words``); a series' point target
# is a message of its own, its number inside (``target_outcome``).
REASONS = {
    **ENDINGS,
    "trapped": msg("trapped"),
    "both sides lost command": msg("both sides lost command"),
    "loss of command": msg("loss of command"),
}

# The ruling each way of ending a game comes from (a series' target: R28; else R24).
_RULING = {
    "resignation": "R26",
    "agreed draw": "R26",
    FORFEIT: "R12",
    "trapped": "R25",
    "both sides lost command": "R24",
    "loss of command": "R24",
}


def ruling(outcome: Outcome) -> str:
    """The ruling that ended a game with ``outcome``: what an action after it cites."""
    reason = str(outcome.reason)
    return _RULING.get(reason, "R28" if "the target of" in reason else "R24")


def end_round(pos: Position) -> list[Piece]:
    """R11, R24, R27: remove the doomed command pieces, book the round's points, and crown a
    side's only General when its Ruler was removed (with several, the side crowns one as its
    next action). Returns the pieces removed."""
    rulers_before = {p.side for p in pos.pieces.values() if p.kind == RULER}
    removed = pos.end_round()
    for side in Side:
        generals = [p for p in pos.pieces.values() if p.side == side and p.kind == GENERAL]
        ruler_lost = side in rulers_before and not any(
            p.side == side and p.kind == RULER for p in pos.pieces.values()
        )
        if ruler_lost and len(generals) == 1:
            pos.pieces[generals[0].id] = generals[0]._replace(kind=RULER)
        elif ruler_lost and generals:
            pos.crown_pending[side] = True
    return removed


def no_next_turn(after: Position) -> bool:
    """R29: the turn ``after`` starts (``jeopardy.next_turn``) is never played: its player
    has lost command at this round's end (R24), or the round's points reach the series'
    target (R28). Nothing is in jeopardy then."""
    return not after.commanders(after.side) or target_outcome(after.score, after.target) is not None


def book_pending(pos: Position) -> None:
    """Book the running round's points (R27), as a game ends before its round does."""
    for side in Side:
        pos.score[side] += pos.pending[side]
        pos.pending[side] = 0


def target_outcome(score: list[int], target: int) -> Outcome | None:
    """R28: the series is over once a side has reached the point ``target`` (0: no series)."""
    if not target or max(score) < target:
        return None
    if score[0] == score[1]:
        return Outcome(None, msg("both reached the target of {target}", target=target))
    winner = Side.CHALLENGER if score[0] > score[1] else Side.OPPOSITION
    return Outcome(winner, msg("reached the target of {target} points", target=target))


def command_outcome(pos: Position) -> Outcome | None:
    """R24: a side without command pieces at a round's end has lost the game."""
    beaten = [side for side in Side if not pos.commanders(side)]
    if not beaten:
        return None
    if len(beaten) == 2:
        return Outcome(None, "both sides lost command")
    return Outcome(beaten[0].other, "loss of command")


def can_reset(pos: Position, target: int, proposer: Side | None = None) -> bool:
    """R28: a series to a point target on the long board, and a player down to one action
    to propose it (``proposer``, or either player)."""
    sides = Side if proposer is None else (proposer,)
    return pos.long and bool(target) and any(len(pos.commanders(side)) == 1 for side in sides)
