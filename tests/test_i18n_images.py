"""Images in every shipped language (issue 30): the leaderboard, its words from the catalogs
and its players' names in any script, matches tests/golden/i18n/ladder-<language>.png. After
an intended change: ``TORA_REFRESH_GOLDENS=1 pytest tests/test_i18n_images.py``, look at the
new images, and commit them."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot.i18n import LOCALES, speaking
from bot.ladder.boards import Line, Page
from render.tora import goldens
from storage.competitions.ladders import LadderKey

GOLDEN = Path(__file__).parent / "golden" / "i18n"
LINES = [
    Line(1, 1, "たろう", 1712, 60, False, 14, 10, 3, 1, 2, 35.0),
    Line(2, 2, "Müller", 1650, 120, True, 3, 2, 1, 0, 1, -12.0),
    Line(3, 3, "ann", 1500, 60, False, 20, 8, 8, 4, 0, 0.0),
]
PAGE = Page(LadderKey(1, "short", 3), 1, 2, LINES)


def rendered(code: str) -> bytes:
    with speaking(code):
        return PAGE.drawing()()


@pytest.mark.parametrize("code", LOCALES)
def test_the_leaderboard_in_each_language_matches_its_golden(code) -> None:
    stored = GOLDEN / f"ladder-{code}.png"
    if os.environ.get("TORA_REFRESH_GOLDENS"):
        stored.write_bytes(rendered(code))
    difference = goldens.compare(stored.read_bytes(), rendered(code))
    assert difference.same_size, f"{stored.name} changed size"
    assert difference.ok, f"{stored.name}: {difference.differing:.2%} of pixels differ"


@pytest.mark.parametrize("code", [code for code in LOCALES if code != "en"])
def test_each_language_draws_its_own_words(code) -> None:
    assert not goldens.compare(rendered("en"), rendered(code)).ok
