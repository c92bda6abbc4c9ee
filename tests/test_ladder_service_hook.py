"""The match service puts a rated match on the ladder when it finishes; casual, aborted and
cancelled matches stay off it."""

from __future__ import annotations

from bot.service import Place, Terms, User
from bot.service.testing import Harness
from storage.ladders import LadderKey

HERE = Place(guild_id=1, channel_id=100)
ANN, BOB = User(1, "ann"), User(2, "bob")
SHORT1 = LadderKey(1, "short", 1)


async def start(h: Harness, terms: Terms | None = None) -> None:
    await h.service.challenge(HERE, ANN, BOB, terms)
    await h.service.accept(HERE, BOB)
    await h.service.setup(HERE, ANN, strategy="aggressive")
    await h.service.setup(HERE, BOB, strategy="defensive")


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
