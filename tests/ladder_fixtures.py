"""Shared helpers of the ladder tests: a store on a real SQLite file, a manual clock,
finished (or aborted) matches between saved players, and the ladder desk and runner on a
match service harness."""

from __future__ import annotations

from random import Random

from bot.ladder.desk import LadderDesk
from bot.ladder.runner import LadderRunner
from bot.service import Place, User
from bot.service.testing import Harness
from rules.tora import Game, Options, Side
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


async def open_store(db: Config) -> Store:
    store = await Store.open(db)
    for user_id, name in ((1, "ann"), (2, "bob"), (3, "cid"), (4, "dee"), (5, "eve")):
        await store.save_player(user_id, name)
    return store


async def finished(
    store: Store, first: int, second: int, winner: str | None, board: str = "short"
) -> int:
    """A match between ``first`` (Challenger) and ``second`` that ``winner`` ('C', 'O' or
    None for an agreed draw) won; returns its id."""
    match = await store.create_match(GUILD, first, second, Game(Options(board=board)))
    if winner is None:
        match.agree_draw()
    else:
        match.resign(Side.OPPOSITION if winner == "C" else Side.CHALLENGER)
    await store.save(match)
    return match.id


def desk_of(h: Harness, seed: int = 0) -> LadderDesk:
    """The ladder desk of a service harness, on its clock, threads and settings."""
    assert h.service is not None and h.store is not None
    return LadderDesk(
        h.service, h.store, h.threads, clock=h.clock, settings=h.settings, rng=Random(seed)
    )


def runner_of(h: Harness, seed: int = 0) -> LadderRunner:
    assert h.service is not None and h.store is not None
    return LadderRunner(
        h.service, h.store, h.threads, clock=h.clock, settings=h.settings, rng=Random(seed)
    )


async def play_out(h: Harness, thread_id: int, loser: User) -> None:
    """Both players of the match in ``thread_id`` choose a setup and ``loser`` resigns."""
    assert h.service is not None and h.store is not None
    hosted = await h.store.hosting.live_in_channel(thread_id)
    assert hosted is not None and hosted.challenger_id and hosted.opposition_id
    place = Place(hosted.guild_id, thread_id)
    names = await h.store.ladders.names((hosted.challenger_id, hosted.opposition_id))
    for user_id in (hosted.challenger_id, hosted.opposition_id):
        await h.service.setup(place, User(user_id, names[user_id]), {"strategy": "aggressive"})
    await h.service.resign(place, loser)
    await h.settle()
