"""Shared builders for the tournament tests."""

from __future__ import annotations

from bot.service import Place, User
from bot.service.testing import Harness
from bot.tournament import Captures
from bot.tournament.desk import TournamentDesk
from bot.tournament.records import Colour, Outcome, RoundRecord


def short(points: int) -> Captures:
    """Short-board captures worth ``points`` (0-16) at the plain R27 values."""
    command = int(points >= 8)
    rest = points - 8 * command
    cannons = int(rest >= 3)
    minors = rest - 3 * cannons
    return Captures(
        archers=min(minors, 3), soldiers=max(minors - 3, 0), command=command, cannons=cannons
    )


def played(history: dict, first: int, second: int, outcome: Outcome) -> None:
    """Add a game to a Swiss or round robin ``history``: ``first`` moved first and had
    ``outcome``."""
    history.setdefault(first, []).append(RoundRecord(outcome, second, Colour.FIRST))
    history.setdefault(second, []).append(RoundRecord(outcome.opposite, first, Colour.SECOND))


HERE = Place(guild_id=1, channel_id=100)  # the tournaments' channel
ADMIN = User(99, "olga")


async def desk_for(h: Harness) -> TournamentDesk:
    """A tournament desk on the harness's service, started (so it has caught up)."""
    desk = TournamentDesk(h.store, h.service, h.threads, clock=h.clock, settings=h.settings)
    await desk.start(background=False)
    return desk


# ---- games played through the match service ------------------------------------------------
# With both sides aggressive and no terrain, the Challenger takes the whole short army (16
# points: General, Cannon, three Archers, two Soldiers) in six turns while the Opposition
# passes; the game ends by loss of command. MIRRORED is the same hunt by the Opposition.
MASSACRE = (
    "A v5h7-v3h5 ; A v3h5-v4h4 x v5h3",
    "C v5h8 fire W ; A v4h4-v5h3 x v6h2",
    "A v5h3 x v7h1 ; A v5h3-v3h2",
    "A v3h2 x v4h2",
    "A v3h2 x v3h1 ; A v3h2-v4h2",
    "A v3h9-v4h9 ; A v4h2 x v5h1",
)
MIRRORED = (
    "A v5h3-v7h5 ; A v7h5-v6h6 x v5h7",
    "C v5h2 fire E ; A v6h6-v5h7 x v4h8",
    "A v5h7 x v3h9 ; A v5h7-v7h8",
    "A v7h8 x v6h8",
    "A v7h8 x v7h9 ; A v7h8-v6h8",
    "A v7h1-v6h1 ; A v6h8 x v5h9",
)


async def players_here(h: Harness, thread: int) -> tuple[User, User]:
    """The Challenger and the Opposition of the game live in ``thread``."""
    hosted = await h.store.hosting.live_in_channel(thread)
    assert hosted is not None and hosted.challenger_id and hosted.opposition_id
    return User(hosted.challenger_id, "c"), User(hosted.opposition_id, "o")


async def set_up(h: Harness, place: Place) -> tuple[User, User]:
    challenger, opposition = await players_here(h, place.channel_id)
    await h.service.setup(place, challenger, {"strategy": "aggressive"})
    await h.service.setup(place, opposition, {"strategy": "aggressive"})
    return challenger, opposition


async def hunt(h: Harness, place: Place, by_challenger: bool = True) -> None:
    """Set the game up and play it out: one side takes all 16 points, the other passes."""
    challenger, opposition = await set_up(h, place)
    hunter, prey = (challenger, opposition) if by_challenger else (opposition, challenger)
    for line in MASSACRE if by_challenger else MIRRORED:
        if not by_challenger:
            await h.service.end_turn(place, prey)
        for action in line.split(" ; "):
            await h.service.play(place, hunter, action)
        await h.service.end_turn(place, hunter)
        if by_challenger:  # the round, and with the last line the game, ends with this turn
            await h.service.end_turn(place, prey)


async def resign_at_once(h: Harness, place: Place, challenger_resigns: bool = True) -> None:
    """Set the game up and have one side resign before anything is played (0 to 0)."""
    challenger, opposition = await set_up(h, place)
    await h.service.resign(place, challenger if challenger_resigns else opposition)
