"""The jeopardy and trapped searches' shortcuts (R25, R29) against what they stand for: a
Cannon's last shot after a helper's action, the defences of far pieces left unlisted, and
the corridors grown on bitboards."""

from __future__ import annotations

import random

import pytest
from positions import C, O, position, sq
from test_jeopardy_exact import brute_force
from test_properties import playout
from trapped_oracle import _defences as listed_defences

from rules.tora import defences, jeopardy
from rules.tora.geometry import distances, on_board
from rules.tora.reach import ball, detour

# A Cannon on v9h2 whose line runs along v9 to a Challenger General on v9h16, out of reach
# of every other Opposition piece; the Opposition has two actions (two Generals).
CANNON_LINE = ((O, "G", "v17h3"), (O, "C", "v9h2"), (O, "A", "v7h8"))
SUPPORT = ((O, "S", "v8h2"), (O, "S", "v10h2"))


def _threat(*pieces: tuple) -> tuple[bool, bool]:
    """(the pruned search, brute force): is the General on v9h16 in jeopardy, O to act?"""
    game = position(*CANNON_LINE, *pieces, (C, "G", "v9h16"), board="long", side=O)
    pos, target = game.pos, sq(game, "v9h16")
    assert pos.actions_left == 2
    return jeopardy.in_jeopardy(pos, target), brute_force(pos, pos.board[target], 2)


@pytest.mark.parametrize(
    ("pieces", "expected"),
    [
        (((C, "S", "v9h8"), *SUPPORT), True),  # the Archer shoots the Soldier off the line
        (((C, "G", "v9h8"), *SUPPORT), False),  # a doomed General stays on the line (R11)
        (((C, "S", "v9h8"), (C, "S", "v9h9"), *SUPPORT), False),  # one shot clears one
        (((O, "S", "v8h2"), (O, "S", "v8h4")), True),  # the second supporter steps up
        (((O, "S", "v8h2"), (O, "S", "v8h4"), (C, "S", "v9h8")), False),  # and the Soldier?
        (((O, "S", "v9h8"), *SUPPORT), True),  # an own piece steps off the line
        (((O, "S", "v9h8"), (O, "S", "v9h9"), *SUPPORT), False),  # two do not, in one action
    ],
)
def test_r21_cannon_shot_after_a_helpers_action_is_found_exactly(pieces, expected):
    assert _threat(*pieces) == (expected, expected)


def test_r25_defences_skip_only_pieces_without_a_qualifying_action():
    """``_defences`` lists what the listing of every action, filtered, lists (same order)."""
    rng = random.Random(11)
    compared = 0
    for seed, board in ((3, "long"), (4, "long"), (5, "short")):
        game = playout(seed, board, 6)
        if game.is_over():
            continue
        pos = game.pos.public()
        squares = sorted(on_board(pos.size))
        for _ in range(8):
            deps = set(rng.sample(squares, rng.choice([1, 3, 12])))
            for depth in range(1, pos.actions_total + 1):
                zones = defences.widen(pos, deps, depth)
                for focus in [None, *(p.id for p in pos.commanders(pos.side))]:
                    got = defences.defences(pos, zones, depth, focus)
                    assert got == listed_defences(pos, zones, depth, focus)
                    compared += 1
    assert compared > 50


def test_r29_corridor_on_bitboards_is_every_square_of_a_short_enough_path():
    rng = random.Random(2)
    for size in (9, 17):
        squares = sorted(on_board(size))
        for _ in range(300):
            frm = rng.choice(squares)
            goals = tuple(rng.sample(squares, rng.choice([1, 2, 5, 30])))
            reach = rng.randint(1, 9)
            away = distances(frm)
            expected = {
                s
                for s in ball(size, frm, reach)
                if away[s] + min(distances(g)[s] for g in goals) <= reach
            }
            assert detour(size, frm, goals, reach) == expected
