"""py4swiss's round-completion check answered without its matcher whenever a pairing is found.

Before the first bracket and after each one is paired, py4swiss's Dutch engine asks its
``ValidityMatcher`` whether the players still unpaired can all be paired under the absolute
criteria (A.9, the "round-pairing outlook"). The library keeps a graph for that: a vertex per
player (and one for the bye when the count is odd), an edge for each pair that may meet (no
forbidden pair, C.1 not met before, C.3 no two non-topscorers with the same absolute colour
preference) and to the bye for who may have it (C.2); fixing a board removes every other edge
of its two players. Its answer is whether a maximum matching of that graph leaves nobody out:
whether the graph has a perfect matching, a property of the graph alone. The library builds
the graph edge by edge and runs its matcher on all 500 vertices each time it asks (a third
of a 500-player round's time).

Here the same graph is kept implicitly: who may meet is read off two tables made once a
round (who has met whom, for C.1; C.3's verdict for each pair of colour keys, the topscorer
flag and colour preference that are all it reads) and each fixed board is recorded; the
brackets' weighing (``dutch_weights``) reads the same tables. A quick greedy search for a
perfect matching answers "yes" when it finds one, which settles the question; when it does
not, the library's own graph is built (once, then kept up to date) and its matcher answers,
as it would have.

Installed by ``dutch_weights.install`` with the rest, on the py4swiss version checked.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from py4swiss.engines.common import ColorPreferenceSide, ColorPreferenceStrength
from py4swiss.engines.dutch.criteria.absolute import C2, C3
from py4swiss.engines.dutch.player import Player
from py4swiss.engines.dutch.validity_matcher import ValidityMatcher
from py4swiss.matching_computer import ComputerDutchValidity

LIBRARY_INIT: Callable[..., None] = ValidityMatcher.__init__
LIBRARY_SET_UP: Callable[[ValidityMatcher], None] = ValidityMatcher._set_up_computer
LIBRARY_IS_ALLOWED_PAIR: Callable[..., bool] = ValidityMatcher.is_allowed_pair
LIBRARY_FINALIZE_MATCH: Callable[..., None] = ValidityMatcher.finalize_match
LIBRARY_IS_VALID_MATCHING: Callable[[ValidityMatcher], bool] = ValidityMatcher.is_valid_matching

# the greedy's classes: players C.3 keeps apart (non-topscorers with an absolute preference
# for white, for black) are matched first, across; everybody else after
FOR_WHITE, FOR_BLACK, OTHER = 0, 1, 2


def _colour_key(player: Player) -> tuple[Any, ...]:
    """All that C.3 reads of a player."""
    preference = player.color_preference
    return player.top_scorer, preference.side, preference.strength


def _greedy_class(player: Player) -> int:
    preference = player.color_preference
    if player.top_scorer or preference.strength != ColorPreferenceStrength.ABSOLUTE:
        return OTHER
    return FOR_WHITE if preference.side == ColorPreferenceSide.WHITE else FOR_BLACK


def _init(
    self: ValidityMatcher, players: list[Player], forbidden_pairs: set[tuple[int, int]]
) -> None:
    """The library's ``__init__`` without building its graph: the players, what the absolute
    criteria read of them, and an empty record of fixed boards."""
    self._players = players
    self._forbidden_pairs = forbidden_pairs
    self._len = len(players) + len(players) % 2
    self._index_dict = {player: i for i, player in enumerate(players)}
    # C.1 asks whether the first player is among the second's opponents: who lists whom
    met_by: dict[int, set[int]] = {}
    for player in players:
        for opponent in player.opponents:
            met_by.setdefault(opponent, set()).add(player.id)
    self._met_by = met_by
    # C.3 reads a colour key of each player: the library's verdict for each pair of keys
    keys = {_colour_key(player): player for player in players}
    colour_ids = {key: n for n, key in enumerate(keys)}
    self._colour_ids = {player.id: colour_ids[_colour_key(player)] for player in players}
    self._c3 = [[C3.evaluate(first, second) for second in keys.values()] for first in keys.values()]
    self._fixed = []
    self._computer = None
    self._replayed = 0


def is_allowed_pair(self: ValidityMatcher, player_1: Player, player_2: Player) -> bool:
    """The library's ``is_allowed_pair``: not a forbidden pair, C.1 and C.3."""
    forbidden = self._forbidden_pairs
    if forbidden and {(player_1.id, player_2.id), (player_2.id, player_1.id)} & forbidden:
        return False
    if player_2.id in self._met_by.get(player_1.id, ()):
        return False
    colour_ids = self._colour_ids
    return bool(self._c3[colour_ids[player_1.id]][colour_ids[player_2.id]])


