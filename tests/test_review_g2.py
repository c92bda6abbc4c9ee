"""Review g2: regressions the day's merges left in the front ends (bot/app, bot/web...)."""

from __future__ import annotations

from event_helpers import ADMIN, GUILD, HERE, create, desk_of, snapshot, user

from bot.app.boards import Boards
from bot.service.testing import Harness

DAY = 86400.0


async def test_a_competition_games_terms_on_the_web_do_not_call_it_casual(h: Harness) -> None:
    """rB3 made a casual match one neither rated nor a competition's (``Terms.casual``): an
    unrated Swiss game is refused a takeback with "Turns are taken back only in casual
    matches". Yet the same game's web page (``Boards._common``'s ``terms``, from
    ``Terms.describe``) still reads "1 day per turn, casual, ...", ``rated`` alone deciding
    the word: the player reads "casual" and is then told it is not. Its terms should not
    call an event's game casual (e.g. "unrated")."""
    import pytest

    from bot.service import Place, Refused, Terms

    desk = await desk_of(h)
    await create(desk, "Cup", "torishogi", "swiss", rounds=2)
    for n in (1, 2):
        await desk.join(HERE, user(n), "Cup")
    await desk.begin(HERE, ADMIN, "Cup", admin=True)
    await h.settle()
    [pairing] = (await snapshot(h, "Cup")).pairings
    hosted = await h.store.hosting.get(pairing.hosted_id)
    terms = Terms.from_json(hosted.terms)
    assert terms.competition and not terms.rated and not terms.casual
    place = Place(GUILD, hosted.channel_id)
    first = user(hosted.challenger_id)
    await h.service.play(place, first, "c3c4")
    await h.service.end_turn(place, first)
    with pytest.raises(Refused, match="only in casual matches"):
        await h.service.takeback(place, first)
    state = await Boards(h.service).public(hosted.id)
    assert "casual" not in state["terms"].split(", "), state["terms"]
