"""R51's canonical notation matched against a piece's indexed ways to act: the notations
written, and the actions read back, are those of matching every way the piece can act."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from test_rules_search_exact import midturn

from rules.tora import resolve
from rules.tora.notation import Spec


def every_pair(self: resolve.PairIndex, spec: Spec, home: int, strike: bool) -> resolve.Pairs:
    return self.pairs


@settings(max_examples=12, derandomize=True)
@given(st.integers(0, 10**6), st.sampled_from(["short", "long"]), st.integers(2, 8))
def test_r51_indexed_notations_are_those_of_every_pair(seed, board, turns):
    for game in midturn(seed, board, turns):
        actions = game.legal_actions()
        indexed = game.notations(actions)
        original = resolve.PairIndex.candidates
        resolve.PairIndex.candidates = every_pair  # type: ignore[method-assign]
        try:
            plain = game.notations(actions)
        finally:
            resolve.PairIndex.candidates = original  # type: ignore[method-assign]
        assert indexed == plain
        assert [game.parse_action(text) for text in indexed] == actions
