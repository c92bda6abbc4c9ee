"""The bracket image: deterministic, one column per tier plus the champion's."""

from __future__ import annotations

import io

from PIL import Image

from render import BracketMatch, bracket_png
from render.event_table import EventTable, event_table_png

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


def test_a_large_events_standings_and_bracket_stay_a_readable_size() -> None:
    """A 500-player round robin (``event_spec.MOST_PLAYERS``): its standings leave out the
    cross columns (a column per player) as they leave out rows past ``MOST_ROWS``, where the
    picture was 21,000 x 2,900 pixels; a knockout tier of 1,000 matches draws its first ones
    and says how many more there are, where it was 514 x 78,000."""
    n = 500
    header = ("#", "Player", *(str(i) for i in range(1, n + 1)), "Pts", "SB")
    rows = tuple(
        (str(r), f"{r} player{r}", *("½" for _ in range(n)), "10", "12.5") for r in range(1, n + 1)
    )
    table = Image.open(io.BytesIO(event_table_png(EventTable("T", header, rows, points=2 + n))))
    tier = [BracketMatch(f"p{i}", f"q{i}", (1, 0), None, 1) for i in range(1000)]
    bracket = Image.open(io.BytesIO(bracket_png("Open", [tier])))
    sizes = {"crosstable": table.size, "bracket": bracket.size}
    assert all(max(size) <= 3000 for size in sizes.values()), sizes


def test_a_substitute_stays_marked_on_the_bracket_whatever_the_name() -> None:
    """A substitute is "(sub)" on the bracket; with Discord's longest name the mark was cut
    off with the name (as "(withdrawn)" on the standings). The name is cut, not the mark."""
    longest = "Bartholomew Montgomery-Whitfield"

    def bracket(second: str) -> bytes:
        match = BracketMatch("ann", second, (0, 0), None, 0, ("ann", longest))
        return bracket_png("Cup", [[match]])

    assert bracket(f"{longest} (sub)") != bracket(longest)
