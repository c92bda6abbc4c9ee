"""py4swiss's Dutch engine made faster on large events without changing a pairing.

For every bracket, py4swiss's ``BracketMatcher`` builds a complete graph over the bracket's
players and the next score group's, weighs each edge (bye preferences and the quality
criteria C.5-C.19) pair by pair in Python, on its ``DynamicUint``, and runs its compiled
maximum-weight matching after each step of the Dutch procedure. Here:

- the graph holds only the players the bracket's pairing depends on (``_graph_players``):
  the next score group is left out, or represented by a few stand-ins, when C.5 settles
  that it cannot change the outcome;
- a weight depends on the pair only through whether the two may meet at all (the absolute
  criteria, read off ``dutch_validity``'s tables) and the two players' attributes the
  quality criteria read (``WEIGHED``: role in the bracket, score, colour preference and
  difference, floats, bye, topscorer), the bracket being fixed: it is computed once for
  each distinct pair of attribute tuples, by the library's own ``_get_weight``, and shared
  by every edge that has it;
- the library's edge helpers are inlined (the same edges changed by the same amounts in
  the same order).

The matching itself (the library's compiled blossom code, from bbpPairings), the brackets,
exchanges and transpositions are the library's. Installed only on the py4swiss version it
was checked against (``CHECKED``): on any other the library runs as it ships, slower but
never different. docs/TOURNAMENTS.md ("Pairing 500 players") has the why and the evidence.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import version
from typing import Any

from py4swiss.dynamicuint import DynamicUint
from py4swiss.engines.dutch.bracket.bracket import Bracket
from py4swiss.engines.dutch.bracket.bracket_matcher import BracketMatcher
from py4swiss.engines.dutch.player import Player
from py4swiss.engines.dutch.validity_matcher import ValidityMatcher
from py4swiss.matching_computer import ComputerDutchOptimality

from . import dutch_validity

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
# what only the absolute criteria (and the colour allocation, after matching) read:
PER_PAIR = ("id", "number", "opponents", "colors")

LIBRARY_INIT: Callable[..., None] = BracketMatcher.__init__
LIBRARY_SET_UP: Callable[[BracketMatcher], None] = BracketMatcher._set_up_computer
LIBRARY_ADD_TO_WEIGHTS: Callable[..., None] = BracketMatcher.add_to_weights
LIBRARY_FINALIZE_MATCH: Callable[..., None] = BracketMatcher.finalize_match
LIBRARY_REMOVE_WEIGHT: Callable[..., None] = BracketMatcher._remove_weight
LIBRARY_REMOVE_WEIGHTS: Callable[..., None] = BracketMatcher.remove_weights
LIBRARY_UPDATE_MATCHING: Callable[[BracketMatcher], None] = BracketMatcher.update_matching


def _weighed(player: Player) -> tuple[Any, ...]:
    preference = player.color_preference
    return (*(getattr(player, name) for name in WEIGHED), preference.side, preference.strength)


def _init(self: BracketMatcher, bracket: Bracket, validity_matcher: ValidityMatcher) -> None:
    """The library's ``__init__`` on a graph of the players ``_graph_players`` keeps (the next
    score group's only as far as the bracket's pairing depends on them)."""
    self._bracket = bracket
    self._validity_matcher = validity_matcher
    self._player_list = _graph_players(bracket, validity_matcher)
    self._max_weight = self._get_max_weight()
    self._zero_weight = self._max_weight & 0
    self._len = len(self._player_list)
    self._index_dict_reverse = dict(enumerate(self._player_list))
    self._index_dict = {player: i for i, player in self._index_dict_reverse.items()}
    self._computer = ComputerDutchOptimality(self._len, self._max_weight)
    self._weights = [[self._zero_weight] * self._len for _ in range(self._len)]
    self.matching = {}
    self._set_up_computer()
    self.update_matching()


def _graph_players(bracket: Bracket, validity_matcher: ValidityMatcher) -> list[Player]:
    """The bracket's players (moved down, resident) and as many of the next score group's as
    its pairing depends on: none when the bracket's players can all be paired among
    themselves, a few who stand in for the group when one of them must float down
    (``dutch_validity.lower_stand_ins``), else all.

    The next group is there for C.7 (choose the downfloaters so as to pair the next bracket
    best). C.5, maximise the bracket's pairs, has the highest bits of every weight outside
    the PPB and LPB (the bye bits), out of reach of the lower criteria and of the pairer's
    additions: when the bracket's players can all meet among themselves, every maximum
    matching pairs them so, there are no downfloaters, and the next group's players are
    matched among themselves only, which the pairer never reads. The pairer only ever
    removes edges the current matching does not use, so that stays true to the end."""
    own: list[Player] = bracket.mdp_list + bracket.resident_list
    lower: list[Player] = bracket.lower_list
    if not lower or bracket.penultimate_pairing_bracket or bracket.last_pairing_bracket:
        return own + lower
    if dutch_validity.pairs_among(validity_matcher, own):
        return own
    stand_ins = dutch_validity.lower_stand_ins(validity_matcher, own, lower)
    return own + (lower if stand_ins is None else stand_ins)


def _set_up_computer(self: BracketMatcher) -> None:
    """The library's ``_set_up_computer`` (a vertex per player, an edge per pair, weighed, as
    its ``_set_weight`` sets them), each distinct weight computed once and shared by the edges
    that have it (``_remove_weight`` below never changes a weight in place)."""
    for _ in range(self._len):
        self._computer.add_vertex()
    players, weights, zero = self._player_list, self._weights, self._zero_weight
    set_edge_weight = self._computer.set_edge_weight
    self._index_by_id = {player.id: i for i, player in enumerate(players)}
    kinds: dict[tuple[Any, ...], int] = {}
    kind = [kinds.setdefault(_weighed(player), len(kinds)) for player in players]
    known: dict[int, DynamicUint] = {}
    allowed_rows = dutch_validity.allowed_after(self._validity_matcher, players)
    for i, allowed_row in enumerate(allowed_rows):
        row, first, first_kind = weights[i], players[i], kind[i] * len(kinds)
        for j, allowed in enumerate(allowed_row, start=i + 1):
            if allowed:
                key = first_kind + kind[j]
                weight = known.get(key)
                if weight is None:
                    weight = known[key] = self._get_weight(first, players[j])
            else:
                weight = zero
            row[j] = weight
            weights[j][i] = weight
            set_edge_weight(i, j, weight)


def _remove_weight(self: BracketMatcher, i: int, j: int) -> None:
    """The library's ``_remove_weight``: a non-zero edge zeroed (``_zeroed``)."""
    weight = self._weights[i][j]
    if weight:
        _zeroed(self, i, j, weight)


