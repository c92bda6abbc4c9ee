"""``/tora games`` (``bot.app.listing``): a player's matches in one answer."""

from __future__ import annotations

from bot.app.listing import LIVE_SHOWN, Listing
from bot.service import Place, Terms, User
from bot.service.testing import Harness

GUILD = 1
ANN = User(1, "ann")


async def test_games_lists_the_soonest_deadlines_and_says_how_many_more(h: Harness) -> None:
    """Regression: every live match was listed, however many (30 games of a round robin
    at once), so the answer ran to several messages and read every match's clocks. It lists
    the soonest deadlines, then how many more, and how to see one."""
    count = LIVE_SHOWN + 3
    for n in range(count):
        opponent = User(100 + n, f"p{n}")
        here = Place(GUILD, 1000 + n)
        terms = Terms(game="torishogi", turn_seconds=3600.0 * (n + 1))
        await h.running.challenge(here, opponent, ANN, terms)
        await h.running.accept(here, ANN)
    await h.settle()
    said = await Listing(h.service).games(ANN.id)
    lines = [line for line in said.splitlines() if line.startswith("- Match")]
    assert len(lines) == LIVE_SHOWN, said
    assert "p0 vs ann" in lines[0] and f"p{count - 1} vs ann" not in said, said
    assert "...and 3 more matches going on, with later deadlines: `/tora board` with" in said
