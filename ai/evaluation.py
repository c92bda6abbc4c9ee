"""How good a position is for one side, in each game, read from that side's own view only
(``view_for(side)``): what the engines maximise. A won game is worth ``WIN``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules import GameState, GameView, Side
from rules.tora import COMMAND_KINDS, Game, distance
from rules.tora import VALUES as TORA_VALUES
from rules.torishogi import EAGLE, GOOSE, PHOENIX, SWALLOW

from .belief import cached_belief

WIN = 1_000_000.0

# ToriShogi material, in Swallows (ours, not a published table): the two promoted birds are
# strong sliders, a piece in hand a little more than on the board (it can drop anywhere).
TORISHOGI_VALUES = {SWALLOW: 1.0, GOOSE: 3.0, EAGLE: 9.0, PHOENIX: 0.0}
TORISHOGI_OTHER = 4.0  # Falcon, Crane, Pheasant and the Quails
HAND_BONUS = 1.1


def evaluate(game: GameState, side: Side) -> float:
    """``side``'s standing: ``WIN`` or ``-WIN`` once the game is over (0 for a draw)."""
    outcome = game.outcome()
    if outcome is not None:
        return 0.0 if outcome.winner is None else (WIN if outcome.winner == side else -WIN)
    return EVALUATIONS[game.game_type](game, side)


def balance(game: GameState, side: Side) -> float:
    """The part of ``side``'s standing that only a removal changes, as each game counts one
    (``GameState.quiet_rounds``): TORA's points and material, ToriShogi's material on the
    board and in hand (a drop only moves a piece from the hand's 1.1 to the board's 1). In
    Torii Followers come and go every turn: there it is the whole evaluation."""
    if game.game_type == "tora":
        view = game.view_for(side)
        return _points(view, side) + _material(view, side)
    if game.game_type == "torishogi":
        return _torishogi_material(game.view_for(side), side)
    return evaluate(game, side)


def _points(view: GameView, side: Side) -> float:
    return 10.0 * (
        (view.score[side] + view.pending[side]) - (view.score[1 - side] + view.pending[1 - side])
    )


def _material(view: GameView, side: Side) -> float:
    return sum(
        TORA_VALUES.get(piece.kind, 0) * (1 if piece.side == side else -1)
        for piece in view.pieces
        if not piece.doomed
    )


def _tora(game: GameState, side: Side) -> float:
    """Points booked and pending (R27), ten to a point, then material on the board, less
    what the enemy's hidden Assassin may take next (its believed reach, ``belief``), less a
    little for every step the side's pieces stand from the enemy's command pieces."""
    view = game.view_for(side)
    pull = PRESSURE * _distance_to_command(view, side)
    return _points(view, side) + _material(view, side) - _exposure(game, side, view) - pull


PRESSURE = 0.05  # per step between a piece and the nearest enemy command piece


def _distance_to_command(view: GameView, side: Side) -> int:
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


ASSASSIN_RISK = 0.3  # of a piece's value, when the enemy Assassin surely reaches it


def _exposure(game: GameState, side: Side, view: GameView) -> float:
    if not view.assassins or not isinstance(game, Game):
        return 0.0
    belief = cached_belief(game, side)
    if not belief.squares:
        return 0.0
    return ASSASSIN_RISK * sum(
        TORA_VALUES.get(piece.kind, 0) * belief.danger(piece.sq)
        for piece in view.pieces
        if piece.side == side and not piece.doomed
    )


def _torishogi(game: GameState, side: Side) -> float:
    view = game.view_for(side)
    total = _torishogi_material(view, side)
    if view.in_check:
        total += -0.5 if view.side == side else 0.5
    return total


def _torishogi_material(view: Any, side: Side) -> float:
    total = 0.0
    for piece in view.pieces:
        value = TORISHOGI_VALUES.get(piece.kind, TORISHOGI_OTHER)
        total += value if piece.side == side else -value
    for who in Side:
        for kind, count in view.hand(who):
            value = TORISHOGI_VALUES.get(kind, TORISHOGI_OTHER) * HAND_BONUS * count
            total += value if who == side else -value
    return total


def _torii(game: GameState, side: Side) -> float:
    """Followers placed and Torii built (the two ways to win), tiles left to play."""
    view = game.view_for(side)
    mine, theirs = side, side.other

    def progress(who: Side) -> float:
        placed = 9 - view.supply[who]
        built = 4 - view.torii_left[who]
        return placed + 2.5 * built

    return progress(mine) - progress(theirs)


EVALUATIONS: dict[str, Callable[[GameState, Side], float]] = {
    "tora": _tora,
    "torishogi": _torishogi,
    "torii": _torii,
}
