"""A picked piece's warnings (R30: a search for each of its actions, up to a few hundred
milliseconds on TORA's long board with Assassins) are worked out outside the match's lock,
on the game as it was when they were asked for: an action played meanwhile does not wait
for them, and two requests for the same piece share one working out (issue 26)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.service import MatchService
from bot.service.testing import Harness
from rules import GameState, Side
from tests.service_helpers import ANN, HERE, started

Ask = Callable[[MatchService, str], Awaitable[object]]


async def _on_the_panel(service: MatchService, group: str) -> object:
    return await service.menu(HERE, ANN, group)


async def _on_the_page(service: MatchService, group: str) -> object:
    hosted = service._tables[HERE.channel_id].hosted
    side = Side.CHALLENGER if hosted.challenger_id == ANN.id else Side.OPPOSITION
    return await service.warnings(hosted.id, side, group)


class HeldWarnings:
    """The service's ``offload.warnings``, each working out held until ``go_on`` is set
    (``asked`` says one is held); ``calls``: the notations of each."""

    def __init__(self, service: MatchService) -> None:
        self.asked, self.go_on = asyncio.Event(), asyncio.Event()
        self.calls: list[tuple[str, ...]] = []
        offload = service._ctx.offload
        self._original = offload.warnings
        offload.warnings = self._held  # type: ignore[method-assign]

    def _held(self, game: GameState, notations: Sequence[str]) -> Awaitable[tuple[str, ...]]:
        self.calls.append(tuple(notations))
        work = self._original(game, notations)  # the game as it is now

        async def later() -> tuple[str, ...]:
            self.asked.set()
            await self.go_on.wait()
            return await work

        return later()


async def _a_group(service: MatchService) -> str:
    return (await service.menu(HERE, ANN)).groups[0].key


@dataclass
class Picked:
    """A started match whose player picked ``group`` (``asking``), its warnings held."""

    service: MatchService
    held: HeldWarnings
    asking: asyncio.Future[object]
    group: str


@contextlib.asynccontextmanager
async def picked(tmp_path: Path, ask: Ask = _on_the_page) -> AsyncIterator[Picked]:
    async with Harness(tmp_path / "t.sqlite3") as h:
        service = h.running
        await started(service)
        group = await _a_group(service)
        held = HeldWarnings(service)
        asking = asyncio.ensure_future(ask(service, group))
        await asyncio.wait_for(held.asked.wait(), 10)
        yield Picked(service, held, asking, group)


@pytest.mark.parametrize("ask", [_on_the_panel, _on_the_page], ids=["panel", "page"])
async def test_an_action_played_while_a_pieces_warnings_are_worked_out_does_not_wait(
    tmp_path: Path, ask: Ask
) -> None:
    """The player picks a piece (the Play panel's menu of it, or the web board's warnings
    of it), then plays before its warnings are known: the action is staged at once, and
    the piece's answer comes once they are, for the match as it is by then."""
    async with picked(tmp_path, ask) as pick:
        reply = await asyncio.wait_for(pick.service.play(HERE, ANN, "G v5h9-v4h9"), 10)
        assert "G v5h9-v4h9" in reply.text
        assert not pick.asking.done()
        pick.held.go_on.set()
        answer = await asyncio.wait_for(pick.asking, 10)
        if ask is _on_the_panel:
            assert answer.staged == ("G v5h9-v4h9",)  # type: ignore[attr-defined]


async def test_two_requests_for_one_pieces_warnings_share_one_working_out(
    tmp_path: Path,
) -> None:
    """The page asks again (a second tab, a click twice) while the first working out runs:
    both wait for it, and the rules work once; later requests read what it kept."""
    async with picked(tmp_path) as pick:
        second = asyncio.ensure_future(_on_the_page(pick.service, pick.group))
        await asyncio.sleep(0.05)
        assert not second.done()
        pick.held.go_on.set()
        answers = await asyncio.wait_for(asyncio.gather(pick.asking, second), 10)
        assert answers[0] == answers[1]
        assert len(pick.held.calls) == 1
        await _on_the_panel(pick.service, pick.group)
        assert len(pick.held.calls) == 1


async def test_a_request_given_up_leaves_the_working_out_to_the_next(tmp_path: Path) -> None:
    """A page closed while its piece's warnings are worked out (its request cancelled)
    does not stop them: the next request for them reads what they found."""
    async with picked(tmp_path) as pick:
        pick.asking.cancel()
        pick.held.go_on.set()
        found = await asyncio.wait_for(_on_the_page(pick.service, pick.group), 10)
        assert isinstance(found, dict)
        assert len(pick.held.calls) == 1


async def test_warnings_of_a_piece_the_player_has_not_are_none_and_keep_nothing(
    tmp_path: Path,
) -> None:
    """The page's ``group`` is whatever its caller sends: one naming no piece of theirs
    answers no warnings, and nothing is worked out or kept for it (each such name was kept
    with the state's actions, as many as a caller cared to send)."""
    async with Harness(tmp_path / "t.sqlite3") as h:
        service = h.running
        await started(service)
        held = HeldWarnings(service)
        held.go_on.set()
        names = [f"Gv{n}h1" for n in range(1, 40)]
        assert [await _on_the_page(service, name) for name in names] == [{}] * len(names)
        memo = service._tables[HERE.channel_id].memo()
        assert not [key for key in memo if key.startswith("choices:G")]
        assert held.calls == []
