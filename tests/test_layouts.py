"""Starting armies and terrain presets (R1, R2, R4, R5, R6, R19, R33, R41, R50)."""

from __future__ import annotations

import re
from collections import Counter
from itertools import product

import pytest

from rules.tora.layouts import LONG_SETUPS, SHORT_SETUPS, TERRAIN_PRESETS, mirror

SIZES = {"short": 9, "long": 17}
SETUPS = {"short": SHORT_SETUPS, "long": LONG_SETUPS}
STRATEGIES = ("aggressive", "defensive")
LETTERS = set("GRASHC")
COMMAND = {"G", "R"}

DIRECTIONS = {
    "N": (0, 1),
    "NE": (1, 1),
    "E": (1, 0),
    "SE": (1, -1),
    "S": (0, -1),
    "SW": (-1, -1),
    "W": (-1, 0),
    "NW": (-1, 1),
}
OPPOSITE = {"N": "S", "NE": "SW", "E": "W", "SE": "NW", "S": "N", "SW": "NE", "W": "E", "NW": "SE"}
SQUARE = re.compile(r"v(\d+)h(\d+)")
PRESET_NAME = re.compile(r"[a-z-]+")


def squares_of(setup):
    return {(h, v) for _, h, v in setup}


def opposition(setup, size):
    return tuple((letter, *mirror(h, v, size)) for letter, h, v in setup)


def adjacent(a, b):
    return a != b and max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1


def first_piece_on_line(pieces, start, direction, size):
    """A small independent line walker: the first occupied square from ``start`` (exclusive)."""
    dh, dv = DIRECTIONS[direction]
    h, v = start[0] + dh, start[1] + dv
    while 1 <= h <= size and 1 <= v <= size:
        if (h, v) in pieces:
            return (h, v)
        h, v = h + dh, v + dv
    return None


def parse_map(text):
    """A small independent parser: {(h, v): ("water"|"forest"|"hill", direction or None)}."""
    terrain: dict[tuple[int, int], tuple[str, str | None]] = {}
    listed: list[tuple[int, int]] = []
    for clause in text.split(";"):
        words = clause.split()
        assert words, f"empty clause in {text!r}"
        kind, rest = words[0], words[1:]
        if kind in ("water", "forest"):
            assert rest, f"{kind} clause without squares"
            for word in rest:
                m = SQUARE.fullmatch(word)
                assert m, f"bad square {word!r}"
                sq = (int(m.group(2)), int(m.group(1)))
                listed.append(sq)
                terrain[sq] = (kind, None)
        elif kind == "hill":
            assert len(rest) == 2, f"bad hill clause {clause!r}"
            m = SQUARE.fullmatch(rest[0])
            assert m, f"bad square {rest[0]!r}"
            assert rest[1] in DIRECTIONS, f"bad direction {rest[1]!r}"
            sq = (int(m.group(2)), int(m.group(1)))
            listed.append(sq)
            terrain[sq] = ("hill", rest[1])
        else:
            raise AssertionError(f"unknown terrain kind {kind!r}")
    duplicates = [sq for sq, n in Counter(listed).items() if n > 1]
    assert not duplicates, f"squares listed more than once: {duplicates}"
    return terrain


def all_presets():
    return [
        (board, name, parse_map(text))
        for board, presets in TERRAIN_PRESETS.items()
        for name, text in presets.items()
    ]


def all_starting_squares(board):
    size = SIZES[board]
    result = set()
    for setup in SETUPS[board].values():
        result |= squares_of(setup) | squares_of(opposition(setup, size))
    return result


# --- setups ------------------------------------------------------------------------------------


def test_r1_r2_mirror_is_the_180_degree_rotation():
    assert mirror(9, 5, 9) == (1, 5)
    assert mirror(8, 4, 9) == (2, 6)
    assert mirror(17, 9, 17) == (1, 9)
    assert mirror(14, 4, 17) == (4, 14)
    assert mirror(13, 14, 17) == (5, 4)
    for size in SIZES.values():
        for h, v in product(range(1, size + 1), repeat=2):
            assert mirror(*mirror(h, v, size), size) == (h, v)


