"""Golden images: the canonical samples must match tests/golden/*.png within a small pixel
tolerance. After an intended change: ``python -m render goldens --refresh`` (``make goldens``),
look at the new images, and commit them."""

from __future__ import annotations

from pathlib import Path

import pytest

from render.tora import goldens

GOLDEN_DIR = Path(__file__).parent / "golden"
STORED = sorted(path.name for path in GOLDEN_DIR.glob("*.png"))


@pytest.fixture(scope="module")
def rendered() -> dict[str, bytes]:
    return goldens.rendered()


def test_every_sample_has_a_stored_image(rendered):
    assert sorted(rendered) == STORED, "run python -m render goldens --refresh"


@pytest.mark.parametrize("name", STORED)
def test_matches_the_stored_image(rendered, name):
    difference = goldens.compare((GOLDEN_DIR / name).read_bytes(), rendered[name])
    assert difference.same_size, f"{name} changed size"
    assert difference.ok, f"{name}: {difference.differing:.2%} of pixels differ"


def test_compare_notices_a_real_change(rendered):
    short, long = rendered["short-start.png"], rendered["long-mid-game.png"]
    assert not goldens.compare(short, long).ok
    assert goldens.compare(short, short).differing == 0
