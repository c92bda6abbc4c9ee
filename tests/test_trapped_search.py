"""R25's search for a saving turn (the probe along the likeliest turns, then the search
deepening one action at a time) against the plain depth-first search it replaced, which walks
the same defences, and against the deepening search alone: wherever either decides within its
budget, the product's search gives the same answer."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_properties import new_game, play_turn

from rules.tora import Game, defences, jeopardy, trapped
from rules.tora.jeopardy import SearchKey, search_key
from rules.tora.position import Position
from rules.tora.record import replay

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
    zones = defences.widen(pos, deps, depth)
    for effect in defences.defences(pos, zones, depth):
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


def escape_alone(pos: Position) -> bool:
    """The deepening search without the probe: True trapped, False not, Undecided."""
    if not [p for p in pos.commanders(pos.side) if not p.doomed]:
        return False
    try:
        return not trapped.Escape(pos.public()).exists()
    except trapped._OutOfBudget:
        raise Undecided from None


@pytest.mark.slow
@settings(max_examples=6, deadline=None, derandomize=True)
@given(st.integers(0, 10**6), st.integers(4, 10))
def test_r25_probe_never_changes_a_verdict_the_deepening_search_decides(seed, turns):
    rng = random.Random(seed)
    playout_verdicts(new_game(rng, "long", assassins=True), rng, turns, escape_alone)


# The rules benchmark's worst turn end (game seed 3, its third turn): the Opposition's three
# command pieces all in jeopardy, and the only escapes take all three actions.
DEEP_ESCAPE = """[Board "long"]
[ChallengerSetup "aggressive"]
[OppositionSetup "aggressive"]
[ChallengerRuler "K"]
[OppositionRuler "K"]
[Result "*"]

C: A v8h13-v10h12
O: A v5h5-v4h4 ; S v10h2 defend ; A v15h4-v15h2
C: H v10h14-v10h11
O: S v3h5-v2h6 ; A v15h2-v14h3 ; H v2h5-v3h4
C: A v10h12-v10h10 ; H v8h14-v11h15 ; H v11h15-v9h16
O: S v8h2-v7h1 ; S v7h1-v6h1 ; S v11h4-v12h4
C: A v11h13-v12h15 ; S v12h13-v11h13 ; H v10h11-v8h8
O: H v10h4-v11h6 ; A v14h5-v12h7 ; C v5h4 fire E
C: H v2h13-v5h10
O: A v9h5-v11h7 ; S v6h5-v6h6 ; H v16h5-v15h2
C: H v16h13-v14h10 ; A v13h13-v15h14 ; H v8h8-v8h10
"""


def test_r25_a_three_action_escape_is_found_where_the_deepening_search_runs_out():
    game = replay(DEEP_ESCAPE, trusted=True)
    assert game.outcome() is None
    after = jeopardy.next_turn(game.pos)
    assert all(jeopardy.in_jeopardy(after, p.sq) for p in game.pos.commanders(game.side))
    with pytest.raises(Undecided):
        escape_alone(game.pos)
    assert trapped.verdict(game.pos) is False  # decided: the probe found an escape
    escape = game.copy()
    for action in ("K v9h1-v11h1", "A v14h3-v12h2", "H v8h4-v11h2"):
        escape.apply(action)
    escape.end_turn()
    assert escape.outcome() is None