def test_r4_short_setups_match_the_ruling():
    assert set(SHORT_SETUPS) == set(STRATEGIES)
    assert sorted(SHORT_SETUPS["aggressive"]) == sorted(
        [
            ("G", 9, 5),
            ("C", 8, 5),
            ("S", 8, 4),
            ("S", 8, 6),
            ("A", 7, 5),
            ("A", 9, 3),
            ("A", 9, 7),
        ]
    )
    assert sorted(SHORT_SETUPS["defensive"]) == sorted(
        [
            ("G", 9, 5),
            ("C", 8, 5),
            ("S", 8, 4),
            ("S", 8, 6),
            ("A", 7, 4),
            ("A", 7, 5),
            ("A", 7, 6),
        ]
    )


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_r4_short_counts_and_opposition_mirror(strategy):
    setup = SHORT_SETUPS[strategy]
    assert Counter(letter for letter, _, _ in setup) == {"G": 1, "A": 3, "S": 2, "C": 1}
    # R4 writes the Opposition's squares as h -> 10-h; the short setups are symmetric across
    # v5, so that and the 180-degree rotation give the same army.
    flipped = sorted((letter, 10 - h, v) for letter, h, v in setup)
    assert sorted(opposition(setup, 9)) == flipped
    # The patent: command piece at h1v5 and cannon at h2v5 for the Opposition.
    assert ("G", 1, 5) in flipped
    assert ("C", 2, 5) in flipped


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_r5_long_setups_fixed_squares_and_counts(strategy):
    assert set(LONG_SETUPS) == set(STRATEGIES)
    setup = LONG_SETUPS[strategy]
    assert len(setup) == 27
    assert Counter(letter for letter, _, _ in setup) == {
        "R": 1,
        "G": 2,
        "A": 9,
        "S": 9,
        "H": 4,
        "C": 2,
    }
    assert ("R", 17, 9) in setup
    assert ("G", 14, 4) in setup
    assert ("G", 13, 14) in setup
    assert all(13 <= h <= 17 and 1 <= v <= 17 for _, h, v in setup)
    opp = opposition(setup, 17)
    assert ("R", 1, 9) in opp
    assert ("G", 4, 14) in opp
    assert ("G", 5, 4) in opp
    assert all(1 <= h <= 5 for _, h, _ in opp)


@pytest.mark.parametrize(("board", "strategy"), [(b, s) for b in SIZES for s in STRATEGIES])
def test_r1_setups_use_known_letters_and_one_piece_per_square(board, strategy):
    size = SIZES[board]
    setup = SETUPS[board][strategy]
    assert {letter for letter, _, _ in setup} <= LETTERS
    assert all(1 <= h <= size and 1 <= v <= size for _, h, v in setup)
    assert len(squares_of(setup)) == len(setup)


@pytest.mark.parametrize("board", SIZES)
def test_r1_challenger_and_opposition_never_overlap(board):
    size = SIZES[board]
    for mine, theirs in product(STRATEGIES, repeat=2):
        challenger = squares_of(SETUPS[board][mine])
        opp = squares_of(opposition(SETUPS[board][theirs], size))
        assert not challenger & opp, (mine, theirs)


@pytest.mark.parametrize(("board", "strategy"), [(b, s) for b in SIZES for s in STRATEGIES])
def test_r5_r19_every_cannon_starts_supported(board, strategy):
    setup = SETUPS[board][strategy]
    occupied = squares_of(setup)
    for letter, h, v in setup:
        if letter == "C":
            friends = [sq for sq in occupied if adjacent(sq, (h, v))]
            assert len(friends) >= 2, (h, v)
            # Our design goal: 3 supporters, so a Cannon can also move into water (R31).
            assert len(friends) >= 3, (h, v)


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_r5_each_general_has_its_own_cannon_and_escort(strategy):
    setup = LONG_SETUPS[strategy]
    occupied = squares_of(setup)
    generals = [(h, v) for letter, h, v in setup if letter == "G"]
    cannons = [(h, v) for letter, h, v in setup if letter == "C"]
    own = {g: [c for c in cannons if adjacent(g, c)] for g in generals}
    assert all(len(cs) == 1 for cs in own.values()), own
    assert len({cs[0] for cs in own.values()}) == 2
    for g in generals:
        escort = [sq for sq in occupied if adjacent(sq, g)]
        assert len(escort) >= 3, g


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_r5_command_pieces_are_not_on_the_front_line(strategy):
    """Only the General fixed at h13v14 stands in the front column, and it is flanked there."""
    setup = LONG_SETUPS[strategy]
    occupied = squares_of(setup)
    front = [(letter, h, v) for letter, h, v in setup if letter in COMMAND and h == 13]
    assert front == [("G", 13, 14)]
    assert (13, 13) in occupied
    assert (13, 15) in occupied


