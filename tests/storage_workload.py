"""Random play through ``storage.Match``: the storage tests' workload, and, run as a script,
the crash test's writer.

    PYTHONPATH=. python tests/storage_workload.py DB SEED

plays random short-board matches as fast as it can, with several tasks saving concurrently,
and prints ``<match id> <entry number>`` for every log entry once its save has returned
(i.e. once it is acknowledged as durable), until it is killed.
"""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path

from rules.tora import Game, IllegalAction, Options
from storage import Config, Match, Store

GUILD = 1
PLAYERS = ((1, "ann"), (2, "bob"))


def random_step(match: Match, rng: random.Random) -> None:
    """One random step of the side to act: mostly an action or a turn end, sometimes an undo,
    a take back, a deadline or (rarely) a resignation or an agreed draw."""
    game = match.game
    staged = len(game.staged())
    roll = rng.random()
    if roll < 0.004:
        match.resign(rng.choice([game.side, game.side.other]))
    elif roll < 0.006:
        match.agree_draw()
    elif staged and roll < 0.08:
        match.undo()
    elif staged >= 2 and roll < 0.12:
        _or_undo(match, lambda: match.take_back(rng.randrange(staged)))
    elif game.actions_left and roll < 0.85:
        match.act(game.notation(rng.choice(game.legal_actions())))
    elif roll < 0.9:
        match.end_turn_by_deadline()
    else:
        _or_undo(match, match.end_turn)


def _or_undo(match: Match, step) -> None:
    """Try ``step``; if the rules refuse it (R10, R30), undo instead (or end the turn)."""
    try:
        step()
    except IllegalAction:
        if match.game.staged():
            match.undo()
        else:
            match.end_turn()


async def new_match(store: Store) -> Match:
    for user_id, name in PLAYERS:
        await store.save_player(user_id, name)
    return await store.create_match(
        GUILD, PLAYERS[0][0], PLAYERS[1][0], Game(Options(board="short"))
    )


async def play_and_save(
    store: Store, match: Match, rng: random.Random, steps: int, announce: bool = False
) -> Match:
    """Play ``steps`` random steps, saving after each (printing the saved entries' ids with
    ``announce``); a finished match is replaced by a new one. Returns the last match."""
    for _ in range(steps):
        if match.game.is_over():
            match = await new_match(store)
        random_step(match, rng)
        for seq in await store.save(match):
            if announce:
                print(match.id, seq, flush=True)
    return match


async def _writer(path: Path, seed: int, tasks: int = 3) -> None:
    async with await Store.open(Config(path=path, snapshot_every=8)) as store:
        loaded = [await store.load(info.id) for info in await store.active_matches(GUILD)]
        while len(loaded) < tasks:
            loaded.append(await new_match(store))
        await asyncio.gather(
            *(
                play_and_save(store, match, random.Random(seed * 100 + n), 10**9, announce=True)
                for n, match in enumerate(loaded[:tasks])
            )
        )


if __name__ == "__main__":
    asyncio.run(_writer(Path(sys.argv[1]), int(sys.argv[2])))
