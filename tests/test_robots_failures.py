"""An AI player's work when something fails: the database away for a moment does not make
it leave its match, nor play a random turn (that is for a turn of the engine's the rules
refused, or a search that failed); two AI players in a game going nowhere agree a draw
(docs/AI.md)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

import ai
from bot.service import robots
from bot.service.errors import Refused
from bot.service.fairness import Owner
from bot.service.models import AI_IDS
from bot.service.offload import Offload, WorkerFailed
from bot.service.phases import PLAYING
from bot.service.play import EngineRefused
from bot.service.table import DRAW
from rules import GameState, Side, game_type

OWNER = Owner(1, 2)
QUICK = 0.001  # the first wait after a failure, in these tests


def _game() -> GameState:
    setup = {"strategy": "aggressive", "ruler": "K"}
    return game_type("tora").new_game({"board": "short"}, (setup, dict(setup)))


def _turn_job(game: GameState) -> robots.Job:
    job = robots.Job(robots.TURN, game.side, "hard", None, OWNER)  # type: ignore[arg-type]
    return robots.replace(job, game=game.for_player(game.side))


class Scripted:
    """A match whose AI has one turn to play: ``peek`` fails ``unread`` times first, and
    ``run`` (the turn's save) raises each of ``saving`` in turn; ``levels``: the strength
    each search was made at."""

    def __init__(self, unread: int = 0, saving: tuple[Exception, ...] = ()) -> None:
        self.unread, self.saving = unread, list(saving)
        self.game = _game()
        self.levels: list[str] = []
        self.saved = 0

    async def peek(self, channel: int) -> robots.Job | None:
        if self.unread:
            self.unread -= 1
            raise ConnectionError("the database went away (simulated)")
        return None if self.saved else _turn_job(self.game)

    async def run(self, channel: int, stamp: Any, flow: Any) -> None:
        if self.saving:
            raise self.saving.pop(0)
        self.saved += 1

    async def search(self, game: GameState, level: str, owner: Owner) -> list[str]:
        self.levels.append(level)
        return []

    def robots(self) -> robots.Robots:
        ai_players = robots.Robots(None, self.peek, self.run, first_wait=QUICK)  # type: ignore[arg-type]
        ai_players.search = self.search  # type: ignore[method-assign]
        return ai_players


async def test_a_database_away_for_a_moment_does_not_make_the_ai_leave_its_match() -> None:
    """Regression: three failed reads in a row, back to back, and the AI's task ended for
    good; without a shared database nothing looked at the match again until it changed,
    and the AI's missed turns counted towards a forfeit. It now waits longer after each
    failure and goes on."""
    script = Scripted(unread=robots.GIVE_UP_AFTER + 3)
    await asyncio.wait_for(script.robots()._work(7), 10)
    assert script.saved == 1 and script.levels == ["hard"]


async def test_a_turn_whose_save_failed_is_searched_again_at_the_ai_s_strength() -> None:
    """Regression: any failure made the next try play a random turn; only a turn of the
    engine's the rules refused, or a search that failed, is a reason for that."""
    script = Scripted(saving=(ConnectionError("the database went away while saving"),))
    await asyncio.wait_for(script.robots()._work(7), 10)
    assert script.saved == 1 and script.levels == ["hard", "hard"]


async def test_a_turn_the_rules_refused_is_followed_by_a_random_legal_one() -> None:
    refused = EngineRefused("AI (hard) chose 'A v1h1-v1h2': no such piece")
    failed = WorkerFailed("Traceback: the search raised")
    for failure in (refused, failed):
        script = Scripted(saving=(failure,))
        await asyncio.wait_for(script.robots()._work(7), 10)
        assert script.saved == 1 and script.levels == ["hard", robots.FALLBACK]


async def test_an_ai_whose_engine_keeps_failing_leaves_the_match_to_its_clock() -> None:
    refused = EngineRefused("AI (hard) chose nothing the rules take")
    script = Scripted(saving=(refused,) * robots.GIVE_UP_AFTER)
    await asyncio.wait_for(script.robots()._work(7), 10)
    assert script.saved == 0 and len(script.levels) == robots.GIVE_UP_AFTER


def test_two_ai_players_in_a_game_going_nowhere_agree_a_draw() -> None:
    """docs/AI.md: "Two AI players in such a game draw at once". The Challenger's AI offers
    at the 20th quiet round; the Opposition's AI, level and going nowhere too, answers it
    (where it was asked nothing, and the offer lapsed with the turn)."""
    game = _game()
    for _ in range(40):
        game.end_turn()
    assert ai.offers_draw(game, Side.CHALLENGER)
    game.end_turn()  # the Challenger's AI offered, then played its turn
    ids = {Side.CHALLENGER: AI_IDS["hard"], Side.OPPOSITION: AI_IDS["normal"]}
    hosted = SimpleNamespace(
        challenger_id=ids[Side.CHALLENGER],
        opposition_id=ids[Side.OPPOSITION],
        player=ids.get,
        phase=PLAYING,
        ready="CO",
        guild_id=1,
        channel_id=5,
    )
    table = SimpleNamespace(
        hosted=hosted,
        match=object(),
        game=game,
        offers=lambda: {DRAW: Side.CHALLENGER},
        paused=False,
        stamp=None,
        channel_id=5,
    )
    job = robots.job_of(table)  # type: ignore[arg-type]
    assert job is not None and job.kind == robots.ANSWER and job.side == Side.OPPOSITION
    assert robots.agrees(table, job)  # type: ignore[arg-type]


async def test_a_search_that_overruns_its_time_by_far_is_given_up() -> None:
    """A search still running long past its time once it has a worker (an engine's bug:
    every one is bounded) no longer holds its match and its turn for a worker: it fails
    as a failed search does, and the next try plays a random legal turn. Its wait for a
    worker does not count."""
    offload = Offload(processes=0, ai_processes=0)
    offload.overrun = 0.05

    async def stuck(*args: Any) -> list[str]:
        await asyncio.sleep(3600)
        return []

    offload._searched = stuck  # type: ignore[method-assign]
    async with offload.searches.turn(Owner(1, 3)):  # another player's search first
        waiting = asyncio.ensure_future(offload.ai_turn(_game(), "hard", 0.01, 1, OWNER))
        await asyncio.sleep(0.2)
        assert not waiting.done()
    with pytest.raises(WorkerFailed, match="overran"):
        await asyncio.wait_for(waiting, 5)


async def test_an_ai_whose_command_keeps_being_refused_leaves_the_match_to_its_clock() -> None:
    """A refusal of the AI's command is no failure of the database to wait out: it would be
    refused again, so it counts as the engine's failures do (else the AI would try again
    every minute for ever)."""
    refused = Refused("That is not allowed now.")
    script = Scripted(saving=(refused,) * (robots.GIVE_UP_AFTER + 1))
    await asyncio.wait_for(script.robots()._work(7), 10)
    assert script.saved == 0 and len(script.levels) == robots.GIVE_UP_AFTER