def allowed_after(self: ValidityMatcher, players: list[Player]) -> Iterator[list[bool]]:
    """For each of ``players`` in turn, ``is_allowed_pair`` with each later one, row by row."""
    ids = [player.id for player in players]
    colours = [self._colour_ids[player_id] for player_id in ids]
    met_by, c3, forbidden = self._met_by, self._c3, self._forbidden_pairs
    for i, first_id in enumerate(ids):
        met, verdicts = met_by.get(first_id, ()), c3[colours[i]]
        row = [
            second_id not in met and verdicts[colour]
            for second_id, colour in zip(ids[i + 1 :], colours[i + 1 :], strict=True)
        ]
        if forbidden:
            row = [
                allowed and not {(first_id, second_id), (second_id, first_id)} & forbidden
                for allowed, second_id in zip(row, ids[i + 1 :], strict=True)
            ]
        yield row


def _finalize_match(self: ValidityMatcher, player_1: Player, player_2: Player) -> None:
    """Recorded; the library's graph, if it was ever built, catches up when next asked."""
    self._fixed.append((self._index_dict[player_1], self._index_dict[player_2]))


def _is_valid_matching(self: ValidityMatcher) -> bool:
    """Whether everybody can still be paired: yes if ``perfect_matching`` finds how, no if
    someone has nobody left to meet, else the library's answer on its own graph."""
    if perfect_matching(self) is not None:
        return True
    return not _someone_alone(self) and _library_answer(self)


def _someone_alone(self: ValidityMatcher) -> bool:
    """Whether a vertex of the library's graph has no edge left, which rules out pairing
    everybody: a fixed player whose partner was fixed again with another, or a player not
    fixed who may meet no other such player and may not have the bye."""
    partner: dict[int, int] = {}
    for i, j in self._fixed:
        partner[i], partner[j] = j, i
    if any(i == j for i, j in self._fixed):  # the library never fixes a player alone
        return False
    if any(partner.get(j) != i for i, j in partner.items()):
        return True
    players = self._players
    free = [i for i in range(len(players)) if i not in partner]
    if len(players) % 2:
        free.append(len(players))
    return any(not any(_edge(self, v, w) for w in free if w != v) for v in free)


def _library_answer(self: ValidityMatcher) -> bool:
    """The library's graph, built as it builds it and with the boards fixed since, asked."""
    if self._computer is None:
        self._computer = ComputerDutchValidity(self._len, 1)
        LIBRARY_SET_UP(self)
    players = self._players
    for i, j in self._fixed[self._replayed :]:
        LIBRARY_FINALIZE_MATCH(self, players[i], players[j])
    self._replayed = len(self._fixed)
    return LIBRARY_IS_VALID_MATCHING(self)


def perfect_matching(self: ValidityMatcher) -> list[tuple[int, int]] | None:
    """A perfect matching of the library's graph (vertex ``len(players)`` is the bye), sought
    greedily; None when none is found (there may still be one).

    Fixing i with j leaves them only their edge to each other, so each fixed player must have
    been last fixed with a player last fixed with them; everybody else (and the bye, for an
    odd count) must pair among themselves on the untouched edges."""
    partner: dict[int, int] = {}
    for i, j in self._fixed:
        partner[i], partner[j] = j, i
    if any(i == j or partner.get(j) != i for i, j in partner.items()):
        return None
    players = self._players
    pairs: list[tuple[int, int]] = []
    free = [i for i in range(len(players)) if i not in partner]
    left: list[int] = []
    if len(players) % 2:
        bye = len(players)
        # the bye to the lowest who may have it, the likeliest to have nobody else left
        taker = next((i for i in reversed(free) if _edge(self, bye, i)), None)
        if taker is None:
            left.append(bye)
        else:
            pairs.append((bye, taker))
            free.remove(taker)
    _pair_greedily(self, free, pairs, left)
    if not _pair_the_left(self, left, pairs):
        return None
    return [(i, j) for i, j in partner.items() if i < j] + pairs


def pairs_among(self: ValidityMatcher, players: list[Player]) -> bool:
    """Whether a greedy search pairs all of ``players`` among themselves, every pair allowed
    (``is_allowed_pair``); False when it finds no way (there may still be one)."""
    return _pairs_of(self, [self._index_dict[player] for player in players]) is not None


