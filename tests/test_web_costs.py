"""What the web board spares itself on a click: the match service stages an action (and
takes it back) without drawing the preview picture only the Discord reply shows, the same
staged turn as with it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from web_world import ANN, HERE, World

from rules import Side


@pytest.fixture
async def w(tmp_path: Path) -> AsyncIterator[World]:
    async with World(tmp_path / "costs.sqlite3") as world:
        yield world


async def test_a_staged_action_without_a_preview_has_no_picture_and_the_same_turn(
    w: World,
) -> None:
    match = await w.playing()
    action = await w.first_action(match, Side.CHALLENGER)
    drawn = await w.service.play(HERE, ANN, action)
    assert drawn.files
    undone = await w.service.undo(HERE, ANN, preview=False)
    assert not undone.files and undone.text.startswith("Taken back")
    bare = await w.service.play(HERE, ANN, action, preview=False)
    assert not bare.files and bare.text == drawn.text
    assert (await w.me(match, Side.CHALLENGER))["staged"] == [action]
