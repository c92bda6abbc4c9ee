"""The engines: every player builds a whole legal turn in every game, through the
seam only, on its own copy; twin worlds that differ only in the opponent's hidden Assassin
get the same decisions; the match command prints its tally line; the seeded baselines are
reproducible."""

from __future__ import annotations

import importlib
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ai import BASELINES, LEVELS, hint, make_player, turn_seconds
from ai.evaluation import WIN, evaluate
from ai.host import MASTER_STRETCH
from ai.match import TIMED, cpu_clock, new_game, play_match
from rules import Side, game_type

ROOT = Path(__file__).resolve().parent.parent
NAMES = ("tora-short", "torishogi", "torii")


def advanced(name: str, seed: int, turns: int):
    """A game some random whole turns in."""
    rng = random.Random(seed)
    game = new_game(name, rng)
    player = make_player("random", game)
    for _ in range(turns):
        if game.is_over():
            break
        for text in player.turn(game.copy(), rng, 1.0):
            game.apply(text)
        game.end_turn()
    return game


@settings(max_examples=12, deadline=None)
@given(
    name=st.sampled_from(NAMES),
    who=st.sampled_from(BASELINES + LEVELS),
    seed=st.integers(0, 10_000),
    turns=st.integers(0, 12),
)
def test_every_player_plays_a_whole_legal_turn(name, who, seed, turns):
    game = advanced(name, seed, turns)
    if game.is_over():
        return
    before = game.fen()
    texts = make_player(who, game).turn(game.copy(), random.Random(seed), 0.05)
    assert game.fen() == before  # the engine played on its own copy
    for text in texts:
        game.apply(text)  # raises if an engine chose an illegal action
    game.end_turn()  # raises if the turn may not end (R30)
    if who in BASELINES:  # unbounded; a strength out of time may end a turn short (R12)
        assert texts


def test_a_monkey_owes_its_decisions_and_the_engine_gives_them():
    rng = random.Random(43)  # keen on building: Kitsune's first Torii makes the Monkey decide
    game = game_type("torii").new_game({}, ({"spirit": "Kitsune"}, {"spirit": "Monkey"}))
    while not game.deciding:
        while game.actions_left and game.legal_actions():
            actions = game.legal_actions()
            builds = [a for a in actions if "build" in game.notation(a)]
            game.apply(rng.choice(builds if builds and rng.random() < 0.8 else actions))
        game.end_turn()
    texts = make_player("hard", game).turn(game.copy(), rng, 0.2)
    assert all(text.startswith("flip") for text in texts)
    assert len(texts) == game.actions_left


def twin(opposition_assassin: str):
    """A long-board game with Assassins; the Opposition's hidden start is the only secret."""
    setup = {"strategy": "aggressive", "ruler": "K"}
    return game_type("tora").new_game(
        {"board": "long", "assassins": True},
        ({**setup, "assassin": "v3h17"}, {**setup, "assassin": opposition_assassin}),
    )


@pytest.mark.parametrize("who", ["random", "greedy"])
def test_twin_worlds_an_engine_never_reads_the_enemys_hidden_assassin(who):
    """Two games that differ only in where the Opposition's Assassin hides (or whether it is
    fielded) give the Challenger's engine the same decisions, legal in both."""
    worlds = [twin(square) for square in ("v3h1", "v15h1", "none")]
    turns = [make_player(who, w).turn(w.copy(), random.Random(5), 1.0) for w in worlds]
    assert turns[0] == turns[1] == turns[2]
    for world in worlds:
        assert world.pos.hidden_assassin(Side.OPPOSITION) or world is worlds[2]
        for text in turns[0]:
            world.apply(text)
        world.end_turn()


def test_a_won_game_is_worth_the_most():
    game = game_type("torishogi").new_game({}, ({}, {}))
    game.resign(Side.OPPOSITION)
    assert evaluate(game, Side.CHALLENGER) == WIN
    assert evaluate(game, Side.OPPOSITION) == -WIN