def lower_stand_ins(
    self: ValidityMatcher, own: list[Player], lower: list[Player]
) -> list[Player] | None:
    """Players of ``lower`` who can stand in for all of it in an odd bracket's graph (``own``,
    its moved-down and resident players), or None when that is not shown.

    Shown when all of ``own`` but one can be paired among themselves (so exactly one floats
    down, C.5) and ``lower`` pairs as far as its parity allows (its last player left over when
    odd, u): then whoever floats down, d, adds to the weight only through C.7, which counts the
    pairs made in the next group (every edge from d to it weighs alike) and d's score. With a
    neighbour l whose removal leaves the group pairable (any l when the group is even; u, or
    one whose partner may meet u, when odd) d's float is worth the same count more than no
    float at all; without any neighbour, nothing. A subset holding, for every d, such a
    neighbour when the whole group has one, and made of pairs of the group's pairing (with u),
    shows the same values up to a constant, so the same matchings are best."""
    if len(own) % 2 == 0:
        return None
    index = self._index_dict
    own_indices = [index[player] for player in own]
    if _pairs_of(self, own_indices[:-1]) is None:
        return None
    lower_indices = [index[player] for player in lower]
    spare = lower_indices[-1] if len(lower) % 2 else None
    pairs = _pairs_of(self, lower_indices[:-1] if spare is not None else lower_indices)
    if pairs is None:
        return None
    partner = {a: b for pair in pairs for a, b in (pair, pair[::-1])}

    def good(low: int) -> bool:
        return spare is None or low == spare or _edge(self, partner[low], spare)

    chosen = set() if spare is None else {spare}
    for high in own_indices:
        if any(_edge(self, high, low) and good(low) for low in chosen):
            continue
        stand_in = next(
            (low for low in lower_indices if _edge(self, high, low) and good(low)), None
        )
        if stand_in is not None:
            chosen |= {stand_in, partner.get(stand_in, stand_in)}
        elif any(_edge(self, high, low) for low in lower_indices):
            return None
    return [player for player, i in zip(lower, lower_indices, strict=True) if i in chosen]


def _pairs_of(self: ValidityMatcher, vertices: list[int]) -> list[tuple[int, int]] | None:
    """A perfect matching of ``vertices`` (players' indices) sought greedily, or None."""
    if len(vertices) % 2:
        return None
    pairs: list[tuple[int, int]] = []
    left: list[int] = []
    _pair_greedily(self, sorted(vertices), pairs, left)
    return pairs if _pair_the_left(self, left, pairs) else None


def _edge(self: ValidityMatcher, a: int, b: int) -> bool:
    """Whether the library's graph, before any board is fixed, joins vertices ``a`` and ``b``:
    C.2 to the bye, ``is_allowed_pair`` (the higher-ranked first) between players."""
    players = self._players
    if a == len(players) or b == len(players):
        taker = players[min(a, b)]
        return bool(C2.evaluate(taker, taker))
    low, high = (a, b) if a < b else (b, a)
    return is_allowed_pair(self, players[low], players[high])


def _pair_greedily(
    self: ValidityMatcher, free: list[int], pairs: list[tuple[int, int]], left: list[int]
) -> None:
    """Pair ``free`` (players in pairing order) greedily into ``pairs``, those C.3 keeps apart
    first, across; who finds nobody is ``left``."""
    players = self._players
    pools: tuple[list[int], list[int], list[int]] = ([], [], [])
    for i in free:
        pools[_greedy_class(players[i])].append(i)
    big, small = FOR_WHITE, FOR_BLACK
    if len(pools[FOR_BLACK]) > len(pools[FOR_WHITE]):
        big, small = FOR_BLACK, FOR_WHITE
    candidates = {big: (small, OTHER), small: (big, OTHER), OTHER: (OTHER, big, small)}
    for group in (big, small, OTHER):
        pool = pools[group]
        while pool:
            first = pool.pop(0)
            second = _take_partner(self, first, [pools[other] for other in candidates[group]])
            if second is None:
                left.append(first)
            else:
                pairs.append((first, second))


def _take_partner(self: ValidityMatcher, first: int, pools: list[list[int]]) -> int | None:
    """Take out of ``pools`` the first vertex ``first`` may meet."""
    for pool in pools:
        for k, second in enumerate(pool):
            if _edge(self, first, second):
                return pool.pop(k)
    return None


def _pair_the_left(self: ValidityMatcher, left: list[int], pairs: list[tuple[int, int]]) -> bool:
    """Pair the vertices ``left`` over by the greedy: two of them directly, or through a pair
    it made (u, w left, (a, b) paired: u-a and w-b instead); False if one cannot be."""
    while left:
        first = left.pop()
        second = _take_partner(self, first, [left])
        if second is not None:
            pairs.append((first, second))
        elif not _pair_through(self, first, left, pairs):
            return False
    return True


def _pair_through(
    self: ValidityMatcher, first: int, left: list[int], pairs: list[tuple[int, int]]
) -> bool:
    for k, second in enumerate(left):
        for n, (a, b) in enumerate(pairs):
            for x, y in ((a, b), (b, a)):
                if _edge(self, first, x) and _edge(self, second, y):
                    pairs[n] = first, x
                    pairs.append((second, y))
                    del left[k]
                    return True
    return False


def install() -> None:
    ValidityMatcher.__init__ = _init
    ValidityMatcher.is_allowed_pair = is_allowed_pair
    ValidityMatcher.finalize_match = _finalize_match
    ValidityMatcher.is_valid_matching = _is_valid_matching
