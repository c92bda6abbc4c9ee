"""What the sampling players' greedy turns and greedy replies do not see, judged by the rules'
own jeopardy search (R29): a General struck by two actions (move, then attack) that the
greedy builder, one action at a time, would only find by chance.

- ``strikes``: the turns that hit the enemy's last live command piece now (judged first);
- ``escapes``: when the side's last live command piece is in jeopardy already, turns that
  begin by moving it (the rest greedy), judged next: the greedy turn rarely moves it;
- ``exposed``: whether, once the side's turn has ended, the opponent's next turn can hit the
  side's last live command piece (a lost game the greedy reply may not find).

Both read the engine's own copy only (no hidden Assassin on it: it puts nothing in jeopardy,
R29, so the verdicts are those of the real game)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules import ActionError, GameState, Side
from rules.tora import Game, Piece, in_jeopardy, next_turn

from ..evaluation import evaluate
from ..turns import build_turn, playable

MOST_STRIKES = 4  # strike turns handed back at most (each is judged as a candidate)
MOST_ESCAPES = 4  # escape turns handed back at most


def _last_commander(game: Game, side: Side) -> Piece | None:
    """The side's one live (not doomed) command piece, if it has exactly one."""
    live = [p for p in game.pos.commanders(side) if not p.doomed]
    return live[0] if len(live) == 1 else None


def exposed(game: Game, side: Side) -> bool:
    """After ``side``'s turn (the opponent to act in ``game``): whether the opponent can hit
    ``side``'s last live command piece in their turn."""
    if game.is_over() or game.side == side:
        return False
    target = _last_commander(game, side)
    return target is not None and in_jeopardy(game.pos, target.sq)


def strikes(game: Game) -> list[list[str]]:
    """Whole turns (each able to end, R30) that hit the enemy's last live command piece, at
    most ``MOST_STRIKES``; none when the jeopardy search says no turn can."""
    if game.current:
        return []
    target = _last_commander(game, game.side.other)
    if target is None or not in_jeopardy(game.pos, target.sq):
        return []
    found: list[list[str]] = []
    _strike(game, target, [], found)
    return found


def tactical_turns(game: Game) -> list[list[str]]:
    """The turns the sampling players judge before their own: ``strikes``, else ``escapes``."""
    return strikes(game) or escapes(game)


def escapes(game: Game) -> list[list[str]]:
    """When the side's last live command piece is in jeopardy (the opponent could hit it if
    the turn ended now): the turns that begin with its best moves (by the evaluation after
    each), completed greedily, at most ``MOST_ESCAPES`` of those that can end."""
    if game.current:
        return []
    side = game.side
    own = _last_commander(game, side)
    if own is None or not in_jeopardy(next_turn(game.pos), own.sq):
        return []
    ranked = []
    for action in playable(game.legal_actions()):
        if action.origin != own.sq:
            continue
        child = game.copy()
        try:
            child.apply(action)
        except ActionError:
            continue
        ranked.append((evaluate(child, side), game.notation(action), child))
    ranked.sort(key=lambda entry: -entry[0])
    found: list[list[str]] = []
    for _value, text, child in ranked:
        rest = build_turn(child, lambda g, actions: _best(g, actions, side))
        if _ends(child):
            found.append([text, *rest])
        if len(found) >= MOST_ESCAPES:
            break
    return found


def _best(game: GameState, actions: Sequence[Any], side: Side) -> Any:
    """The action that leaves ``side`` the best position at once (the first of equals)."""

    def after(action: Any) -> float:
        child = game.copy()
        child.apply(action)
        return evaluate(child, side)

    return max(actions, key=after)


def _strike(game: Game, target: Piece, line: list[str], found: list[list[str]]) -> None:
    """Every action of ``game`` after which the target is hit, or can still be with the
    actions left (the jeopardy search says), followed depth first; turns that end kept."""
    for action in playable(game.legal_actions()):
        if len(found) >= MOST_STRIKES:
            return
        child = game.copy()
        text = game.notation(action)
        try:
            child.apply(action)
        except ActionError:
            continue
        struck = child.pos.pieces.get(target.id)
        if struck is None or struck.doomed:
            if _ends(child):
                found.append([*line, text])
            continue
        # the side still to act: can its actions left hit the target?
        if child.pos.actions_left and in_jeopardy(child.pos, target.sq):
            _strike(child, target, [*line, text], found)


def _ends(game: Game) -> bool:
    trial = game.copy()
    try:
        trial.end_turn()
    except ActionError:
        return False
    return True
