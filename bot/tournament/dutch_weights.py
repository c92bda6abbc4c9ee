"""py4swiss's Dutch engine made faster on large events without changing a pairing.

For every bracket, py4swiss's ``BracketMatcher`` builds a complete graph over the bracket's
players and weighs each edge (bye preferences and the quality criteria C.5-C.19) pair by pair
in Python, on its ``DynamicUint``: up to 125 000 weights in a round of 500, most of the time
the round takes. A weight depends on the pair only through

- whether the two may meet at all (the absolute criteria C.1 and C.3, and forbidden pairs),
  which the library asks anew in every bracket: here it is asked once a round, when the
  library's ``ValidityMatcher`` sets up (C.3 once for each pair of colour situations), and
  kept for the brackets; and
- the two players' attributes the quality criteria read (``WEIGHED``: role in the bracket,
  score, colour preference and difference, floats, bye, topscorer), the bracket being fixed.

So two allowed pairs whose players share those attributes get the same weight: it is computed
once for each distinct pair of attribute tuples, by the library's own ``_get_weight``, and
copied to every edge that has it. The matching itself (the library's compiled blossom code,
from bbpPairings), the brackets, exchanges and transpositions are the library's, untouched.

Installed only on the py4swiss version it was checked against (``CHECKED``): on any other
the library runs as it ships, slower but never different.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import version
from typing import Any

from py4swiss.dynamicuint import DynamicUint
from py4swiss.engines.dutch.bracket.bracket_matcher import BracketMatcher
from py4swiss.engines.dutch.criteria.absolute import C1, C2, C3
from py4swiss.engines.dutch.player import Player
from py4swiss.engines.dutch.validity_matcher import ValidityMatcher

CHECKED = "0.3.1"
WEIGHED = (
    "role",
    "points",
    "points_with_acceleration",
    "color_difference",
    "color_double",
    "float_1",
    "float_2",
    "bye_received",
    "top_scorer",
)
# and ``color_preference``, by its side and strength (the library's model is not hashable);
# what only the absolute criteria read, asked of the library pair by pair:
PER_PAIR = ("id", "number", "opponents", "colors")

LIBRARY_SET_UP: Callable[[BracketMatcher], None] = BracketMatcher._set_up_computer
LIBRARY_VALIDITY_SET_UP: Callable[[ValidityMatcher], None] = ValidityMatcher._set_up_computer
LIBRARY_ADD_TO_WEIGHTS: Callable[..., None] = BracketMatcher.add_to_weights
LIBRARY_FINALIZE_MATCH: Callable[..., None] = BracketMatcher.finalize_match


def _weighed(player: Player) -> tuple[Any, ...]:
    preference = player.color_preference
    return (*(getattr(player, name) for name in WEIGHED), preference.side, preference.strength)


def _validity_set_up(self: ValidityMatcher) -> None:
    """The library's ``ValidityMatcher._set_up_computer`` (an edge for each pair that may meet,
    one to a bye vertex for who may take the bye), each pair's verdict kept for the brackets.

    A verdict is the library's ``is_allowed_pair``: not a forbidden pair, C.1 (not met before)
    and C.3 (no two non-topscorers with the same absolute colour preference); C.3 reads only
    the two players' topscorer flags and colour preferences, so it is asked once for each."""
    for _ in range(self._len):
        self._computer.add_vertex()
    players = self._players
    forbidden = self._forbidden_pairs
    colours = [
        (p.top_scorer, p.color_preference.side, p.color_preference.strength) for p in players
    ]
    c3: dict[tuple[Any, ...], bool] = {}
    verdicts: dict[tuple[int, int], bool] = {}
    for i, first in enumerate(players):
        for j in range(i + 1, len(players)):
            second = players[j]
            barred = forbidden and {(first.id, second.id), (second.id, first.id)} & forbidden
            if barred or not C1.evaluate(first, second):
                allowed = False
            else:
                key = (colours[i], colours[j])
                if key not in c3:
                    c3[key] = C3.evaluate(first, second)
                allowed = c3[key]
            verdicts[first.id, second.id] = allowed
            self._computer.set_edge_weight(i, j, int(allowed))
    if len(players) % 2 == 1:
        for i, player in enumerate(players):
            self._computer.set_edge_weight(i, len(players), int(C2.evaluate(player, player)))
    self._verdicts = verdicts


def _set_up_computer(self: BracketMatcher) -> None:
    """The library's ``_set_up_computer`` (a vertex per player, an edge per pair, weighed, as
    its ``_set_weight`` sets them), each distinct weight computed once."""
    for _ in range(self._len):
        self._computer.add_vertex()
    players, weights = self._player_list, self._weights
    verdicts, set_edge_weight = self._validity_matcher._verdicts, self._computer.set_edge_weight
    weighed = [_weighed(player) for player in players]
    zero = self._zero_weight
    known: dict[tuple[tuple[Any, ...], tuple[Any, ...]], DynamicUint] = {}
    for i, first in enumerate(players):
        row, first_id, first_weighed = weights[i], first.id, weighed[i]
        for j in range(i + 1, len(players)):
            second = players[j]
            allowed = verdicts.get((first_id, second.id))
            if allowed is None:
                allowed = self._validity_matcher.is_allowed_pair(first, second)
            if allowed:
                key = (first_weighed, weighed[j])
                if key not in known:
                    known[key] = self._get_weight(first, second)
                # a copy per edge: the library zeroes an edge's weight in place to drop it
                weight = DynamicUint(known[key])
            else:
                weight = DynamicUint(zero)
            row[j] = weight
            weights[j][i] = weight
            set_edge_weight(i, j, weight)


def _add_to_weights(
    self: BracketMatcher,
    player: Player,
    player_list: list[Player],
    value: int,
    increment: bool = False,
) -> None:
    """The library's ``add_to_weights`` with its ``add_to_weight`` and ``_set_weight`` inlined:
    the same edges changed by the same amounts in the same order."""
    i = self._index_dict[player]
    index, weights, row = self._index_dict, self._weights, self._weights[i]
    zero, set_edge_weight, step = self._zero_weight, self._computer.set_edge_weight, int(increment)
    for other in player_list:
        j = index[other]
        current = row[j]
        if current:
            change = zero | abs(value)
            weight = current + change if value > 0 else current - change
            row[j] = weight
            weights[j][i] = weight
            set_edge_weight(i, j, weight)
        value += step


def _finalize_match(self: BracketMatcher, player_1: Player, player_2: Player) -> None:
    """The library's ``finalize_match`` with its ``_remove_weight`` inlined: every other edge
    of the two dropped (zeroed in place) in the same order, then theirs set to the maximum."""
    i, j = self._index_dict[player_1], self._index_dict[player_2]
    row_1, row_2, set_edge_weight = (
        self._weights[i],
        self._weights[j],
        self._computer.set_edge_weight,
    )
    for k in range(self._len):
        weight = row_1[k]
        if weight:
            weight &= 0
            set_edge_weight(i, k, weight)
        weight = row_2[k]
        if weight:
            weight &= 0
            set_edge_weight(j, k, weight)
    self._set_weight(i, j, self._max_weight)


def install() -> bool:
    """Memoise the library's edge weights if it is the version checked; say whether it is."""
    if version("py4swiss") != CHECKED:
        return False
    ValidityMatcher._set_up_computer = _validity_set_up
    BracketMatcher._set_up_computer = _set_up_computer
    BracketMatcher.add_to_weights = _add_to_weights
    BracketMatcher.finalize_match = _finalize_match
    return True
