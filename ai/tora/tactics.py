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
from rules.tora import Action, Game, Piece, in_jeopardy, next_turn

from ..evaluation import evaluate
from ..turns import build_turn, can_end, playable

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
    the turn ended now): turns that begin with one of its actions, best first by the
    evaluation after it, at most ``MOST_ESCAPES`` of those that can end. An action that
    leaves it safe is completed greedily; one that leaves it struck (an attack on the way)
    is followed by its best action to safety."""
    if game.current:
        return []
    side = game.side
    own = _last_commander(game, side)
    if own is None or not _struck(game, own.id):
        return []
    safe, unsafe = _ranked_actions(game, own.id)
    found: list[list[str]] = []
    for text, child in safe[:MOST_ESCAPES]:
        # a deadline already past: a turn that will not end is given up after a few tries
        rest = build_turn(child, lambda g, actions: _best(g, actions, side), deadline=0.0)
        if can_end(child):
            found.append([text, *rest])
    for text, child in unsafe[: MOST_ESCAPES - len(found)]:
        if not child.pos.actions_left:
            continue
        after, _unsafe = _ranked_actions(child, own.id)
        if after and can_end(after[0][1]):
            found.append([text, after[0][0]])
    return found


Ranked = list[tuple[str, Game]]


def _ranked_actions(game: Game, pid: int) -> tuple[Ranked, Ranked]:
    """The actions of the piece ``pid``, each with the game after it, best first by the
    evaluation: those that leave it out of jeopardy, and those that do not."""
    side = game.side
    safe: list[tuple[float, str, Game]] = []
    unsafe: list[tuple[float, str, Game]] = []
    for action in playable(game.legal_actions()):
        piece = game.pos.pieces.get(pid)
        if piece is None or action.origin != piece.sq:
            continue
        child = game.copy()
        try:
            child.apply(action)
        except ActionError:
            continue
        entry = (evaluate(child, side), game.notation(action), child)
        (unsafe if _struck(child, pid) else safe).append(entry)
    return _best_first(safe), _best_first(unsafe)


def _best_first(entries: list[tuple[float, str, Game]]) -> Ranked:
    return [(text, child) for _value, text, child in sorted(entries, key=lambda e: -e[0])]


def _struck(game: Game, pid: int) -> bool:
    """Whether the opponent could hit the piece ``pid`` if the turn ended now."""
    piece = game.pos.pieces.get(pid)
    return piece is not None and in_jeopardy(next_turn(game.pos), piece.sq)


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
    actions = playable(game.legal_actions())
    if game.pos.actions_left == 1:  # the last action must make the hit itself
        actions = [a for a in actions if _may_hit(a, target.sq)]
    for action in actions:
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
            if can_end(child):
                found.append([*line, text])
            continue
        # the side still to act: can its actions left hit the target?
        if child.pos.actions_left and in_jeopardy(child.pos, target.sq):
            _strike(child, target, [*line, text], found)


def _may_hit(action: Action, sq: int) -> bool:
    """Whether ``action`` could hit the piece on ``sq``: a move ending or attacking there, a
    Cannon's shot, a Soldier's change of stance (every other kind moves or readies only)."""
    if action.kind == "move":
        return sq in (action.dest, action.target, action.via)
    return action.kind not in ("ready", "search")
