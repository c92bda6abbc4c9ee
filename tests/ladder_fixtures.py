"""Shared helpers of the ladder tests: a store on a real SQLite file, a manual clock, and
finished (or aborted) matches between saved players."""

from __future__ import annotations

from pathlib import Path

from rules import Options, Side
from storage import Config, Store

GUILD = 10
DAY = 86400.0
START = 1_800_000_000.0


class ManualClock:
    def __init__(self, now: float = START) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


async def open_store(tmp_path: Path) -> Store:
    store = await Store.open(Config(path=tmp_path / "ladder.sqlite3"))
    for user_id, name in ((1, "ann"), (2, "bob"), (3, "cid"), (4, "dee"), (5, "eve")):
        await store.save_player(user_id, name)
    return store


async def finished(
    store: Store, first: int, second: int, winner: str | None, board: str = "short"
) -> int:
    """A match between ``first`` (Challenger) and ``second`` that ``winner`` ('C', 'O' or
    None for an agreed draw) won; returns its id."""
    match = await store.create_match(GUILD, first, second, Options(board=board))
    if winner is None:
        match.agree_draw()
    else:
        match.resign(Side.OPPOSITION if winner == "C" else Side.CHALLENGER)
    await store.save(match)
    return match.id