def _zeroed(self: BracketMatcher, i: int, j: int, weight: DynamicUint) -> None:
    """The edge of non-zero ``weight`` zeroed in its two cells and in the matcher.

    The library zeroes the weight in place; here its two cells get the zero instead, the same
    to every reader, and weights shared by several edges stay untouched. Only the maximum
    weight, which the library's ``finalize_match`` gives every fixed board and keeps, is
    zeroed in place as the library does it, with whatever else holds it."""
    if weight is self._max_weight:
        weight &= 0
    else:
        weight = self._weights[i][j] = self._weights[j][i] = self._zero_weight
    self._computer.set_edge_weight(i, j, weight)


def _remove_weights(self: BracketMatcher, player: Player, player_list: list[Player]) -> None:
    """The library's ``remove_weights``: each edge in turn (none to a player the graph left
    out)."""
    i, index = self._index_by_id[player.id], self._index_by_id
    for other in player_list:
        j = index.get(other.id)
        if j is not None:
            _remove_weight(self, i, j)


def _add_to_weights(
    self: BracketMatcher,
    player: Player,
    player_list: list[Player],
    value: int,
    increment: bool = False,
) -> None:
    """The library's ``add_to_weights`` with its ``add_to_weight`` and ``_set_weight`` inlined:
    the same edges changed by the same amounts in the same order."""
    i, index = self._index_by_id[player.id], self._index_by_id
    weights, row, zero = self._weights, self._weights[i], self._zero_weight
    set_edge_weight, step = self._computer.set_edge_weight, int(increment)
    change = zero | abs(value)
    for other in player_list:
        j = index[other.id]
        current = row[j]
        if current is not zero and current:  # the shared zero needs no asking
            if step:
                change = zero | abs(value)
            weight = current + change if value > 0 else current - change
            row[j] = weight
            weights[j][i] = weight
            set_edge_weight(i, j, weight)
        value += step


def _finalize_match(self: BracketMatcher, player_1: Player, player_2: Player) -> None:
    """The library's ``finalize_match``: every other edge of the two removed in the same order
    (``_remove_weight`` inlined), then theirs set to the maximum."""
    i, j = self._index_by_id[player_1.id], self._index_by_id[player_2.id]
    row_1, row_2, zero = self._weights[i], self._weights[j], self._zero_weight
    for k in range(self._len):
        weight = row_1[k]
        if weight is not zero and weight:  # the shared zero needs no asking
            _zeroed(self, i, k, weight)
        weight = row_2[k]
        if weight is not zero and weight:
            _zeroed(self, j, k, weight)
    self._set_weight(i, j, self._max_weight)


def _update_matching(self: BracketMatcher) -> None:
    """The library's ``update_matching``: the matcher's answer as a dict, player to player."""
    self._computer.compute_matching()
    players = self._player_list
    self.matching = dict(
        zip(players, [players[j] for j in self._computer.get_matching()], strict=True)
    )


def install() -> bool:
    """Install the faster methods (these and ``dutch_validity``'s) if the library is the version
    checked; say whether it is."""
    if version("py4swiss") != CHECKED:
        return False
    dutch_validity.install()
    BracketMatcher.__init__ = _init
    BracketMatcher._set_up_computer = _set_up_computer
    BracketMatcher.add_to_weights = _add_to_weights
    BracketMatcher.finalize_match = _finalize_match
    BracketMatcher._remove_weight = _remove_weight
    BracketMatcher.remove_weights = _remove_weights
    BracketMatcher.update_matching = _update_matching
    return True
