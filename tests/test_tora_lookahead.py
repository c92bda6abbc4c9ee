"""TORA's search over whole turns (``ai.tora.lookahead``, ``hard`` and ``master`` on the short
board): it plays whole legal turns, keeps to its budget by the engines' step clock, takes
the greedy order's turns once each (transpositions judged once), and answers a turn by the
opponent's best reply, not only by its greedy one."""

from __future__ import annotations

import importlib
import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_ai_belief import StepClock

import ai.players
import ai.tora.lookahead
import ai.turns
from ai import make_player
from ai.evaluation import evaluate
from ai.match import TIMED, cpu_clock, new_game, play_match
from ai.players import SamplingPlayer, TurnSearchPlayer
from ai.tora.lookahead import best_turn, position_key, whole_turns
from ai.turns import playable


def advanced(seed: int, turns: int):
    """A short-board game some random whole turns in."""
    rng = random.Random(seed)
    game = new_game("tora-short", rng)
    mover = make_player("random", game)
    for _ in range(turns):
        if game.is_over():
            break
        for text in mover.turn(game.copy(), rng, 1.0):
            game.apply(text)
        game.end_turn()
    return game


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> StepClock:
    stepper = StepClock()
    for module in (ai.players, ai.turns, ai.tora.lookahead):
        monkeypatch.setattr(module, "time", stepper)
    return stepper


def test_hard_and_master_search_whole_turns_on_the_short_board_and_sample_on_the_long():
    short = new_game("tora-short", random.Random(1))
    long = new_game("tora-long", random.Random(1))
    assert isinstance(make_player("hard", short), TurnSearchPlayer)
    assert isinstance(make_player("master", short), TurnSearchPlayer)
    assert isinstance(make_player("normal", short), SamplingPlayer)
    assert isinstance(make_player("sampling", short), SamplingPlayer)
    engine = ai.engines.engine_of("tora")
    assert engine.turn_search(short) is best_turn
    assert engine.turn_search(long) is None


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000), turns=st.integers(0, 14), seconds=st.sampled_from([0.0, 0.3]))
def test_the_search_plays_a_whole_legal_turn(seed: int, turns: int, seconds: float) -> None:
    """Whatever the position and however little time (none at all: the greedy turn), the
    turn is legal action by action and the rules let it end (R30)."""
    game = advanced(seed, turns)
    if game.is_over():
        return
    before = game.fen()
    texts = make_player("hard", game).turn(game.copy(), random.Random(seed), seconds)
    assert game.fen() == before  # played on its own copy
    assert texts
    for text in texts:
        game.apply(text)
    game.end_turn()


@pytest.mark.parametrize("seed", [2, 9])
def test_the_search_keeps_to_its_budget(seed: int, clock: StepClock) -> None:
    """By the step clock (every look at the clock moves it 10 ms): a search given 0.5 s stops
    within a look or two of it, the work between two looks being one answer judged."""
    game = advanced(seed, 6)
    clock.now = 0.0
    best_turn(game.for_player(game.side), 0.5, random.Random(seed))
    assert clock.now <= 0.5 + 0.03


@pytest.mark.parametrize("seed", [4, 11])
def test_the_turns_come_in_greedy_order(seed: int) -> None:
    """The first turn opens with an action that leaves the side best off at once (as the
    greedy player's does, ties aside), and the first turns open with different actions, best
    first: every good first action gets its best turn before any gets its second best."""
    game = advanced(seed, 6)
    side = game.side
    values = {}
    for action in playable(game.legal_actions()):
        child = game.copy()
        child.apply(action)
        values[game.notation(action)] = evaluate(child, side)
    firsts = [texts[0] for texts, _after in whole_turns(game.copy(), random.Random(1))]
    assert values[firsts[0]] == max(values.values())
    leading = list(dict.fromkeys(firsts))[: ai.tora.lookahead.FIRSTS]
    assert [values[text] for text in leading] == sorted(
        (values[text] for text in leading), reverse=True
    )
    assert firsts[: len(leading)] == leading or len(leading) < 3


def test_every_turn_of_the_greedy_order_ends_and_transpositions_share_a_key() -> None:
    game = advanced(7, 4)
    turns = list(whole_turns(game.copy(), random.Random(3)))
    assert len(turns) > 20
    keys = [position_key(after) for _texts, after in turns]
    for texts, _after in turns:
        replay = game.copy()
        for text in texts:
            replay.apply(text)
        replay.end_turn()  # each listed turn may end
    # two moves of different pieces in either order reach one position: one key
    orders: dict[frozenset[str], list[object]] = {}
    for texts, key in zip((texts for texts, _after in turns), keys, strict=True):
        if len(texts) == 2:
            orders.setdefault(frozenset(texts), []).append(key)
    both = [found for found in orders.values() if len(found) == 2]
    assert both
    assert all(first == second for first, second in both)


def test_a_turn_is_judged_by_the_opponents_best_answer_not_its_greedy_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The worth of a turn is the worst of the opponent's answers looked at: an answer that
    the greedy order ranks second but hurts more decides it."""
    game = advanced(5, 6)
    side = game.side
    _texts, after = next(whole_turns(game.copy(), random.Random(1)))
    answers = [evaluate(answer, side) for _t, answer in whole_turns(after.copy(), random.Random(1))]
    looked = answers[: ai.tora.lookahead.REPLIES]
    worth = ai.tora.lookahead._answered(
        after, side, float("-inf"), float("inf"), random.Random(1), {}
    )
    assert worth == min(looked)
    # a cut-off: with the side already assured of more, the first answer below it decides
    cut = ai.tora.lookahead._answered(
        after, side, looked[0] + 1, float("inf"), random.Random(1), {}
    )
    assert cut == looked[0]


def test_a_measuring_match_may_count_the_budgets_in_cpu_seconds() -> None:
    """``python -m ai match --clock cpu``: inside ``cpu_clock`` every engine's clock is the
    process's CPU time (another process's load does not shorten a turn's work), and the
    wall clock is back after it."""
    timed = [importlib.import_module(name) for name in TIMED]
    with cpu_clock():
        for module in timed:
            assert module.time.monotonic() == pytest.approx(time.process_time(), abs=0.05)
        tally = play_match("tora-short", "hard", "sampling", games=1, seed=3, seconds=0.05)
    assert sum(tally.wins.values()) + tally.draws == 1
    assert all(module.time is time for module in timed)
