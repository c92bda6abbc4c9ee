"""Long-board turn ends run in a worker process (issue 6): the match adopts the game and log
entry played there, exactly as if the turn had ended here, and refusals come back intact.
The AI players' searches run in a pool of their own (issue 17)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.service.offload import Offload
from rules.tora import Game, IllegalAction, Options, Side
from storage import Config, Store
from storage.log import fingerprint

LONG = Options(board="long", assassins=True)


async def test_a_long_board_turn_end_in_a_worker_process(tmp_path: Path) -> None:
    offload = Offload(processes=1)
    try:
        async with await Store.open(Config(path=tmp_path / "t.sqlite3")) as store:
            for user_id, name in ((1, "ann"), (2, "bob")):
                await store.save_player(user_id, name)
            match = await store.create_match(1, 1, 2, LONG, assassin_starts=("v3h17", None))
            twin = await store.load(match.id)
            for played in (match, twin):
                played.act("X v3h17-v4h16")
            turn = await offload.end_turn(match)
            twin.end_turn()
            assert turn.texts == ["X v3h17-v4h16"]
            assert fingerprint(match.game) == fingerprint(twin.game)
            assert match.pending == twin.pending
            await store.save(match)
            assert fingerprint((await store.load(match.id)).game) == fingerprint(twin.game)
            match.resign(Side.OPPOSITION)
            with pytest.raises(IllegalAction, match=r"the game is over") as refused:
                await offload.end_turn(match, deadline=True)
            assert refused.value.rule == "R24"
    finally:
        offload.close()


async def test_an_ai_turn_is_searched_in_a_worker_process() -> None:
    offload = Offload(processes=0, ai_processes=1)
    try:
        game = Game(LONG, assassin_starts=("v3h17", "v5h1"))
        mine = game.for_player(Side.CHALLENGER)  # what leaves the bot's process
        texts = await offload.ai_turn(mine, "easy", 0.5, seed=7)
        assert offload._pools["ai"]._processes  # a process of its own did the search
        for text in texts:
            game.apply(text)
        game.end_turn()  # legal in the real game, which the worker never saw
        assert texts
    finally:
        offload.close()


CHILD = """
import asyncio, sys, time
from bot.service.offload import Offload
from rules.tora import Game, Options
from storage.match import Match

async def main():
    offload = Offload(processes=1)
    game = Game(Options(board="long"))
    await offload.end_turn(Match(1, 1, 1, 1, 2, game, 1))
    print(" ".join(str(pid) for pid in offload._pools["rules"]._processes), flush=True)
    time.sleep(60)

asyncio.run(main())
"""


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(")")[-1].split()[0] != "Z"  # a zombie is dead
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not Path("/proc").exists(), reason="reads /proc to find the workers")
def test_workers_do_not_outlive_a_bot_killed_with_sigkill() -> None:
    """Regression: 98 orphaned workers (2 GiB) after two crash runs."""
    child = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        workers = [int(pid) for pid in child.stdout.readline().split()]
        assert workers and all(_alive(pid) for pid in workers)
    finally:
        child.kill()  # SIGKILL: the bot gets no chance to stop its workers
        child.wait()
    until = time.monotonic() + 10
    while any(_alive(pid) for pid in workers) and time.monotonic() < until:
        time.sleep(0.05)
    assert not any(_alive(pid) for pid in workers)