def test_seeded_baselines_replay_the_same_match():
    first = play_match("torishogi", "greedy", "random", games=2, seed=7, seconds=0.05)
    again = play_match("torishogi", "greedy", "random", games=2, seed=7, seconds=0.05)
    assert (first.wins, first.draws) == (again.wins, again.draws)
    assert first.wins.get("A", 0) == 2  # greedy beats random


def test_cli_match_prints_the_tally_last():
    result = subprocess.run(
        [sys.executable, "-m", "ai", "match", "torii", "easy", "random",
         "--games", "2", "--seed", "3", "--seconds", "0.05"],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    last = result.stdout.splitlines()[-1].split()
    assert last[0] == "A" and last[2] == "B" and last[4] == "draws"
    assert int(last[1]) + int(last[3]) + int(last[5]) == 2


@pytest.mark.parametrize("name", NAMES)
def test_a_hint_is_the_same_for_the_same_position_whatever_the_clock(name, monkeypatch):
    """A hint's work is fixed, not timed, and its seed comes from the position: asked twice
    (once with a clock that runs a hundred times as fast), the same position gives the same
    legal turn."""
    game = advanced(name, 4, 3)
    first = hint(game.copy())
    real = time.monotonic
    ticks = iter(range(10**9))
    monkeypatch.setattr(time, "monotonic", lambda: real() + next(ticks) * 100.0)
    assert hint(game.copy()) == first
    trial = game.copy()
    for text in first:
        trial.apply(text)
    trial.end_turn()


@pytest.mark.parametrize("name", NAMES)
def test_master_takes_three_times_the_time_of_hard(name):
    game = new_game(name, random.Random(1))
    assert MASTER_STRETCH == 3.0
    assert turn_seconds(game, "master") == 3.0 * turn_seconds(game, "hard")
    assert turn_seconds(game, "easy") == turn_seconds(game) == turn_seconds(game, "hard")


def test_a_measuring_match_may_count_the_budgets_in_cpu_seconds():
    """``python -m ai match --clock cpu``: inside ``cpu_clock`` every engine's clock is the
    process's CPU time (another process's load does not shorten a turn's work), and the
    wall clock is back after it."""
    timed = [importlib.import_module(name) for name in TIMED]
    with cpu_clock():
        for module in timed:
            assert module.time.monotonic() == pytest.approx(time.process_time(), abs=0.05)
        tally = play_match("torishogi", "hard", "greedy", games=1, seed=3, seconds=0.05)
    assert sum(tally.wins.values()) + tally.draws == 1
    assert all(module.time is time for module in timed)


def _long_assassin_position():
    """TORA's long board with Assassins after ten random turns, the Challenger to act:
    the greedy builder's first pick there is a General moving into jeopardy (R30)."""
    rng = random.Random(1)
    setup = {"strategy": "aggressive", "ruler": "K"}
    game = game_type("tora").new_game(
        {"board": "long", "assassins": True},
        ({**setup, "assassin": "v3h17"}, {**setup, "assassin": "v8h1"}),
    )
    player = make_player("random", game)
    for _ in range(10):
        for text in player.turn(game.for_player(game.side), rng, 1.0):
            game.apply(text)
        game.end_turn()
    return game


def test_a_turn_whose_first_action_the_rules_would_refuse_is_not_given_up_whole():
    """Regression: a three-action turn that could not end (R30) only ever changed its last
    two actions, so when the first was the one R30 refuses, the builder took every action
    back and the AI passed its turn (greedy, ``easy``, and the first candidate of the
    stronger levels), though a turn of several actions could end."""
    from ai.players import GreedyPlayer
    from ai.turns import can_end

    game = _long_assassin_position()
    own = game.for_player(game.side)
    texts = GreedyPlayer().build(own.copy(), random.Random(1), None)
    assert len(texts) >= 2
    played = own.copy()
    for text in texts:
        played.apply(text)
    assert can_end(played)
