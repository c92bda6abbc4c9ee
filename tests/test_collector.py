"""The bot's processes space out the garbage collector's passes (bot/collector.py): the bot
once started up, and every worker from its first step."""

from __future__ import annotations

import asyncio
import gc
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor

from bot import collector
from bot.lifeline import start_worker


def test_tuning_sets_aside_what_exists_and_spaces_out_collections() -> None:
    before = gc.get_threshold()
    try:
        collector.tune()
        assert gc.get_threshold() == (collector.YOUNG, collector.MIDDLE, collector.OLD)
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


async def test_a_worker_collects_as_the_bot_does() -> None:
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(
        1, mp_context=context, initializer=start_worker, initargs=(os.getpid(),)
    ) as pool:
        found = await asyncio.get_running_loop().run_in_executor(pool, gc.get_threshold)
    assert found == (collector.YOUNG, collector.MIDDLE, collector.OLD)