@pytest.mark.parametrize(("mine", "theirs"), list(product(STRATEGIES, repeat=2)))
def test_r5_no_cannon_can_hit_an_enemy_at_the_start(mine, theirs):
    """Nobody can open the game by shooting, least of all at a command piece (R21)."""
    size = SIZES["long"]
    pieces = {(h, v): ("Challenger", letter) for letter, h, v in LONG_SETUPS[mine]}
    pieces |= {
        (h, v): ("Opposition", letter) for letter, h, v in opposition(LONG_SETUPS[theirs], size)
    }
    assert len(pieces) == 2 * 27
    # Every other piece is out of reach: the fronts h5 and h13 are 8 columns apart.
    assert max(h for (h, _), (side, _) in pieces.items() if side == "Opposition") == 5
    assert min(h for (h, _), (side, _) in pieces.items() if side == "Challenger") == 13
    cannons = [(sq, side) for sq, (side, letter) in pieces.items() if letter == "C"]
    assert len(cannons) == 4
    for square, side in cannons:
        for direction in DIRECTIONS:
            hit = first_piece_on_line(pieces, square, direction, size)
            if hit is None:
                continue
            owner, letter = pieces[hit]
            assert letter not in COMMAND or owner == side, (mine, theirs, square, direction, hit)
            assert owner == side, (mine, theirs, square, direction, hit, letter)


def test_r5_aggressive_is_further_forward_than_defensive():
    def mean_h(strategy, letters):
        hs = [h for letter, h, _ in LONG_SETUPS[strategy] if letter in letters]
        return sum(hs) / len(hs)

    for letters in ({"A"}, {"H"}):
        assert mean_h("aggressive", letters) < mean_h("defensive", letters)


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_r41_home_edge_leaves_room_for_an_assassin(strategy):
    edge = [v for _, h, v in LONG_SETUPS[strategy] if h == 17]
    assert 17 - len(edge) >= 4


# --- terrain -----------------------------------------------------------------------------------


def test_r6_presets_have_user_facing_names():
    assert set(TERRAIN_PRESETS) == {"short", "long"}
    for board, presets in TERRAIN_PRESETS.items():
        assert len(presets) >= 3, board
        assert "none" not in presets
        assert "custom" not in presets
        for name in presets:
            assert PRESET_NAME.fullmatch(name), name


@pytest.mark.parametrize(("board", "name", "terrain"), all_presets())
def test_r50_presets_parse_on_board_without_duplicates(board, name, terrain):
    size = SIZES[board]
    assert terrain, name
    assert all(1 <= h <= size and 1 <= v <= size for h, v in terrain)


@pytest.mark.parametrize(("board", "name", "terrain"), all_presets())
def test_r6_presets_are_symmetric_and_leave_starts_clear(board, name, terrain):
    size = SIZES[board]
    for (h, v), (kind, direction) in terrain.items():
        image = terrain.get(mirror(h, v, size))
        assert image is not None, (name, h, v)
        assert image[0] == kind, (name, h, v)
        if kind == "hill":
            assert image[1] == OPPOSITE[direction], (name, h, v)
    assert not set(terrain) & all_starting_squares(board)
    assert all(h not in (1, size) for h, _ in terrain)


@pytest.mark.parametrize(("board", "name", "terrain"), all_presets())
def test_r6_presets_leave_open_lanes(board, name, terrain):
    """At least three rows (fixed v) cross the whole board without water or forest."""
    size = SIZES[board]
    blocked = {v for (_, v), (kind, _) in terrain.items() if kind != "hill"}
    assert size - len(blocked) >= 3, name


@pytest.mark.parametrize("board", SIZES)
def test_r6_r33_presets_per_board_cover_water_forest_and_hills(board):
    kinds = [
        {kind for kind, _ in terrain.values()} for b, _, terrain in all_presets() if b == board
    ]
    assert sum({"water", "forest"} <= k for k in kinds) >= 2
    assert sum("hill" in k for k in kinds) >= 1


def test_r50_local_map_parser_reads_the_ruling_example():
    terrain = parse_map("water v4h6 v5h6; forest v3h3 v7h7; hill v7h2 NE; hill v7h3 NE")
    assert terrain == {
        (6, 4): ("water", None),
        (6, 5): ("water", None),
        (3, 3): ("forest", None),
        (7, 7): ("forest", None),
        (2, 7): ("hill", "NE"),
        (3, 7): ("hill", "NE"),
    }
