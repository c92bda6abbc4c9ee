"""ToriShogi's search (ai/torishogi): it finds the shortest mate, plays only legal moves,
keeps to its budget, and the Zobrist key it updates move by move is always the key of the
position; repetition is judged as the rules judge it (TS10)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_ai_belief import StepClock

import ai.players
import ai.pvs
import ai.search
import ai.turns
from ai import make_player
from ai.torishogi.search import think
from ai.torishogi.state import SearchState, verdict
from ai.torishogi.tables import material, zobrist
from ai.transposition import EXACT, LOWER, MATE, Table
from rules import Side
from rules.torishogi import Position, ToriShogiGame, legal_moves, parse_fen
from rules.torishogi.movegen import in_check
from rules.torishogi.rulings import repetition_outcome


# ---- a brute force, the oracle of the mate tests -----------------------------------------------
def wins_within(pos: Position, moves: int, checks_only: bool = False) -> bool:
    """Whether the side to move leaves the opponent without a legal move (TS9) within
    ``moves`` of its own moves, whatever the opponent plays. ``checks_only``: only checking
    moves are tried before the last one (a win found so is a win; one missed may exist)."""
    if moves <= 0:
        return False
    for move in legal_moves(pos):
        token = pos.make(move)
        try:
            if checks_only and moves > 1 and not in_check(pos):
                continue
            if loses_within(pos, moves - 1, checks_only):
                return True
        finally:
            pos.unmake(move, token)
    return False


def loses_within(pos: Position, moves: int, checks_only: bool = False) -> bool:
    """Whether the side to move is left without a legal move within ``moves`` of the
    opponent's moves, whatever it plays."""
    replies = legal_moves(pos)
    if not replies:
        return True
    if moves <= 0:
        return False
    for move in replies:
        token = pos.make(move)
        try:
            if not wins_within(pos, moves, checks_only):
                return False
        finally:
            pos.unmake(move, token)
    return True


# Positions found by random placement and classified by the brute force above (the test
# checks the classification again). The Challenger is to move and wins in N moves, not fewer.
MATES = [
    (1, "3P3/3k3/7/4RP1/7/3K3/7[C] w 0 1"),
    (1, "5k1/7/4S+FR/7/7/2K4/7[-] w 0 1"),
    (1, "5Pk/7/4S2/7/7/7/4K2[F] w 0 1"),
    (2, "7/6k/4C2/7/7/7/2K4[F] w 0 1"),
    (2, "1kP+S3/3F3/7/7/7/7/K6[C] w 0 1"),
    (2, "3+F1k1/4L2/3P3/7/7/7/K6[P] w 0 1"),
    (3, "k6/1R5/p1C4/7/7/K6/7[P] w 0 1"),
    (3, "Cks4/Lf5/7/7/7/7/2K4[F] w 0 1"),
    (3, "3PCk1/5f1/4+F1p/7/7/6K/7[-] w 0 1"),
    (3, "k1R4/f6/C6/7/7/K6/7[-] w 0 1"),
]


@pytest.mark.parametrize(("moves", "fen"), MATES)
def test_the_search_finds_the_shortest_win(moves: int, fen: str) -> None:
    pos = parse_fen(fen)
    assert wins_within(pos, moves, checks_only=moves == 3)
    assert not wins_within(pos, moves - 1)
    found = think(pos.copy(), None, float("inf"), random.Random(1), max_nodes=400_000)
    assert found.move is not None
    assert found.score == MATE - (2 * moves - 1)  # mate in so many plies, no fewer
    pos.make(found.move)
    assert loses_within(pos, moves - 1, checks_only=moves == 3) or loses_within(pos, moves - 1)


def test_a_player_of_each_strength_mates_in_one() -> None:
    for level in ("normal", "hard", "master"):
        game = ToriShogiGame("5Pk/7/4S2/7/7/7/4K2[F] w 0 1")
        (text,) = make_player(level, game).turn(game.copy(), random.Random(3), 0.5)
        game.apply(text)
        game.end_turn()
        outcome = game.outcome()
        assert outcome is not None and outcome.winner == Side.CHALLENGER, level


# ---- legality and budgets -------------------------------------------------------------------
def random_game(seed: int, plies: int) -> ToriShogiGame:
    """A game after ``plies`` random moves (fewer if it ended)."""
    rng = random.Random(seed)
    game = ToriShogiGame()
    for _ in range(plies):
        legal = game.legal_actions()
        if not legal:
            break
        game.apply(rng.choice(legal))
        game.end_turn()
    return game


