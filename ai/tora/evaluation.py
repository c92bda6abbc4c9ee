"""TORA's evaluation: points booked and pending (R27), ten to a point, then material on the
board (R-values of ``rules.tora.VALUES``, doomed pieces left out), less what the enemy's
hidden Assassin may take next (its believed reach, ``belief``), less a little for every step
the side's pieces stand from the enemy's command pieces."""

from __future__ import annotations

from rules import Side
from rules.tora import COMMAND_KINDS, Game, View, distance
from rules.tora import VALUES as TORA_VALUES

from .belief import cached_belief

POINT = 10.0  # a point's weight in the evaluation, against a Soldier on the board's 1
PRESSURE = 0.05  # per step between a piece and the nearest enemy command piece
ASSASSIN_RISK = 0.3  # of a piece's value, when the enemy Assassin surely reaches it


def balance(game: Game, side: Side) -> float:
    """Points and material, each in R-values (a Soldier 1), averaged: what only a removal
    changes, as both sides know it. A piece removed moves both by its value (its owner's
    material down, the enemy's points up, R27), so one Soldier removed stands its owner one
    Soldier down; a series' points kept across a reset (R28) still count. The side's own
    hidden Assassin is left out, as the enemy's is unknown to it. Counted in, it stood the
    side 5 ahead in every level Assassin game, and its answers to a draw, which are public,
    told whether it had fielded one (R41)."""
    view = game.view_for(side)
    return (_points(view, side) + _material(view, side, known=True)) / 2


def _points(view: View, side: Side) -> float:
    """Points booked and pending (R27), the side's less the enemy's."""
    return (view.score[side] + view.pending[side]) - (view.score[1 - side] + view.pending[1 - side])


def _material(view: View, side: Side, known: bool = False) -> float:
    """The pieces' values, the side's own less the enemy's; ``known``: only those both
    sides see (no hidden Assassin)."""
    return sum(
        TORA_VALUES.get(piece.kind, 0) * (1 if piece.side == side else -1)
        for piece in view.pieces
        if not piece.doomed and not (known and piece.hidden)
    )


def evaluate(game: Game, side: Side) -> float:
    view = game.view_for(side)
    pull = PRESSURE * _distance_to_command(view, side)
    points = POINT * _points(view, side)
    return points + _material(view, side) - _exposure(game, side, view) - pull


def _distance_to_command(view: View, side: Side) -> int:
    """How far the side's other pieces stand from the enemy's command pieces (the loss of
    command wins, R24): a small pull forward, so that an engine ahead in material closes in
    instead of circling until the turn limit."""
    targets = [p.sq for p in view.pieces if p.side != side and p.kind in COMMAND_KINDS]
    if not targets:
        return 0
    return sum(
        min(distance(piece.sq, target) for target in targets)
        for piece in view.pieces
        if piece.side == side and piece.kind not in COMMAND_KINDS
    )


def _exposure(game: Game, side: Side, view: View) -> float:
    if not view.assassins:
        return 0.0
    belief = cached_belief(game, side)
    if not belief.squares:
        return 0.0
    return ASSASSIN_RISK * sum(
        TORA_VALUES.get(piece.kind, 0) * belief.danger(piece.sq)
        for piece in view.pieces
        if piece.side == side and not piece.doomed
    )
