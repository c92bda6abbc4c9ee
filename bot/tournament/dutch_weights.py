"""py4swiss's Dutch engine made fast enough for 500 players without changing a pairing.

For every bracket, py4swiss's ``BracketMatcher`` builds a complete graph over the bracket's
players and weighs each edge (bye preferences and the quality criteria C.5-C.19) pair by pair
in Python, on its ``DynamicUint``: up to 125 000 weights in a round of 500, most of the time
the round takes. A weight depends on the pair only through

- whether the two may meet at all (the absolute criteria C.1 and C.3, and forbidden pairs):
  asked of the library for every pair, as it does itself; and
- the two players' attributes the quality criteria read (``WEIGHED``: role in the bracket,
  score, colour preference and difference, floats, bye, topscorer), the bracket being fixed.

So two allowed pairs whose players share those attributes get the same weight: it is computed
once for each distinct pair of attribute tuples, by the library's own ``_get_weight``, and
copied to every edge that has it. The matching itself (the library's compiled blossom code)
and everything else is the library's, untouched.

Installed only on the py4swiss version it was checked against (``CHECKED``): on any other
the library runs as it ships, slower but never different.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import version
from typing import Any

from py4swiss.dynamicuint import DynamicUint
from py4swiss.engines.dutch.bracket.bracket_matcher import BracketMatcher
from py4swiss.engines.dutch.player import Player

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


def _weighed(player: Player) -> tuple[Any, ...]:
    preference = player.color_preference
    return (*(getattr(player, name) for name in WEIGHED), preference.side, preference.strength)


def _set_up_computer(self: BracketMatcher) -> None:
    """The library's ``_set_up_computer`` (a vertex per player, an edge per pair, weighed),
    each distinct weight computed once."""
    for _ in range(self._len):
        self._computer.add_vertex()
    players = self._player_list
    allowed = self._validity_matcher.is_allowed_pair
    weighed = [_weighed(player) for player in players]
    zero = self._zero_weight
    known: dict[tuple[tuple[Any, ...], tuple[Any, ...]], DynamicUint] = {}
    for i, first in enumerate(players):
        for j in range(i + 1, len(players)):
            second = players[j]
            if not allowed(first, second):
                self._set_weight(i, j, DynamicUint(zero))
                continue
            key = (weighed[i], weighed[j])
            weight = known.get(key)
            if weight is None:
                weight = known[key] = self._get_weight(first, second)
            # a copy per edge: the library zeroes an edge's weight in place when it drops it
            self._set_weight(i, j, DynamicUint(weight))


def install() -> bool:
    """Memoise the library's edge weights if it is the version checked; say whether it is."""
    if version("py4swiss") != CHECKED:
        return False
    BracketMatcher._set_up_computer = _set_up_computer
    return True
