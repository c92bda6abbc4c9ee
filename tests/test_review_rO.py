"""Review rO: challenges and the setup phase. One failing test per bug found."""

from __future__ import annotations

from tournament_helpers import ADMIN, HERE, desk_for

from bot.service import Place, User
from bot.service.testing import Harness

ANN, BOB = User(1, "ann"), User(2, "bob")


async def test_an_away_players_tournament_setup_does_not_lapse_into_a_forfeit(h: Harness) -> None:
    """ann takes three away days ("Your clocks stand still then") and her tournament's games
    honour away days (the default). Its first game opens while she is away; a day later its
    setup lapses ("ann had not chosen") and bob wins game 1 by forfeit, with ann still away.
    The setup's deadline should stand still while a player is away, as a turn's does (or the
    game should open, or its setup clock run, only once she is back)."""
    await h.running.away(HERE.guild_id, ANN, h.clock.now(), 3)
    desk = await desk_for(h)
    await desk.create(HERE, ADMIN, "Cup", "short", 49, admin=True)
    for player in (ANN, BOB):
        await desk.register(HERE, player, "cup")
    await desk.begin(HERE, ADMIN, "Cup", admin=True)
    await h.settle()
    [thread] = [t for t, (_parent, name) in h.threads.opened.items() if "ann v bob" in name]
    place = Place(HERE.guild_id, thread)
    await h.service.setup(place, BOB, {"strategy": "aggressive"})
    await h.advance(1.5 * 86400)  # ann is away for another day and a half
    texts = h.delivery.texts(place.channel_id)
    assert not any("setup was not finished in time" in t for t in texts), texts
    assert not any(t.startswith("Game 1 is over, won by bob") for t in texts), texts
