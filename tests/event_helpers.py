"""Helpers of the Swiss and round robin event tests: a desk on a service harness, and games
played out by resignation (the winner chosen by the test)."""

from __future__ import annotations

import json
from collections.abc import Callable

from bot.service import Place, User
from bot.service.testing import Harness
from bot.tournament.event_desk import EventDesk
from bot.tournament.event_spec import EventSpec
from rules import game_type
from storage import Hosted
from storage.competitions.events import EventSnapshot, PairingRow

GUILD = 77
HERE = Place(GUILD, 100)
ADMIN = User(9999, "admin")


def user(n: int) -> User:
    return User(n, f"p{n}")


async def desk_of(h: Harness) -> EventDesk:
    assert h.service is not None and h.store is not None
    desk = EventDesk(h.store, h.service, h.threads, clock=h.clock, settings=h.settings)
    await desk.start_listening()
    return desk


async def create(desk: EventDesk, name: str, game: str, fmt: str, **kw: object) -> None:
    await desk.create(HERE, ADMIN, EventSpec(name, game, fmt, {}, **kw), admin=True)  # type: ignore[arg-type]


async def snapshot(h: Harness, name: str) -> EventSnapshot:
    assert h.store is not None
    event = await h.store.events.named(GUILD, name)
    assert event is not None
    return await h.store.events.snapshot(event.id)


Chooser = Callable[[PairingRow], int | None]  # the loser's id (None: a draw)


def higher_seed_wins(row: PairingRow) -> int | None:
    """The lower id wins (ids are seeds in these tests)."""
    assert row.second_id is not None
    return max(row.first_id, row.second_id)


async def finish_setup(h: Harness, hosted: Hosted, players: tuple[User, User]) -> None:
    """Both players answer the game's setup questions with their first option (``none``
    where the answer is free text)."""
    assert h.service is not None
    terms = json.loads(hosted.terms)
    kind = game_type(terms.get("game", "tora"))
    questions = kind.setup_questions(kind.check_options(terms.get("options", {})))
    answers = {q.name: q.options[0] if q.options else "none" for q in questions}
    for player in players:
        await h.service.setup(Place(GUILD, hosted.channel_id), player, answers)


async def play_open_games(h: Harness, name: str, loser_of: Chooser = higher_seed_wins) -> int:
    """Every board of the event with a live game: the chosen loser resigns (a draw is
    agreed by both). Returns how many games were played."""
    assert h.service is not None and h.store is not None
    played = 0
    for row in (await snapshot(h, name)).pairings:
        if row.outcome is not None or row.hosted_id is None:
            continue
        hosted = await h.store.hosting.get(row.hosted_id)
        if not hosted.live:
            continue
        place = Place(GUILD, hosted.channel_id)
        if hosted.phase == "setup":
            await finish_setup(h, hosted, (user(row.first_id), user(row.second_id or 0)))
        loser = loser_of(row)
        if loser is None:
            await h.service.abort(place, user(row.first_id))  # no result: played again
        else:
            await h.service.resign(place, user(loser))
        played += 1
    await h.settle()
    return played
