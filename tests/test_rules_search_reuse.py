"""What R25's search works out once and reuses (issue 26) is what it would work out afresh:
the zones and defences of a position (``trapped.Escape._defended``), kept for the probes and
the search's rounds that come back to it, and a plain move's Action and Effect, made as tuples
by the action generator (``movegen._move``)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_properties import new_game, play_turn

from rules.tora import trapped
from rules.tora.actions import MOVE, Action
from rules.tora.movegen import _move
from rules.tora.position import Effect, Position

PLAYOUTS = settings(
    max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)


class Afresh(trapped.Escape):
    """The search with nothing of a position's defences kept."""

    def _defended(
        self, pos: Position, node: trapped.NodeKey, depth: int, focus: int
    ) -> tuple[list[set[int]], list[Effect]]:
        self.defended.clear()
        return super()._defended(pos, node, depth, focus)


def _verdict(pos: Position, search: type[trapped.Escape]) -> tuple[object, int, int]:
    """``trapped.verdict`` with ``search``, and what it spent and judged."""
    if not [p for p in pos.commanders(pos.side) if not p.doomed]:
        return False, 0, 0
    pos = pos.public()
    escape = search(pos)
    found: bool | None
    if any(trapped.Probe(escape, budget, safest).finds() for budget, safest in trapped.PROBES):
        found = False
    else:
        escape.budget = trapped.TRAPPED_BUDGET
        try:
            found = not escape.exists()
        except trapped._OutOfBudget:
            found = None
    return found, escape.budget, len(escape.judged)


@PLAYOUTS
@given(st.integers(0, 10**6))
def test_kept_defences_change_no_verdict_nor_its_work(seed):
    rng = random.Random(seed)
    game = new_game(rng, "short")
    game.skip_trapped = True  # judged here, both ways
    for _ in range(12):
        if game.is_over():
            break
        play_turn(game, rng, lambda g, actions: None)
        kept = _verdict(game.pos, trapped.Escape)
        assert kept == _verdict(game.pos, Afresh)
        assert kept[0] == trapped.verdict(game.pos)


def test_plain_moves_are_the_named_tuples():
    action, effect = _move("A", 35, (36, 37), 7, 37)
    assert type(action) is Action and type(effect) is Effect
    assert action == Action(MOVE, "A", 35, (36, 37))
    assert effect == Effect(MOVE, 7, 37)
    assert hash(effect) == hash(Effect(MOVE, 7, 37))
