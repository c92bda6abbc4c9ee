"""TORA's search over whole turns (``hard`` and ``master`` on the short board): every turn of
the side is judged by the opponent's best reply among several, not by its greedy one alone.

- **Turns in greedy order.** A side's whole turns are generated lazily, best first by the
  evaluation after each action (``whole_turns``): the first actions ranked once, each
  first action's second actions ranked when first needed, and the turns taken rank by rank
  (every first action's best second action, then every one's second best, ...). The first
  turn is the greedy one.
- **Alpha-beta over whole turns, two turns deep.** Each of the side's turns (``WIDTH`` at
  most) is answered by the opponent's turns in their own greedy order (``REPLIES`` at
  most); the turn is worth the worst of those answers for the side. An answer that already
  leaves the side no better than its best turn so far refutes the turn at once (a cut-off),
  so most turns cost a single reply, and the promising ones are checked against many.
- **A transposition table over positions after a turn**: two orders of the same actions, or
  two actions reaching the same board, are one position (``position_key``, read from the
  side's own view), judged once; an answer's position likewise.
- **The belief kept as it is**: every position is judged by ``ai.tora.evaluation``, on the
  side's own copy (no hidden enemy Assassin on it), the believed reach of that Assassin
  included; a search for it that covers half the belief is still a turn of its own
  (``search.worth_searching``).

A turn of the side is taken as judged only when all the answers it was given were looked at
in time: the clock cutting a judgement short keeps the best turn fully judged (at first the
greedy turn).
"""

from __future__ import annotations

import random
import time
from collections.abc import Hashable, Iterator, Sequence
from typing import Any

from rules import ActionError, Side
from rules.tora import Game

from ..evaluation import evaluate
from ..players import GreedyPlayer
from ..turns import playable
from .search import worth_searching

WIDTH = 48  # of the side's turns judged at most, in greedy order
REPLIES = 4  # of the opponent's answers a turn is judged against at most
FIRSTS = 8  # first actions of a turn whose second actions are ranked (the others never are)
NOISE = 0.02  # of an R-value added at random to a turn's worth, so that games differ


def best_turn(game: Game, seconds: float, rng: random.Random) -> list[str]:
    """The notations of the turn of ``game.side`` (on its own copy, spent) this search finds
    within ``seconds``."""
    opening = worth_searching(game)
    if opening is not None:  # alone: what it finds changes the rest of the turn
        return [opening]
    deadline = time.monotonic() + seconds
    side = game.side
    table: dict[Hashable, float] = {}
    best: list[str] | None = None
    best_value = float("-inf")
    for number, (texts, after) in enumerate(whole_turns(game, rng)):
        if best is None:
            best = texts  # the greedy turn, whatever the clock says
        if number >= WIDTH or time.monotonic() > deadline:
            break
        key = position_key(after)
        if key in table:  # another order of the same turn
            continue
        value = _answered(after, side, best_value, deadline, rng, table)
        if value is None:
            break
        table[key] = value
        value += rng.random() * NOISE
        if value > best_value:
            best, best_value = texts, value
    if best is None:  # no turn of the greedy order can end (R30): one built to end
        return GreedyPlayer().build(game, rng, deadline)
    return best


def _answered(
    after: Game,
    side: Side,
    alpha: float,
    deadline: float,
    rng: random.Random,
    table: dict[Hashable, float],
) -> float | None:
    """What the turn that left ``after`` is worth to ``side``: the worst of the opponent's
    answers looked at, or as soon as one is no better than ``alpha`` for ``side`` (a
    cut-off), that one. None if the clock ran out before the judgement was whole."""
    if after.is_over():
        return evaluate(after, side)
    worst = float("inf")
    for number, (_texts, answer) in enumerate(whole_turns(after, rng)):
        if number >= REPLIES:
            break
        if time.monotonic() > deadline:
            return None
        key = ("answer", position_key(answer))
        value = table.get(key)
        if value is None:
            value = table[key] = evaluate(answer, side)
        worst = min(worst, value)
        if worst <= alpha:
            break
    return evaluate(after, side) if worst == float("inf") else worst


def whole_turns(game: Game, rng: random.Random) -> Iterator[tuple[list[str], Game]]:
    """The whole turns of ``game.side`` that the rules let end, lazily and best first by the
    evaluation after each action: each as its notations and the game after it ended (a
    copy). The first actions are ranked once; the second actions of each of the best
    ``FIRSTS`` when first needed; the turns come rank by rank. A turn the rules refuse to end
    (R30) is left out; a first action after which nothing is legal is a turn alone."""
    side = game.side
    firsts = _ranked(game, playable(game.legal_actions()), side, rng)[:FIRSTS]
    seconds: dict[int, list[tuple[Any, Game]]] = {}
    rank, more = 0, True
    while more:
        more = False
        for index, (first, child) in enumerate(firsts):
            if index not in seconds:
                seconds[index] = _ranked(child, _legal(child), side, rng)
            lead = [game.notation(first)]
            if not seconds[index]:
                if rank == 0:
                    yield from _ended(child, lead)
            elif rank < len(seconds[index]):
                more = more or rank + 1 < len(seconds[index])
                second, turn = seconds[index][rank]
                yield from _ended(turn, [*lead, child.notation(second)])
        rank += 1


def _legal(game: Game) -> list[Any]:
    """The actions the side may still add to its turn (none once its actions are spent)."""
    if not game.actions_left or game.is_over():
        return []
    return playable(game.legal_actions())


def _ranked(
    game: Game, actions: Sequence[Any], side: Side, rng: random.Random
) -> list[tuple[Any, Game]]:
    """``actions``, each with a copy of ``game`` it was applied to, best first for ``side``,
    ties in random order."""
    scored = []
    for action in actions:
        child = game.copy()
        child.apply(action)
        scored.append((evaluate(child, side), rng.random(), action, child))
    scored.sort(key=lambda item: (-item[0], item[1]))
    return [(action, child) for _value, _tie, action, child in scored]


def _ended(game: Game, texts: list[str]) -> Iterator[tuple[list[str], Game]]:
    """The turn ``texts`` staged on ``game``, ended (on ``game`` itself), unless the rules
    refuse to end it (R30); a game its turn has already won stays as it is."""
    if not game.is_over():
        try:
            game.end_turn()
        except ActionError:
            return
    yield texts, game


def position_key(game: Game) -> Hashable:
    """The position as the side to act sees it after a turn: the pieces, the points, the
    round and who acts (two turns reaching it are one)."""
    view = game.view_for(game.side)
    return (view.pieces, view.score, view.pending, view.round, view.side, view.actions_left)
