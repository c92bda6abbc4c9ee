"""Long-board turn ends run in a worker process (issue 6): the match adopts the game and log
entry played there, exactly as if the turn had ended here, and refusals come back intact."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.service.offload import Offload
from rules import IllegalAction, Options, Side
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
