"""Fixtures shared by the test modules (helpers to import live in ``positions.py``)."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import backends
import pytest
from hypothesis import HealthCheck, settings

from bot.ladder.rating import listen
from bot.service.testing import Harness
from storage import Config
from storage.hosting import saving

# The suite runs pure Python, and so do the bots and engines it starts as `python -m bot` or
# `ai`, which would otherwise take a compiled build (docs/RULES.md, "The compiled build"),
# unless a run asks for the build (tests/test_compiled_build.py does).
os.environ.setdefault("TORA_RULES", "pure")

# Speed is measured by the benchmarks, never asserted by a test: no example fails for taking
# long, whatever else the machine (or the other test processes) are doing.
settings.register_profile("tora", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("tora")


@pytest.fixture(params=backends.BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """Each storage backend in turn (PostgreSQL only where a server is reachable)."""
    if request.param == "postgres" and (reason := backends.postgres_missing()):
        pytest.skip(reason)
    return request.param


@pytest.fixture
async def db(backend: str, tmp_path: Path) -> AsyncIterator[Config]:
    """A fresh, empty database of each backend in turn."""
    config = backends.config(backend, tmp_path)
    yield config
    await backends.drop(config)


@pytest.fixture
async def h(db: Config):
    """A match service on a fresh database of each backend, with a recording delivery and a
    manual clock, and the ladder listening to its endings."""
    harness = Harness(db, wiring=[listen])
    await harness.open()
    yield harness
    await harness.close()


@pytest.fixture
def together_runs(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many saves each run of ``saving.together`` (PostgreSQL's grouped saves) was given
    (``Store`` names the kind at each save, so the saves of a test share this counting one)."""
    runs: list[int] = []
    together = saving.together

    def counting(conn: Any, saves: Sequence[saving.Save]) -> list[saving.Written | None]:
        runs.append(len(saves))
        return together(conn, saves)

    monkeypatch.setattr(saving, "together", counting)
    return runs
