"""Property tests over random Torii playouts, with and without powers (hypothesis); perft
against play is in ``test_torii_perft.py``."""

from __future__ import annotations

import random
from collections.abc import Iterator

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_torii_game import _check_tree

from rules.sides import Side
from rules.torii import SPIRITS, TORII, ToriiGame
from rules.torii.board import same_lane
from rules.torii.events import MOVE, Event

SETTINGS = settings(
    max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
TURNS = 40

spirit = st.sampled_from(SPIRITS)


def playout(
    seed: int, spirits: tuple[str, str], powers: bool
) -> Iterator[tuple[ToriiGame, random.Random]]:
    """Yields the game before each turn of a random playout (both kinds of turn)."""
    rng = random.Random(seed)
    game = TORII.new_game({"powers": powers}, ({"spirit": spirits[0]}, {"spirit": spirits[1]}))
    for _ in range(TURNS):
        yield game, rng
        if game.is_over():
            return
        if rng.random() < 0.05:
            game.end_turn(deadline=True)
            continue
        while game.actions_left:
            game.apply(rng.choice(game.legal_actions()))
        game.end_turn()


def _supplies(game: ToriiGame) -> tuple[int, int]:
    return game.pos.supply(Side.CHALLENGER), game.pos.supply(Side.OPPOSITION)


def _expected_supplies(before: tuple[int, int], event: Event) -> tuple[int, int]:
    """The supplies after a move, counted from what its event says it did."""
    supply = list(before)
    me, them = event.side, event.side.other
    supply[me] -= len(event.placed)
    supply[them] += len(event.replaced)
    if event.torii_bumped is not None:
        supply[event.torii_bumped] += 1
    for build in event.builds:
        supply[me] += len(build.returned)
        supply[them] += len(build.removed)
    return supply[0], supply[1]


@SETTINGS
@given(seed=st.integers(0, 10**6), spirits=st.tuples(spirit, spirit), powers=st.booleans())
def test_followers_are_conserved_and_spirits_stay_apart(
    seed: int, spirits: tuple[str, str], powers: bool
) -> None:
    previous: tuple[int, int] | None = None
    for game, _rng in playout(seed, spirits, powers):
        view = game.view_for(None)
        for side in Side:
            assert len(view.followers[side]) + view.supply[side] == 9
            assert len(view.torii[side]) + view.torii_left[side] == 4
            assert set(view.torii[side]) <= set(view.followers[side])
        assert not same_lane(*game.pos.spirits)
        if previous is not None:
            event = game.turns[-1].events[0]
            expected = _expected_supplies(previous, event) if event.kind == MOVE else previous
            assert _supplies(game) == expected
        previous = _supplies(game)


@SETTINGS
@given(seed=st.integers(0, 10**6), spirits=st.tuples(spirit, spirit))
def test_a_game_ends_or_stays_legal(seed: int, spirits: tuple[str, str]) -> None:
    for game, _rng in playout(seed, spirits, True):
        if game.is_over():
            assert game.legal_actions() == [] and game.outcome() is not None
        else:
            assert game.legal_actions() and game.menu()


@SETTINGS
@given(seed=st.integers(0, 10**6), spirits=st.tuples(spirit, spirit), powers=st.booleans())
def test_position_strings_and_notation_round_trip(
    seed: int, spirits: tuple[str, str], powers: bool
) -> None:
    for game, rng in playout(seed, spirits, powers):
        fen = game.fen()
        again = TORII.from_fen(fen, {})
        assert again.fen() == fen
        actions = game.legal_actions()
        assert again.legal_actions() == actions
        for action in rng.sample(actions, min(6, len(actions))):
            text = game.notation(action)
            assert game.parse_action(text) == action
            assert game.parse_action(text.upper().replace(" ", "  ")) == action
    record = TORII.write_record(game, None)
    assert TORII.write_record(TORII.read_record(record), None) == record


@SETTINGS
@given(seed=st.integers(0, 10**6), spirits=st.tuples(spirit, spirit))
def test_apply_then_undo_restores_the_state(seed: int, spirits: tuple[str, str]) -> None:
    for game, rng in playout(seed, spirits, True):
        if game.is_over():
            return
        before = (game.pos, list(game.turns), list(game.current), game.result, game.fen())
        views = [game.view_for(viewer) for viewer in (Side.CHALLENGER, Side.OPPOSITION, None)]
        game.apply(rng.choice(game.legal_actions()))
        game.undo()
        assert (game.pos, game.turns, game.current, game.result, game.fen()) == before
        assert [game.view_for(v) for v in (Side.CHALLENGER, Side.OPPOSITION, None)] == views


@SETTINGS
@given(seed=st.integers(0, 10**6), spirits=st.tuples(spirit, spirit))
def test_menus_fit_and_hold_every_action_once(seed: int, spirits: tuple[str, str]) -> None:
    for game, _rng in playout(seed, spirits, True):
        if game.is_over():
            return
        groups = game.menu()
        notations = [c.notation for c in game.choices()]
        assert sorted(notations) == sorted(game.notation(a) for a in game.legal_actions())
        assert len({g.key for g in groups}) == len(groups)
        for group in groups:
            assert len(group.key) <= 20 and len(group.category) <= 20
            assert group.size == len(game.choices(group.key))
            _check_tree(game.choices(group.key))
