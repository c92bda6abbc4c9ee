"""R25's search for a saving turn (deepening one action at a time) against the plain
depth-first search it replaced, which walks the same defences: wherever the oracle decides
within its budget, the product's search gives the same answer."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_properties import new_game, play_turn

from rules.tora import Game, trapped
from rules.tora.jeopardy import SearchKey, search_key
from rules.tora.position import Position

ORACLE_BUDGET = 300  # judged positions before the oracle gives up


class Undecided(Exception):
    pass


def oracle(pos: Position) -> bool:
    """The depth-first search with a budget: True trapped, False not, Undecided."""
    if not [p for p in pos.commanders(pos.side) if not p.doomed]:
        return False
    pos = pos.public()
    return not _escape(pos, pos.actions_total, set(), [ORACLE_BUDGET])


def _escape(pos: Position, depth: int, seen: set[tuple[SearchKey, int]], budget: list[int]) -> bool:
    budget[0] -= 1
    if budget[0] < 0:
        raise Undecided
    safe, deps, _work = trapped._judge(pos)
    if safe:
        return True
    if depth == 0 or pos.actions_left <= 0:
        return False
    zones = trapped._widen(pos, deps, depth)
    for effect in trapped._defences(pos, zones, depth):
        child = pos.copy()
        child.commit(effect)
        key = (search_key(child), depth)
        if key in seen:
            continue
        seen.add(key)
        if _escape(child, depth - 1, seen, budget):
            return True
    return False


def compare(game: Game, judge: Callable[[Position], bool] = oracle) -> str:
    """R25's search and ``judge`` at the start of the running turn; what ``judge`` said
    ("undecided" when it gave up)."""
    try:
        expected = judge(game.pos)
    except Undecided:
        return "undecided"
    assert trapped.is_trapped(game.pos) == expected
    return str(expected)


def playout_verdicts(
    game: Game, rng: random.Random, turns: int, judge: Callable[[Position], bool] = oracle
) -> list[str]:
    """A random playout of ``turns`` turns, judged at each turn's start by R25's search and
    by ``judge`` (``compare``); what ``judge`` said each time."""
    game.skip_trapped = True  # judged here, by both searches
    verdicts = []
    for _ in range(turns):
        if game.is_over():
            break
        play_turn(game, rng, lambda g, a: None)
        if not game.is_over():
            verdicts.append(compare(game, judge))
            game.judge_trapped()
    return verdicts


@pytest.mark.slow
@settings(max_examples=6, deadline=None, derandomize=True)
@given(st.integers(0, 10**6), st.integers(4, 10))
def test_r25_deepening_search_agrees_with_depth_first_on_long_boards_with_assassins(seed, turns):
    rng = random.Random(seed)
    playout_verdicts(new_game(rng, "long", assassins=True), rng, turns)
