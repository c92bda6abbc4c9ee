"""Property tests over random legal playouts of both boards (hypothesis)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.tora import Game, IllegalAction, Options, Side
from rules.tora.assassin import start_squares
from rules.tora.geometry import name
from rules.tora.layouts import LONG_SETUPS, SHORT_SETUPS
from rules.tora.record import replay, write_record

TERRAINS = ["none", "river", "woods", "highlands"]
SETTINGS = settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)


def snapshot(game: Game) -> tuple:
    pos = game.pos
    return (
        frozenset(pos.pieces.values()),
        pos.side,
        pos.round,
        tuple(pos.score),
        tuple(pos.pending),
        pos.actions_used,
        pos.actions_total,
        frozenset(pos.spent),
        frozenset(pos.attacked),
        frozenset(pos.operated),
        frozenset(pos.stunned.items()),
        pos.free_take,
        tuple(game.staged()),
    )


def new_game(rng: random.Random, board: str, assassins: bool = False) -> Game:
    options = Options(
        board=board,
        challenger_setup=rng.choice(["aggressive", "defensive"]),
        opposition_setup=rng.choice(["aggressive", "defensive"]),
        terrain=rng.choice(TERRAINS),
        rulers=(rng.choice("KQ"), rng.choice("KQ")),
        assassins=assassins,
    )
    if not assassins:
        return Game(options)
    starts = [rng.choice([None, *map(name, start_squares(options, side))]) for side in Side]
    return Game(options, assassin_starts=(starts[0], starts[1]))


def try_apply(game: Game, action) -> bool:
    """Apply a listed action; only a command piece's search may still be refused (R43)."""
    try:
        game.apply(action)
    except IllegalAction as exc:
        assert exc.rule == "R43" and action.kind == "search", exc
        return False
    return True


def play_turn(game: Game, rng: random.Random, checks) -> None:
    """Random legal actions for one turn, then end it (undoing what R30 refuses)."""
    for _ in range(rng.randint(0, game.actions_left)):
        actions = game.legal_actions()
        if not actions:
            break
        checks(game, actions)
        try_apply(game, rng.choice(actions))
    while True:
        try:
            game.end_turn()
            return
        except IllegalAction as exc:
            assert exc.rule == "R30"
            game.undo()


def removed_value(game: Game, side: Side, initial) -> int:
    values = game.pos.values
    now = [p for p in game.pos.pieces.values() if p.side == side]
    lost = list(initial[side])
    for piece in now:
        lost.remove(piece.kind if piece.kind != "R" or "R" in lost else "G")
    return sum(values[kind] for kind in lost)


def playout(
    seed: int, board: str, turns: int, checks=lambda g, a: None, assassins: bool = False
) -> Game:
    rng = random.Random(seed)
    game = new_game(rng, board, assassins)
    layouts = SHORT_SETUPS if board == "short" else LONG_SETUPS
    strategies = (game.options.challenger_setup, game.options.opposition_setup)
    initial = {side: [letter for letter, _h, _v in layouts[strategies[side]]] for side in Side}
    for side in Side:
        initial[side] += ["X"] if game.assassin_starts[side] else []
    for _ in range(turns):
        if game.is_over():
            break
        play_turn(game, rng, checks)
        if game.side == Side.CHALLENGER and not game.is_over() and not assassins:
            # at a round boundary every point booked is a piece removed (R27)
            assert game.scores() == (
                removed_value(game, Side.OPPOSITION, initial),
                removed_value(game, Side.CHALLENGER, initial),
            )
    return game


def every_listed_action_applies(game: Game, actions) -> None:
    """Each listed action applies and round-trips its notation. A command piece's search
    costs a jeopardy judgement (R43), so only every 8th of those is applied."""
    texts = set()
    searches = 0
    for action in actions:
        judged = action.kind == "search" and game.pos.at(action.origin).is_command
        searches += judged
        if not judged or searches % 8 == 1:
            try_apply(game.copy(), action)
        text = game.notation(action)
        texts.add(text)
        assert game.parse_action(text) == action
    assert len(texts) == len(actions), "two listed actions share a notation"


def undo_restores(game: Game, actions) -> None:
    before = snapshot(game)
    trial = game.copy()
    action = actions[len(actions) // 2]
    if not try_apply(trial, action):
        assert snapshot(trial) == before  # a refusal changes nothing
    elif action.kind == "search":
        with pytest.raises(IllegalAction):
            trial.undo()  # R10: never across a search
    else:
        trial.undo()
        assert snapshot(trial) == before


@SETTINGS
@given(st.integers(0, 10**6))
def test_r50_random_short_games_replay_exactly(seed):
    game = playout(seed, "short", 60, undo_restores)
    again = replay(write_record(game))
    assert snapshot(again) == snapshot(game)
    assert again.outcome() == game.outcome()
    trusted = replay(write_record(game), trusted=True)  # R25 judged only at the end
    assert snapshot(trusted) == snapshot(game) and trusted.outcome() == game.outcome()


@settings(max_examples=8, deadline=None, derandomize=True)
@given(st.integers(0, 10**6))
def test_r8_every_listed_short_action_applies_and_round_trips(seed):
    playout(seed, "short", 12, every_listed_action_applies)


@settings(max_examples=3, deadline=None, derandomize=True)
@given(st.integers(0, 10**6))
def test_r50_random_long_games_replay_exactly(seed):
    game = playout(seed, "long", 5, undo_restores)
    again = replay(write_record(game))
    assert snapshot(again) == snapshot(game)


@settings(max_examples=2, deadline=None, derandomize=True)
@given(st.integers(0, 10**6))
def test_r8_every_listed_long_action_applies(seed):
    playout(seed, "long", 3, every_listed_action_applies)


@settings(max_examples=4, deadline=None, derandomize=True)
@given(st.integers(0, 10**6))
def test_r50_random_assassin_games_replay_exactly(seed):
    game = playout(seed, "long", 8, undo_restores, assassins=True)
    full = write_record(game)
    again = replay(full)
    assert snapshot(again) == snapshot(game) and write_record(again) == full
    for viewer in (None, Side.CHALLENGER, Side.OPPOSITION):
        assert again.view_for(viewer) == game.view_for(viewer)


@settings(max_examples=2, deadline=None, derandomize=True)
@given(st.integers(0, 10**6))
def test_r42_every_listed_assassin_game_action_applies(seed):
    playout(seed, "long", 4, every_listed_action_applies, assassins=True)


@pytest.mark.parametrize("board", ["short", "long"])
def test_r8_legal_actions_are_deterministic(board):
    game = playout(7, board, 4)
    assert game.legal_actions() == game.copy().legal_actions()
