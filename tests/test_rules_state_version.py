"""A stored TORA game's shape is pinned to its state version (``STATE_VERSION``): storage
rebuilds a snapshot of another version from the match's log, so a change of shape (a field,
or the type of one) without a new version reaches code that cannot read it, as when a
deployment is rolled back or two versions share one database."""

from __future__ import annotations

from rules.tora import STATE_VERSION, Game, Options
from rules.tora.position import _FIELDS

# the fields of a fresh long-board game with Assassins and the types of their values, as
# stored under each version; a new shape needs a new version, and its line here
SHAPES = {
    9: {
        "actions_total": "int",
        "actions_used": "int",
        "assassins": "bool",
        "attacked": "frozenset",
        "board": "dict",
        "crown_pending": "list",
        "free_take": "NoneType",
        "guards": "int",
        "long": "bool",
        "occupied": "int",
        "operated": "frozenset",
        "pending": "list",
        "pieces": "dict",
        "round": "int",
        "score": "list",
        "searched": "frozenset",
        "side": "Side",
        "side_bits": "list",
        "size": "int",
        "slew": "frozenset",
        "spent": "frozenset",
        "stunned": "dict",
        "terrain": "Terrain",
        "values": "dict",
    },
    10: {
        "actions_total": "int",
        "actions_used": "int",
        "assassins": "bool",
        "attacked": "frozenset",
        "board": "dict",
        "crown_pending": "list",
        "free_take": "NoneType",
        "guards": "int",
        "long": "bool",
        "occupied": "int",
        "operated": "frozenset",
        "pending": "list",
        "pieces": "dict",
        "round": "int",
        "score": "list",
        "searched": "frozenset",
        "side": "Side",
        "side_bits": "list",
        "size": "int",
        "slew": "frozenset",
        "spent": "frozenset",
        "stunned": "dict",
        "target": "int",
        "terrain": "Terrain",
        "values": "dict",
    },
}


def test_a_stored_game_has_the_shape_of_its_state_version() -> None:
    pos = Game(Options(board="long", assassins=True), ("v1h17", "v17h1")).pos
    shape = {name: type(getattr(pos, name)).__name__ for name in ("assassins", "terrain", *_FIELDS)}
    assert shape == SHAPES[STATE_VERSION], "a new shape needs a new STATE_VERSION"
