"""Fixtures shared by the test modules (helpers to import live in ``positions.py``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.service.testing import Harness


@pytest.fixture
async def h(tmp_path: Path):
    """A match service on a fresh SQLite file, with a recording delivery and a manual clock."""
    harness = Harness(tmp_path / "tora.sqlite3")
    await harness.open()
    yield harness
    await harness.close()
