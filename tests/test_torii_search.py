"""Torii's own search (``ai.torii``): legal turns only, wins found (checked by brute force
over the rules core's turns), its budget kept, its key right."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_ai_belief import StepClock

import ai.players
import ai.pvs
import ai.search
import ai.turns
from ai.host import decide, hint
from ai.torii.search import own_turn
from ai.torii.state import SearchState, successors, zobrist
from rules import Side
from rules.torii import SPIRITS, TORII, Position, Setup, ToriiGame, follower

# Found by random play, each checked by ``wins_now`` / ``forced_in_two`` below.
WIN_IN_ONE = {
    "with powers": ("2OO2/1o1o2/6/6/c1c3/c1cCC1 Ma2,Mc6 3,5 2,2 13,123 C on", True),
    "without powers": ("3o2/6/1O2oo/2O2o/C3c1/c1C3 Ka1,Tf3 5,3 2,2 123,23 O off", False),
}
WIN_IN_TWO = {
    "with powers": ("2OO2/1o1o2/6/6/2c3/2cCC1 Mc1,Mb6 5,5 2,2 123,1 C on", True),
    "without powers": ("3o2/6/1O2o1/2ooo1/4c1/c1C3 Ka1,Te4 6,3 3,3 123,12 O off", False),
}


def from_fen(fen: str, powers: bool) -> ToriiGame:
    return TORII.from_fen(fen, {"powers": powers})


def wins_now(pos: Position, setup: Setup, side: Side) -> bool:
    """Brute force: some move of ``side`` from ``pos`` wins at once."""
    return any(after.winner() == side for after, _label in successors(pos, setup))


def forced_in_two(pos: Position, setup: Setup, side: Side) -> bool:
    """Brute force: whatever the opponent answers from ``pos``, ``side`` then wins at once."""
    for reply, _label in successors(pos, setup):
        winner = reply.winner()
        if winner is None and not wins_now(reply, setup, side):
            return False
        if winner is not None and winner != side:
            return False
    return True


def play(game: ToriiGame, texts: list[str]) -> None:
    for text in texts:
        game.apply(text)
    game.end_turn()


def random_game(spirits: tuple[str, str], powers: bool, seed: int, turns: int) -> ToriiGame:
    """A game after ``turns`` random turns (Monkey decisions included)."""
    rng = random.Random(seed)
    game = ToriiGame(Setup(spirits, powers))
    for _ in range(turns):
        if game.is_over():
            break
        while game.actions_left:
            game.apply(game.notation(rng.choice(game.legal_actions())))
        game.end_turn()
    return game


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.tuples(st.sampled_from(SPIRITS), st.sampled_from(SPIRITS)),
    st.booleans(),
    st.integers(0, 10_000),
    st.integers(0, 40),
)
def test_the_search_never_plays_an_illegal_turn(spirits, powers, seed, turns):
    game = random_game(spirits, powers, seed, turns)
    if game.is_over():
        return
    legal = {game.notation(action) for action in game.legal_actions()}
    texts = own_turn(game.copy(), 0.05, random.Random(seed), 64)
    assert texts and set(texts) <= legal
    assert len(texts) == game.actions_left
    play(game, texts)  # the rules core refuses an illegal turn


def test_the_search_finds_a_win_in_one_turn():
    for fen, powers in WIN_IN_ONE.values():
        game = from_fen(fen, powers)
        side = game.side
        assert wins_now(game.pos, game.setup, side)
        play(game, own_turn(game.copy(), 1.0, random.Random(1), 64))
        assert game.outcome() is not None and game.outcome().winner == side


def test_the_search_finds_a_win_in_two_turns_none_sooner():
    for fen, powers in WIN_IN_TWO.values():
        game = from_fen(fen, powers)
        side = game.side
        assert not wins_now(game.pos, game.setup, side)
        play(game, own_turn(game.copy(), float("inf"), random.Random(1), 64))
        assert forced_in_two(game.pos, game.setup, side)


def test_a_hard_turn_keeps_its_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """Timed by a step clock (each look at it is 10 ms), not by this machine's load."""
    game = random_game(("Monkey", "Boar"), True, 5, 8)
    for seed in range(3):
        clock = StepClock()
        for module in (ai.players, ai.turns, ai.search, ai.pvs):
            monkeypatch.setattr(module, "time", clock)
        texts = decide(game, "hard", 0.4, seed)
        assert clock.now < 0.4 + 0.25
        play(game, texts)


def test_the_key_follows_make_and_unmake():
    game = random_game(("Crane", "Tatsu"), True, 11, 10)
    state = SearchState(game.pos, game.setup)
    rng = random.Random(2)
    keys = [state.hash]
    for _ in range(4):
        moves = state.moves()
        if not moves:
            break
        state.make(rng.choice(moves))
        node = state.stack[-1]
        assert state.hash == zobrist(node.pos, node.side)
        keys.append(state.hash)
    while len(state.stack) > 1:
        state.unmake(0, 0)
        keys.pop()
        assert state.hash == keys[-1]


def test_a_hint_is_the_same_for_the_same_position():
    game = random_game(("Deer", "Kitsune"), True, 3, 6)
    assert hint(game) == hint(game.copy())


def owing_game(decisions: int) -> ToriiGame:
    """A game by random play that stops where the side to act owes ``decisions`` or more
    Monkey decisions (TI15)."""
    for seed in range(500):
        rng = random.Random(seed)
        game = ToriiGame(Setup(("Monkey", "Monkey"), True))
        for _ in range(60):
            if game.is_over():
                break
            if game.pos.owed >= decisions:
                return game
            while game.actions_left:
                game.apply(game.notation(rng.choice(game.legal_actions())))
            game.end_turn()
    raise AssertionError("no random game owed the decisions")


def test_the_search_adds_only_the_decisions_not_yet_staged():
    game = owing_game(2)
    game.apply("flip none")
    texts = own_turn(game.copy(), 0.1, random.Random(0), 64)
    assert len(texts) == game.actions_left
    play(game, texts)


def test_the_decisions_owed_after_a_winning_turn_are_still_made():
    """TI15: the Torii before a winning one still give the Monkey's owner its decisions;
    the game is won already, but the decisions are asked and must be answered."""
    cells = bytes([follower(Side.CHALLENGER)] * 9 + [0] * 27)
    won = Position(cells, (20, 33), (0b001, 0), Side.OPPOSITION, owed=1)
    game = ToriiGame(Setup(("Boar", "Monkey"), True), won)
    assert game.outcome() is None and game.actions_left == 1
    play(game, own_turn(game.copy(), 0.1, random.Random(0), 64))
    assert game.outcome() is not None and game.outcome().winner == Side.CHALLENGER
