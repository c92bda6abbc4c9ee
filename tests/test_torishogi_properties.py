"""Properties over random games (hypothesis), and hostile inputs to every reader."""

from __future__ import annotations

import contextlib
import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import ActionError, MalformedAction
from rules.torishogi import (
    RecordError,
    ReplayError,
    ToriShogiGame,
    parse_fen,
    read_record,
    write_fen,
    write_record,
)
from rules.torishogi.movegen import attacked

LONG = 6000
QUICK = 0.5  # seconds: a guard against super-linear readers, far above their real cost
choices = st.lists(st.integers(0, 10**6), min_size=1, max_size=80)


def random_game(picks: list[int], fen: str | None = None) -> ToriShogiGame:
    game = ToriShogiGame(fen) if fen else ToriShogiGame()
    for pick in picks:
        if game.is_over():
            break
        moves = game.legal_actions()
        game.apply(moves[pick % len(moves)])
        game.end_turn()
    return game


@settings(max_examples=40, deadline=None)
@given(picks=choices)
def test_fen_round_trips(picks: list[int]) -> None:
    game = random_game(picks)
    fen = game.fen()
    assert write_fen(parse_fen(fen)) == fen
    assert parse_fen(fen) == game.pos
    assert ToriShogiGame(fen).legal_actions() == game.legal_moves()


@settings(max_examples=30, deadline=None)
@given(picks=choices)
def test_notation_round_trips(picks: list[int]) -> None:
    game = random_game(picks)
    for move in game.legal_actions():
        assert game.parse_action(move.uci) == move
        assert game.parse_action(move.readable) == move
        assert game.notation(move) == move.uci == game.notation(move.readable)


@settings(max_examples=25, deadline=None)
@given(picks=choices)
def test_every_move_staged_and_taken_back_leaves_the_game_as_it_was(picks: list[int]) -> None:
    game = random_game(picks)
    before = (game.fen(), game.view_for(game.side), len(game.turns), list(game.history))
    for move in game.legal_actions():
        game.apply(move)
        assert game.undo() == move.readable
        after = (game.fen(), game.view_for(game.side), len(game.turns), list(game.history))
        assert after == before


@settings(max_examples=25, deadline=None)
@given(picks=st.lists(st.integers(0, 10**6), min_size=1, max_size=200))
def test_a_random_game_ends_or_stays_legal(picks: list[int]) -> None:
    game = random_game(picks)
    pos = game.pos
    us = pos.side
    assert not attacked(pos.board, pos.kings[us ^ 1], us)  # TS8 for the side that moved
    if game.is_over():
        outcome = game.outcome()
        assert outcome is not None and game.legal_actions() == []
        if outcome.reason in ("checkmate", "stalemate"):
            assert not ToriShogiGame(game.fen()).legal_moves()
            assert outcome.winner == game.side.other
            assert (outcome.reason == "checkmate") == game.in_check()
    else:
        assert game.legal_actions() and game.actions_left == 1
    replayed = read_record(write_record(game))
    assert replayed.fen() == game.fen() and replayed.outcome() == game.outcome()


@settings(max_examples=25, deadline=None)
@given(picks=choices)
def test_views_match_the_game(picks: list[int]) -> None:
    game = random_game(picks)
    view = game.view_for(None)
    assert view.fen == game.fen()
    assert len(view.pieces) == sum(1 for piece in game.pos.board if piece)
    assert view.in_check == game.in_check()
    if not game.is_over():
        move = game.legal_actions()[0]
        game.apply(move)
        assert game.view_for(game.side).fen != view.fen
        assert game.view_for(game.side.other).fen == view.fen


def _quick(call, errors: tuple[type[BaseException], ...], text: str) -> None:
    start = time.perf_counter()
    with contextlib.suppress(errors):
        call(text)
    assert time.perf_counter() - start < QUICK


@settings(max_examples=60, deadline=None)
@given(text=st.text(max_size=LONG))
def test_random_text_to_the_move_parser(text: str) -> None:
    _quick(ToriShogiGame().parse_action, (ActionError,), text)


@settings(max_examples=60, deadline=None)
@given(text=st.text(max_size=LONG))
def test_random_text_to_the_fen_reader(text: str) -> None:
    _quick(parse_fen, (ValueError,), text)


@settings(max_examples=60, deadline=None)
@given(text=st.text(max_size=LONG))
def test_random_text_to_the_record_reader(text: str) -> None:
    _quick(read_record, (RecordError, ReplayError), text)


@settings(max_examples=40, deadline=None)
@given(text=st.text(alphabet='abcdefgh1234567890@+-x SFCPLRKsfcplrk/[]"\\:\nCO', max_size=LONG))
def test_notation_alphabet_to_every_reader(text: str) -> None:
    _quick(ToriShogiGame().parse_action, (ActionError,), text)
    _quick(parse_fen, (ValueError,), text)
    _quick(read_record, (RecordError, ReplayError), text)


ADVERSARIAL = [
    "a1" * 3000,
    "+" * LONG,
    "S@" * 3000,
    "[" * LONG,
    '"' * LONG,
    "\\" * LONG,
    "/" * LONG,
    "1" * LONG,
    "7/" * 3000,
    "drop " * 1200,
    "left quail " * 545,
    " " * LONG,
    "\n" * LONG,
    "C: c3c4\n" * 750,
    '[A "' + "\\" * (LONG - 6) + '"]',
    '[A "' + '\\"' * 2990 + '"]',
    "rpckcpl/3f3/sssssss/2s1S2/SSSSSSS/3F3/LPCKCPR[" + "S" * 5900 + "] w 0 1",
    "C: " + "c3c4" * 1500,
]


@pytest.mark.parametrize("text", ADVERSARIAL, ids=range(len(ADVERSARIAL)))
def test_adversarial_inputs_fail_quickly(text: str) -> None:
    _quick(ToriShogiGame().parse_action, (ActionError,), text)
    _quick(parse_fen, (ValueError,), text)
    _quick(read_record, (RecordError, ReplayError), text)


def test_long_inputs_are_refused_with_their_length() -> None:
    with pytest.raises(MalformedAction, match="6000 characters long, the limit is 60"):
        ToriShogiGame().parse_action("a" * LONG)
    with pytest.raises(ValueError, match="at most 200 characters, this one has 6000"):
        parse_fen("a" * LONG)
    with pytest.raises(RecordError, match="6000 characters long, the limit is 300"):
        read_record("a" * LONG)


def test_a_long_legal_record_replays() -> None:
    rng = random.Random(5)
    game = random_game([rng.randrange(10**6) for _ in range(300)])
    assert read_record(write_record(game)).fen() == game.fen()
