"""Review rP: admin commands and server settings (failing tests, one bug each)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.app import Caller
from bot.app.actions import Actions
from bot.app.lookups import Lookups
from bot.ladder.desk import LadderDesk
from bot.service import Place, Refused, Terms, User, load_guild
from bot.service.testing import Harness, RecordingThreads
from harness.stage import Stage
from storage import CorruptMatch

HERE = Place(guild_id=1, channel_id=100)
ANN, BOB, MOD = User(1, "ann"), User(2, "bob"), User(9, "mod")


async def test_an_admin_can_call_off_a_match_whose_stored_data_is_damaged(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A match whose stored rows no longer load (CorruptMatch) answers every command in its
    channel "The match in this channel cannot be loaded: its stored data is damaged. Nothing
    was done; please tell a server admin." The admin told runs ``/tora-admin cancel`` and
    gets that same refusal: the channel stays taken by the match for ever (a channel hosts
    one match at a time), so nobody can play there again. The admin's cancel should call
    such a match off (unrated, as any cancel), freeing the channel."""
    await h.service.challenge(HERE, ANN, BOB, Terms(rated=False))
    await h.service.accept(HERE, BOB)
    await h.service.setup(HERE, ANN, {"strategy": "aggressive"})
    await h.service.setup(HERE, BOB, {"strategy": "defensive"})
    await h.settle()
    hosted = await h.store.hosting.live_in_channel(HERE.channel_id)
    assert hosted is not None and hosted.match_id is not None
    damaged = hosted.match_id
    loading = h.store.load

    async def load(match_id: int, *args: Any, **kw: Any) -> Any:
        if match_id == damaged:
            raise CorruptMatch(match_id, "log entry 3 (act 'A v5h5-v1h1') is refused")
        return await loading(match_id, *args, **kw)

    monkeypatch.setattr(h.store, "load", load)
    h.service._tables.clear()  # as after a restart: the match is read from the store
    with pytest.raises(Refused, match="please tell a server admin"):
        await h.service.end_turn(HERE, ANN)
    await h.service.cancel(HERE, MOD, admin=True)  # raises: "... please tell a server admin"
    assert await h.store.hosting.live_in_channel(HERE.channel_id) is None
