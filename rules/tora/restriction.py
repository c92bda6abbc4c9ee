"""R30, the restriction: a command piece that acted this turn may not end it in jeopardy
(R29, judged by ``jeopardy``), with R30's exception for a Challenger's command piece that
struck an enemy command piece. Asked again and again within a turn (its legal actions with
Assassins, each action staged or warned about, the turn's end), so its answers are kept."""

from __future__ import annotations

from ..sides import Side
from .endings import no_next_turn
from .jeopardy import in_jeopardy, next_turn
from .kept import keep
from .pieces import Piece
from .position import Position


def r30_offenders(pos: Position) -> list[Piece]:
    """Operated command pieces of the side to act that would end this turn in jeopardy."""
    side = pos.side
    operated = [p for p in pos.commanders(side) if p.id in pos.operated and not p.doomed]
    if not operated:
        return []
    key = _r30_key(pos)
    found = _r30_answers.get(key)
    if found is None:
        found = keep(_r30_answers, key, tuple(_offenders(pos, operated)), _R30_KEPT)
    return list(found)


# ``r30_offenders`` answers kept: within a turn the same position is asked about again and
# again (its legal actions with Assassins, each action staged or warned about, the turn's end),
# and each answer costs a jeopardy search per command piece that acted. Oldest out when full.
_R30_KEPT = 256
_r30_answers: dict[tuple[object, ...], tuple[Piece, ...]] = {}


def _r30_key(pos: Position) -> tuple[object, ...]:
    """What ``_offenders`` reads: the pieces (visible or not, as placed), the side, the
    round (a stunned Assassin, R42), what acted and struck this turn, a crown due, the
    terrain, whether Assassins are played (their values), and the points booked and due
    against a series' target (R28). What the turn has spent does not matter: the
    opponent's turn starts afresh."""
    return (
        frozenset(pos.pieces.values()),
        pos.side,
        pos.round,
        frozenset(pos.operated),
        frozenset(pos.slew),
        tuple(pos.crown_pending),
        frozenset(pos.stunned.items()),
        pos.terrain,
        pos.assassins,
        tuple(pos.score),
        tuple(pos.pending),
        pos.target,
    )


def _offenders(pos: Position, operated: list[Piece]) -> list[Piece]:
    side = pos.side
    after = next_turn(pos)
    if no_next_turn(after):
        return []  # lost command or the series' target: that turn never comes (R29)
    offenders = []
    for piece in operated:
        if piece.id not in after.pieces:
            continue
        exempt_doomed = side == Side.CHALLENGER and piece.id in pos.slew
        attacker_ok = (lambda p: not (p.is_command and p.doomed)) if exempt_doomed else None
        if in_jeopardy(after, piece.sq, attacker_ok):
            offenders.append(piece)
    return offenders
