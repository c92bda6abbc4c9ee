"""R25's first look (``trapped.first_look``): a few single actions judged after the first
probe's first step (ending the turn at once). It only ever finds real escapes, and when it
finds none it leaves the search, budget included, as that first step left it, so every
verdict the search decided without it is unchanged (hypothesis, over random short and long
games with Assassins and terrain)."""

from __future__ import annotations

import random

import trapped_oracle
from hypothesis import given, settings
from hypothesis import strategies as st
from test_properties import new_game, play_turn

from rules.tora import Game, trapped
from rules.tora.position import Position

PLAYOUTS = settings(max_examples=6, deadline=None, derandomize=True)


def without_first_look(pos: Position) -> bool | None:
    """``trapped.verdict`` as it was before the first look: the probes, then ``Escape``."""
    if not [p for p in pos.commanders(pos.side) if not p.doomed]:
        return False
    pos = pos.public()
    escape = trapped.Escape(pos)
    if any(trapped.Probe(escape, budget, safest).finds() for budget, safest in trapped.PROBES):
        return False
    escape.budget = trapped.TRAPPED_BUDGET
    try:
        return not escape.exists()
    except trapped._OutOfBudget:
        return None


def judge(game: Game) -> str:
    """At the start of the running turn: the verdict with the first look is the one without
    it wherever that one decided; an escape the first look finds is one (the oracle, the
    module as it was, never calls the position trapped); and when it finds none, the search
    holds what the first probe's first step holds, with the same budget left. What the first
    look said."""
    pos = game.pos
    before = without_first_look(pos)
    after = trapped.verdict(pos)
    if before is not None:
        assert after == before
    if not [p for p in pos.commanders(pos.side) if not p.doomed]:
        return "no live command piece"
    public = pos.public()
    alone = trapped.Escape(public)  # the first probe's first step, without the first look
    trapped.Probe(alone, *trapped.PROBES[0]).start()
    escape = trapped.Escape(public)
    probe = trapped.Probe(escape, *trapped.PROBES[0])
    if probe.start():
        return "at once"
    if trapped.first_look(public, probe.witnesses):
        assert trapped_oracle.verdict(pos) is not True
        assert after is False
        return "escape"
    assert escape.judged == alone.judged
    assert escape.threats.found == alone.threats.found
    assert escape.budget == alone.budget
    return "trapped" if after else "none"


def playout(game: Game, rng: random.Random, turns: int) -> list[str]:
    game.skip_trapped = True  # judged here, each way
    said = []
    for _ in range(turns):
        if game.is_over():
            break
        play_turn(game, rng, lambda g, a: None)
        if not game.is_over():
            said.append(judge(game))
            game.judge_trapped()
    return said


@PLAYOUTS
@given(st.integers(0, 10**6), st.integers(6, 16))
def test_r25_first_look_changes_no_verdict_on_short_boards(seed, turns):
    rng = random.Random(seed)
    playout(new_game(rng, "short"), rng, turns)


@PLAYOUTS
@given(st.integers(0, 10**6), st.integers(2, 6))
def test_r25_first_look_changes_no_verdict_on_long_boards_with_assassins(seed, turns):
    rng = random.Random(seed)
    playout(new_game(rng, "long", assassins=True), rng, turns)


def test_r25_first_look_finds_escapes_but_none_for_a_trapped_general_on_short_boards():
    """Fixed short games where both of its answers come up, and a General is trapped: seeds
    13, 31 and 38 reach one within 14 turns (``test_rules_search_exact``)."""
    said = []
    for seed in (0, 1, 2, 13, 31, 38):
        rng = random.Random(seed)
        said += playout(new_game(rng, "short"), rng, 14)
    assert said.count("escape") >= 3 and said.count("none") >= 3
    assert said.count("trapped") >= 1
