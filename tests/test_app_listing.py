"""``/tora games`` (``bot.app.listing``): a player's matches in one answer."""

from __future__ import annotations

from bot.app.listing import LIVE_SHOWN, Listing
from bot.service import Place, Terms, User
from bot.service.testing import Harness

GUILD = 1
ANN, BOB = User(1, "ann"), User(2, "bob")


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


async def test_a_match_that_just_ended_is_listed_among_the_recently_ended(h: Harness) -> None:
    """ann's long correspondence match 1 ends today; meanwhile five challenges she sent were
    declined. "Recently ended" listed the five declined challenges (the newest by creation)
    and not the match that had just ended: the ended ones were read newest *created* first
    (``ORDER BY id``), not the most recently ended."""
    terms = Terms(game="torishogi", turn_seconds=36000, rated=False)
    here = Place(GUILD, 500)
    await h.running.challenge(here, ANN, BOB, terms)
    await h.running.accept(here, BOB)
    for n in range(5):
        there = Place(GUILD, 600 + n)
        other = User(100 + n, f"p{n}")
        await h.running.challenge(there, ANN, other, terms)
        await h.running.decline(there, other)
    await h.running.resign(here, BOB)
    await h.settle()
    said = await Listing(h.service).games(ANN.id)
    recent = said.split("**Recently ended**")[1]
    assert "Match 1 " in recent, said