@settings(max_examples=25)
@given(st.integers(0, 10**6), st.integers(0, 120))
def test_the_search_plays_only_legal_moves(seed: int, plies: int) -> None:
    game = random_game(seed, plies)
    if game.is_over():
        return
    player = make_player("hard", game)
    texts = player.turn(game.copy(), random.Random(seed), 0.05)
    assert len(texts) == 1
    game.apply(texts[0])  # the rules core raises on an illegal move
    game.end_turn()


def test_the_search_keeps_to_its_node_budget() -> None:
    game = random_game(5, 30)
    found = think(game.pos.copy(), game.history, float("inf"), random.Random(1), max_nodes=2_000)
    assert found.move is not None and found.nodes <= 2_000


def test_the_search_keeps_to_its_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """Timed by a step clock (each look at it is 10 ms), not by this machine's load."""
    clock = StepClock()
    monkeypatch.setattr(ai.pvs, "time", clock)
    game = random_game(6, 24)
    found = think(game.pos.copy(), game.history, 0.4, random.Random(1))
    assert found.move in legal_moves(game.pos)
    assert clock.now < 0.4 * 1.25 + 0.1


def test_a_hint_is_the_same_for_the_same_position() -> None:
    from ai import hint

    game = random_game(8, 20)
    assert hint(game) == hint(game.copy())


# ---- the Zobrist key and the material ---------------------------------------------------------
@settings(max_examples=30)
@given(st.integers(0, 10**6), st.lists(st.booleans(), min_size=1, max_size=80))
def test_the_key_made_move_by_move_is_the_key_of_the_position(
    seed: int, passes: list[bool]
) -> None:
    rng = random.Random(seed)
    state = SearchState(parse_fen(ToriShogiGame().fen()))
    pos = state.pos
    undo: list[tuple[int, int, bool]] = []
    for pass_now in passes:
        moves = legal_moves(pos)
        if not moves:
            break
        if pass_now and not in_check(pos):
            undo.append((0, state.make_null(), True))
        else:
            move = rng.choice(moves)
            undo.append((move, state.make(move), False))
        assert state.hash == zobrist(pos.board, pos.hands, pos.side)
        assert state.score == material(pos.board, pos.hands)
    while undo:
        move, token, null = undo.pop()
        if null:
            state.unmake_null(token)
        else:
            state.unmake(move, token)
        assert state.hash == zobrist(pos.board, pos.hands, pos.side)
        assert state.score == material(pos.board, pos.hands)
    assert state.keys == [state.hash]
    assert {key: count for key, count in state.seen.items() if count} == {state.hash: 1}


def test_the_table_keeps_the_deeper_entry_of_a_depth() -> None:
    table = Table(bits=4)
    table.store(0x10, 5, EXACT, 7, 123, 0)
    table.store(0x20, 2, LOWER, 9, 456, 0)  # the same slot, shallower: kept out
    entry = table.probe(0x10)
    assert entry is not None and entry.depth == 5 and table.probe(0x20) is None
    table.age += 1  # a later iteration replaces anything
    table.store(0x20, 2, LOWER, 9, 456, 0)
    assert table.probe(0x20) is not None and table.probe(0x10) is None


# ---- repetition (TS10) ------------------------------------------------------------------------
SHUFFLE = ["d1c2", "d7e6", "c2d1", "e6d7"]  # both Phoenixes out and home again


def test_ts10_the_search_never_makes_the_fourth_repetition_it_would_lose_by() -> None:
    game = ToriShogiGame()
    for text in (SHUFFLE * 3)[:-1]:
        game.apply(text)
        game.end_turn()
    assert game.side == Side.OPPOSITION  # home again would be the start's fourth time
    doomed = game.copy()
    doomed.apply("e6d7")
    doomed.end_turn()
    outcome = doomed.outcome()
    assert outcome is not None and outcome.winner == Side.CHALLENGER
    for seed in range(3):
        for level in ("normal", "hard"):
            (text,) = make_player(level, game).turn(game.copy(), random.Random(seed), 0.3)
            assert text != "e6d7"


@settings(max_examples=200)
@given(st.lists(st.booleans(), min_size=13, max_size=13))
def test_ts10_the_search_judges_a_repetition_as_the_rules_do(checks: list[bool]) -> None:
    # positions 0, 4, 8, 12 the same (the fourth time now), the others all different
    keys = [(b"same", b"", 0) if i % 4 == 0 else (bytes([i]), b"", i % 2) for i in range(13)]
    outcome = repetition_outcome(list(zip(keys, checks, strict=True)))
    assert outcome is not None
    expected = 0 if outcome.winner is None else (1 if outcome.winner == Side(0) else -1)
    assert verdict(checks, 0, 12) == expected
