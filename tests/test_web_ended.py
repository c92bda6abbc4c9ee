"""An ended match's page is read from memory: its public look is kept once read (an ended
match never changes), the players' own looks are still refused, and only the most recently
read ended matches are kept."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from web_world import ANN, HERE, World

from bot.service import NotAllowed
from bot.service.looking import Look, Recent
from rules import Side
from storage import Match


async def test_an_ended_matchs_page_is_loaded_from_the_store_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with World(tmp_path / "ended.sqlite3") as w:
        match = await w.playing()
        await w.service.resign(HERE, ANN)
        store = w.h.store
        assert store is not None
        loads: list[int] = []
        load = store.load

        async def counted(match_id: int) -> Match:
            loads.append(match_id)
            return await load(match_id)

        monkeypatch.setattr(store, "load", counted)
        looks = [await w.service.look(match) for _ in range(3)]
        assert len(loads) == 1
        assert looks[0] == looks[2] and looks[0].outcome is not None
        pages = [(await w.get(f"/api/m/{match}"))[1] for _ in range(2)]
        assert pages[0] == pages[1] and pages[0]["result"] == "bob wins (resignation)"
        for side in Side:
            with pytest.raises(NotAllowed, match="has ended"):
                await w.service.look(match, side)


async def test_only_the_most_recently_read_ended_matches_are_kept(tmp_path: Path) -> None:
    async with World(tmp_path / "kept.sqlite3") as w:
        match = await w.playing()
        await w.service.resign(HERE, ANN)
        look = await w.service.look(match)
    kept: Recent[Look] = Recent(most=2)
    older, newer = (replace(look, hosted=replace(look.hosted, id=n)) for n in (101, 102))
    kept.keep(101, older)
    kept.keep(102, newer)
    assert kept.get(101) is older  # read: now the most recent
    kept.keep(look.hosted.id, look)
    assert kept.get(101) is older and kept.get(102) is None and kept.get(look.hosted.id) is look
