"""The ladder rates a rated match when the match service says it finished (it listens to
the service's endings); casual, aborted and cancelled matches stay off it; a crash between a
match's end and its rating leaves it to the catch-up on the next start, which rates it once."""

from __future__ import annotations

import pytest
from ladder_fixtures import runner_of

from bot.ladder.rating import listen
from bot.service import Clock, MatchService, Place, Terms, User
from bot.service.testing import Harness
from storage import Config, Hosted, Store
from storage.competitions.ladders import LadderKey

HERE = Place(guild_id=1, channel_id=100)
ANN, BOB = User(1, "ann"), User(2, "bob")
SHORT1 = LadderKey(1, "short", 1)


async def start(h: Harness, terms: Terms | None = None) -> None:
    await h.service.challenge(HERE, ANN, BOB, terms)
    await h.service.accept(HERE, BOB)
    await h.service.setup(HERE, ANN, {"strategy": "aggressive"})
    await h.service.setup(HERE, BOB, {"strategy": "defensive"})


async def test_a_finished_rated_match_is_rated_once(h: Harness) -> None:
    await start(h)
    await h.service.resign(HERE, BOB)
    results = await h.store.ladders.results(SHORT1)
    assert [(r.first_id, r.second_id, r.score) for r in results] == [(1, 2, 1.0)]
    standings = await h.store.ladders.standings(SHORT1)
    assert [(s.player_id, s.wins, s.losses) for s in standings] == [(1, 1, 0), (2, 0, 1)]


async def test_casual_and_aborted_matches_are_not_rated(h: Harness) -> None:
    await start(h, Terms(rated=False))
    await h.service.resign(HERE, ANN)
    await start(h)
    await h.service.abort(HERE, ANN)
    assert await h.store.ladders.seasons(1, "short") == []


class Died(BaseException):
    """The process dies here (no handler of the service's catches it)."""


async def die(hosted: Hosted) -> None:
    raise Died


def dying(service: MatchService, store: Store, clock: Clock) -> None:
    """Heard before the ladder: the process dies once a match's end is saved, before the
    ladder rates it."""
    service.on_ended(die)


async def test_a_match_whose_end_was_saved_but_not_rated_is_rated_once_after_a_crash(
    db: Config,
) -> None:
    h = Harness(db, wiring=[dying, listen])
    await h.open()
    try:
        await start(h)
        with pytest.raises(Died):
            await h.service.resign(HERE, BOB)
        assert await h.store.ladders.results(SHORT1) == []  # ended, unrated
        h.wiring = [listen]
        await h.crash()
        runner = runner_of(h)
        rated = await runner.start()  # before the service, as the bot starts them
        await runner.stop()
        assert [(r.key, r.challenger.wins, r.opposition.losses) for r in rated] == [(SHORT1, 1, 1)]
        assert (await runner.tick()).rated == []  # and never again
        results = await h.store.ladders.results(SHORT1)
        assert [(r.first_id, r.second_id, r.score) for r in results] == [(1, 2, 1.0)]
    finally:
        await h.close()
