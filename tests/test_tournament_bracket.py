"""The bracket image: deterministic, one column per tier plus the champion's."""

from __future__ import annotations

import io

from PIL import Image

from render import BracketMatch, bracket_png

TIER_1 = [
    BracketMatch("ann", "bob", (52, 30), 0, 4),
    BracketMatch("carl", "dora", (20, 21), None, 2),
]
TIER_2 = [BracketMatch("ann", "dora (sub)", (0, 0), None, 0)]


def size(png: bytes) -> tuple[int, int]:
    return Image.open(io.BytesIO(png)).size


def test_the_bracket_is_drawn_the_same_every_time_and_grows_with_its_tiers() -> None:
    one = bracket_png("Cup - short board, matches to 60", [TIER_1])
    assert one == bracket_png("Cup - short board, matches to 60", [TIER_1])
    two = bracket_png("Cup - short board, matches to 60", [TIER_1, TIER_2], "ann")
    assert size(two)[0] > size(one)[0] and size(two)[1] == size(one)[1]
    assert two != bracket_png("Cup - short board, matches to 60", [TIER_1, TIER_2])
