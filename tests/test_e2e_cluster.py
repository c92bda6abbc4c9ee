"""End to end, several bot processes on one PostgreSQL database: three ``python -m bot``
processes holding 4 shards (0 | 1,2 | 3) of one bot on one emulator, 50 matches under way
in guilds on every shard. A DM command (shard 0) is served by another process than the
match's channel; crossing commands on one match from two processes: exactly one wins; an
interaction delivered to every process has one effect; a process killed with SIGKILL
mid-turn: its matches go on through the others, no acknowledged action lost, no post lost
or doubled; started again, it takes its shards back."""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path

import pytest
from backends import config as database
from backends import drop, postgres_missing

from harness.stage import Stage
from storage import Store

pytestmark = pytest.mark.postgres

SHARDS = [(0,), (1, 2), (3,)]  # the processes' shards, of 4
MATCHES = 50
FIRST, REPLY = "A v5h7-v5h6", "A v5h3-v5h4"  # the Challenger's first action, the Opposition's


@pytest.fixture
async def stage(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    if reason := postgres_missing():
        pytest.skip(reason)
    monkeypatch.setenv("TORA_AI_PROCESSES", "0")  # no AI here: no worker processes to start
    monkeypatch.setenv("TORA_CLAIM_SECONDS", "5")  # the others take a dead one's work soon
    db = database("postgres", tmp_path)
    names = tuple(f"p{n}" for n in range(2 * MATCHES))
    async with Stage(
        tmp_path, names, process=True, database=db, shards=SHARDS, shard_count=4
    ) as stage:
        yield stage
    await drop(db)


def players(n: int) -> tuple[str, str]:
    return f"p{2 * n}", f"p{2 * n + 1}"


async def open_matches(stage: Stage) -> list[int]:
    """A guild on each shard, then 50 matches in channels spread over them, all begun."""
    emu = stage.emu
    guilds = [emu.add_guild(f"club {k}", shard=(k, 4)) for k in range(4)]
    channels = [emu.add_channel(guilds[n % 4], f"match-{n}") for n in range(MATCHES)]
    await asyncio.sleep(0.5)  # the processes see their new guilds' channels
    sem = asyncio.Semaphore(5)

    async def begin(n: int) -> None:
        ann, bob = players(n)
        async with sem:
            await stage.slash(ann, "challenge", opponent=bob, channel=channels[n])
            await stage.click(bob, "Accept", channel=channels[n])
            await stage.slash(ann, "setup", strategy="aggressive", channel=channels[n])
            await stage.slash(bob, "setup", strategy="defensive", channel=channels[n])
            await stage.posted("The game begins", channel=channels[n], timeout=60)

    await asyncio.gather(*(begin(n) for n in range(MATCHES)))
    return channels


async def delivered_everything(stage: Stage, seconds: float = 30) -> None:
    """Until the shared outbox is empty: every process delivered what it had to."""
    async with await Store.open(stage.database) as store:
        for _ in range(int(seconds / 0.2)):
            if not await store.hosting.private_queue():
                return
            await asyncio.sleep(0.2)
    raise TimeoutError("the outbox was not emptied")


def shard_of(stage: Stage, channel: int) -> int:
    guild = stage.emu.world.channel(channel).guild_id
    return (guild >> 22) % 4


async def test_three_processes_share_fifty_matches(stage: Stage) -> None:
    channels = await open_matches(stage)
    emu = stage.emu
    on_3 = [n for n in range(MATCHES) if shard_of(stage, channels[n]) == 3]
    dm_match, crossing, twice, killed = on_3[:4]

    # DM commands (shard 0: process 0) play a match whose channel is process 2's (shard 3).
    ann, _bob = players(dm_match)
    ann_dm = emu.dm_channel(stage.user[ann])
    staged = await stage.slash(ann, "act", action=FIRST, channel=ann_dm)
    assert f"Staged: {FIRST}" in staged.text and staged.shards == [(0, 4)]
    ended = await stage.slash(ann, "end", channel=ann_dm)
    assert ended.shards == [(0, 4)] and "Your turn is over." in ended.text
    await stage.posted(f"`{FIRST}`", channel=channels[dm_match])

    # Crossing commands: the same player ends the same turn from a DM (process 0) and from
    # the match's channel (process 2) at once. Exactly one ends it.
    ann, _bob = players(crossing)
    await stage.slash(ann, "act", action=FIRST, channel=channels[crossing])
    both = await asyncio.gather(
        stage.slash(ann, "end", channel=emu.dm_channel(stage.user[ann])),
        stage.click(ann, "End turn", channel=channels[crossing]),
    )
    assert sorted("Your turn is over." in i.text for i in both) == [False, True], [
        i.text for i in both
    ]
    await stage.posted(f"`{FIRST}`", channel=channels[crossing])

    # One interaction delivered to every process: one effect, one answer.
    ann, _bob = players(twice)
    emu.duplicate_interactions = True
    try:
        once = await stage.slash(ann, "act", action=FIRST, channel=channels[twice])
    finally:
        emu.duplicate_interactions = False
    assert sorted(once.shards) == [(0, 4), (1, 4), (2, 4), (3, 4)]
    assert f"Staged: {FIRST}" in once.text
    board = await stage.slash(ann, "board", channel=channels[twice])
    assert board.text.count(FIRST) == 1, board.text  # staged once

    # SIGKILL mid-turn: process 2 (shard 3) dies as it ends a turn; the match goes on
    # through the others (a DM, on shard 0) with the acknowledged action kept.
    ann, bob = players(killed)
    acknowledged = await stage.slash(ann, "act", action=FIRST, channel=channels[killed])
    assert f"Staged: {FIRST}" in acknowledged.text
    pressing = asyncio.ensure_future(stage.click(ann, "End turn", channel=channels[killed]))
    await asyncio.sleep(0.05)
    await stage.kill(2)
    done, _ = await asyncio.wait({pressing}, timeout=3)
    pressing.cancel()
    pressed = pressing.result() if done and not pressing.exception() else None
    if pressed is None or "Your turn is over." not in pressed.text:
        # the staged action was kept: the turn ends now, or the killed process had ended it
        # (committed) before it died, its answer lost with it
        again = await stage.slash(ann, "end", channel=emu.dm_channel(stage.user[ann]))
        ended = ("Your turn is over.", f"It is {bob}'s turn.")
        assert any(text in again.text for text in ended), again.text
    await stage.posted(f"`{FIRST}`", channel=channels[killed], timeout=60)
    bob_dm = emu.dm_channel(stage.user[bob])
    played = await stage.slash(bob, "act", action=REPLY, channel=bob_dm)
    assert f"Staged: {REPLY}" in played.text
    await stage.slash(bob, "end", channel=bob_dm)
    await stage.posted(f"`{REPLY}`", channel=channels[killed], timeout=60)

    # Started again, process 2 holds shard 3 once more, and its channels answer.
    await stage.launch(2)
    back = await stage.slash(ann, "board", channel=channels[killed])
    assert back.shards == [(3, 4)] and back.error is None

    # Every channel: its match began once, and nothing was posted twice.
    await delivered_everything(stage)
    for n, channel in enumerate(channels):
        posts = Counter(m.text() for m in emu.public_messages(channel))
        assert posts and max(posts.values()) == 1, (n, posts.most_common(2))
        assert sum("The game begins" in text for text in posts) == 1
    assert await stage.stop_bot() == 0
