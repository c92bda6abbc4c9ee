"""The ToriShogi engine against Fairy-Stockfish's perft and against a slow, obviously correct
move generator (make the move, then look whether the own Phoenix is attacked)."""

from __future__ import annotations

import pickle
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.torishogi.board import LAST_RANK, SIZE, SQUARES, ZONE, shift
from rules.torishogi.fen import START_FEN, parse_fen, write_fen
from rules.torishogi.movegen import attacked, in_check, legal_moves
from rules.torishogi.moves import encode, encode_drop
from rules.torishogi.perft import divide, perft
from rules.torishogi.pieces import (
    HAND_KINDS,
    MOVES,
    PHOENIX,
    PROMOTES_TO,
    SWALLOW,
    code,
    kind_of,
    side_of,
)
from rules.torishogi.position import Position

FSF_PERFT = {1: 17, 2: 288, 3: 5430, 4: 103857}


def reference_targets(pos: Position, sq: int) -> list[int]:
    """Where the piece on ``sq`` moves, straight from the piece definitions (TS3)."""
    piece = pos.board[sq]
    side = side_of(piece)
    sign = 1 if side == 0 else -1
    out = []
    for (dx, dy), reach in MOVES[kind_of(piece)].items():
        at: int | None = sq
        for _ in range(reach):
            at = shift(at, dx * sign, dy * sign)
            if at is None:
                break
            there = pos.board[at]
            if not there or side_of(there) != side:
                out.append(at)
            if there:
                break
    return out


def reference_attacked(pos: Position, sq: int, by: int) -> bool:
    return any(
        pos.board[frm] and side_of(pos.board[frm]) == by and sq in reference_targets(pos, frm)
        for frm in SQUARES
    )


def reference_pseudo(pos: Position) -> list[int]:
    us = pos.side
    moves = []
    for sq in SQUARES:
        piece = pos.board[sq]
        if not piece or side_of(piece) != us:
            continue
        for to in reference_targets(pos, sq):
            promoting = kind_of(piece) in PROMOTES_TO and (sq in ZONE[us] or to in ZONE[us])
            moves.append(encode(sq, to, promoting))
    for kind in HAND_KINDS:
        if not pos.hands[us][kind]:
            continue
        for to in SQUARES:
            if pos.board[to]:
                continue
            if kind == SWALLOW:
                if to in LAST_RANK[us]:
                    continue
                mine = code(SWALLOW, us)
                if sum(pos.board[s] == mine for s in range(to % SIZE, SIZE * SIZE, SIZE)) >= 2:
                    continue
            moves.append(encode_drop(kind, to))
    return moves


def reference_legal(pos: Position, mate_test: bool = True) -> set[int]:
    """Make-and-test legality; a Swallow drop is refused when it leaves no legal reply."""
    us = pos.side
    out = set()
    for move in reference_pseudo(pos):
        token = pos.make(move)
        king = next(s for s in SQUARES if pos.board[s] == code(PHOENIX, us))
        legal = not reference_attacked(pos, king, us ^ 1)
        if legal and mate_test and move >> 6 & 63 == 56 + SWALLOW and in_check(pos):
            legal = bool(reference_legal(pos, mate_test=False))
        pos.unmake(move, token)
        if legal:
            out.add(move)
    return out


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_perft_matches_fairy_stockfish(depth: int) -> None:
    assert perft(parse_fen(START_FEN), depth) == FSF_PERFT[depth]


def test_perft_zero_and_divide() -> None:
    pos = parse_fen(START_FEN)
    assert perft(pos, 0) == 1
    assert sum(divide(pos, 2).values()) == FSF_PERFT[2]
    with pytest.raises(ValueError):
        perft(pos, -1)


def test_make_unmake_restores_through_perft() -> None:
    pos = parse_fen(START_FEN)
    before = write_fen(pos)
    perft(pos, 3)
    assert write_fen(pos) == before


def random_playout(seed: int, plies: int, aggressive: bool = False) -> list[Position]:
    """Positions along a random game (captures and drops come early in ToriShogi); an
    ``aggressive`` one gives check whenever it can, which brings pins, evasions and mates."""
    rng = random.Random(seed)
    pos = parse_fen(START_FEN)
    seen = [pos.copy()]
    for _ in range(plies):
        moves = legal_moves(pos)
        if not moves:
            break
        choices = [m for m in moves if _gives_check(pos, m)] if aggressive else []
        pos.make(rng.choice(choices or moves))
        seen.append(pos.copy())
    return seen


def _gives_check(pos: Position, move: int) -> bool:
    token = pos.make(move)
    checking = in_check(pos)
    pos.unmake(move, token)
    return checking


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), aggressive=st.booleans())
def test_legal_moves_match_the_reference(seed: int, aggressive: bool) -> None:
    for pos in random_playout(seed, 60, aggressive)[::3]:
        fast = legal_moves(pos)
        assert len(fast) == len(set(fast))
        assert set(fast) == reference_legal(pos), write_fen(pos)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_every_move_made_and_unmade_restores_the_position(seed: int) -> None:
    for pos in random_playout(seed, 50)[::5]:
        fen, key, kings = write_fen(pos), pos.key(), list(pos.kings)
        for move in legal_moves(pos):
            token = pos.make(move)
            pos.unmake(move, token)
            assert pos.key() == key and pos.kings == kings
        assert write_fen(pos) == fen


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_no_legal_move_leaves_the_own_phoenix_attacked(seed: int) -> None:
    for pos in random_playout(seed, 50)[::5]:
        us = pos.side
        for move in legal_moves(pos):
            token = pos.make(move)
            assert not attacked(pos.board, pos.kings[us], us ^ 1)
            pos.unmake(move, token)


def test_position_pickles_and_copies_independently() -> None:
    pos = random_playout(7, 30)[-1]
    twin = pickle.loads(pickle.dumps(pos))
    assert twin == pos
    other = pos.copy()
    other.make(legal_moves(other)[0])
    assert other != pos and write_fen(twin) == write_fen(pos)


def test_attacked_agrees_with_the_reference() -> None:
    """On every square not held by the attacking side (where "attacked" means "could be
    moved to")."""
    for pos in random_playout(3, 80)[::4]:
        for side in (0, 1):
            for sq in SQUARES:
                if pos.board[sq] and side_of(pos.board[sq]) == side:
                    continue
                assert attacked(pos.board, sq, side) == reference_attacked(pos, sq, side)
