"""Alpha-beta (negamax) over whole turns through the seam, for a one-move game whose engine
has no search of its own (ToriShogi's and Torii's have, by ``ai.pvs``); a whole turn is
every decision the side to act owes, taken together."""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Iterator

from rules import GameState

from .evaluation import evaluate
from .turns import playable


class OutOfTime(Exception):
    """The deadline passed inside a search: its depth is abandoned."""


def turns(game: GameState) -> Iterator[tuple[list[str], GameState]]:
    """Every whole turn of ``game.side`` (a normal turn is one action; decisions owed come
    together) with the position after it."""
    options = [game.notation(a) for a in playable(game.legal_actions())]
    owed = max(game.actions_left, 1)
    for texts in itertools.product(options, repeat=owed) if owed > 1 else ([t] for t in options):
        child = game.copy()
        for text in texts:
            child.apply(text)
        child.end_turn()
        yield list(texts), child


def best_turn(game: GameState, depth: int, deadline: float, rng: random.Random) -> list[str] | None:
    """The best turn ``depth`` turns deep (ties broken by ``rng``); OutOfTime past
    ``deadline``."""
    side = game.side
    children = _ordered(list(turns(game)), side)
    best: list[list[str]] = []
    best_value, alpha = float("-inf"), float("-inf")
    for texts, child in children:
        # a window just under the best so far: a worse turn is cut, an equal one is exact
        value = _value(child, depth - 1, alpha - 1e-6, float("inf"), deadline, side)
        if value > best_value + 1e-9:
            best, best_value = [texts], value
        elif abs(value - best_value) <= 1e-9:
            best.append(texts)
        alpha = max(alpha, value)
    return rng.choice(best) if best else None


def _value(
    game: GameState, depth: int, alpha: float, beta: float, deadline: float, me: object
) -> float:
    """The position's value for ``me``, searched ``depth`` more turns (minimax by whose turn
    it is, pruned by the window)."""
    if time.monotonic() > deadline:
        raise OutOfTime
    if depth == 0 or game.is_over():
        return evaluate(game, me)  # type: ignore[arg-type]
    maximising = game.side == me
    children = _ordered(list(turns(game)), game.side)
    value = float("-inf") if maximising else float("inf")
    for _texts, child in children:
        score = _value(child, depth - 1, alpha, beta, deadline, me)
        if maximising:
            value = max(value, score)
            alpha = max(alpha, value)
        else:
            value = min(value, score)
            beta = min(beta, value)
        if alpha >= beta:
            break
    return value


def _ordered(
    children: list[tuple[list[str], GameState]], side: object
) -> list[tuple[list[str], GameState]]:
    """Best-looking first for the side choosing, so the window narrows early."""
    return sorted(children, key=lambda item: -evaluate(item[1], side))  # type: ignore[arg-type]
