"""The rules' warnings of a picked piece's actions (``GameState.warnings``; TORA's R30: a
command piece the turn could not end with where the action leaves it), worked out once per
state of a match and kept in its memo (``Table.memo``).

One piece's warnings cost a search per action: up to a few hundred milliseconds on TORA's
long board with Assassins. A request that needs some not known yet (``ahead``, under the
match's lock) sets them to be worked out on the game as it is then (``Offload.warnings``
takes it at once), lets go of the lock while they are, and takes it again to answer, by when
they are kept: an action played meanwhile waits for none of it. Requests for the same
actions meanwhile wait for that one working out; a request given up leaves it running, and
the next finds what it kept. A failure reaches each request waiting for it, and the next
request works them out again.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Iterable, Sequence
from dataclasses import replace
from functools import partial
from typing import Any

from rules import GameState
from rules.protocol import Choice

from .offload import Offload

UNDER_WAY = "warnings under way"  # the memo's notations being worked out, each's future

Working = asyncio.Future[tuple[str, ...]]


def _kept(text: str) -> str:
    return f"warn:{text}"


def ahead(
    offload: Offload, memo: dict[str, Any], game: GameState, notations: Iterable[str]
) -> Awaitable[None] | None:
    """Under the match's lock, for the state whose memo is ``memo`` and whose actions are
    chosen on ``game``: the warnings of ``notations`` neither kept nor under way set to be
    worked out, and what waits for all of them (awaited with the lock let go, or held: it
    is the same); None when they are all kept."""
    wanted = list(notations)
    under_way: dict[str, Working] = memo.setdefault(UNDER_WAY, {})
    missing = [text for text in wanted if _kept(text) not in memo and text not in under_way]
    if missing:
        working = asyncio.ensure_future(offload.warnings(game, missing))
        under_way.update(dict.fromkeys(missing, working))
        working.add_done_callback(partial(_done, memo, missing))
    waits = {under_way[text] for text in wanted if text in under_way}
    return _all(waits) if waits else None


def _done(memo: dict[str, Any], texts: Sequence[str], working: Working) -> None:
    """Keep what ``working`` found for ``texts``; on a failure keep nothing (each request
    waiting raises it; the next one works them out again)."""
    under_way: dict[str, Working] = memo[UNDER_WAY]
    for text in texts:
        if under_way.get(text) is working:
            del under_way[text]
    if working.cancelled() or working.exception() is not None:
        return
    memo.update({_kept(text): found for text, found in zip(texts, working.result(), strict=True)})


async def _all(waits: set[Working]) -> None:
    for working in waits:
        await asyncio.shield(working)  # a request given up: not the others' working out


def known(memo: dict[str, Any], choices: Sequence[Choice]) -> tuple[Choice, ...]:
    """``choices`` with the warnings ``memo`` keeps ("" where none is kept)."""
    return tuple(replace(c, warning=memo.get(_kept(c.notation), "")) for c in choices)
