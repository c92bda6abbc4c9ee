"""Matches opened without a challenge (ladder pairings, tournament games), the listeners
told when a match ends, finding a user's matches from elsewhere (a private message), and
the server settings kept for the front end."""

from __future__ import annotations

import pytest
from service_helpers import calls_counted

from bot.service import (
    GuildSettings,
    Place,
    Refused,
    Terms,
    User,
    load_guild,
    save_guild,
)
from bot.service.phases import ENDED, SETUP
from bot.service.testing import PRIVATE, Harness
from storage import Hosted

HERE = Place(guild_id=1, channel_id=100)
ANN, BOB, CARL = User(1, "ann"), User(2, "bob"), User(3, "carl")


async def test_an_agreed_match_goes_straight_to_the_setup(h: Harness) -> None:
    hosted = await h.service.open_match(
        HERE, ANN, BOB, Terms(options={"board": "long"}), "A ladder match."
    )
    await h.settle()
    assert hosted.phase == SETUP
    assert (hosted.challenger_id, hosted.opposition_id) == (ANN.id, BOB.id)
    opening = h.delivery.texts(HERE.channel_id)[0]
    assert opening.startswith("A ladder match. ann (Challenger) moves first; bob (Opposition)")
    prompts = {d.user_id: d.message.text for d in h.delivery.log if d.kind == PRIVATE}
    assert set(prompts) == {ANN.id, BOB.id} and "Ruler" in prompts[ANN.id]
    await h.service.setup(HERE, ANN, {"strategy": "aggressive", "ruler": "K"})
    await h.service.setup(HERE, BOB, {"strategy": "defensive", "ruler": "Q"})
    await h.settle()
    assert "playing aggressive, Ruler K against bob" in h.delivery.texts(HERE.channel_id)[-1]


async def test_an_agreed_match_is_refused_where_one_is_live_or_for_one_player(
    h: Harness,
) -> None:
    with pytest.raises(Refused, match="two different players"):
        await h.service.open_match(HERE, ANN, ANN)
    await h.service.challenge(HERE, CARL)
    with pytest.raises(Refused, match="already hosts a match"):
        await h.service.open_match(HERE, ANN, BOB)
    with pytest.raises(Refused, match="Assassins are played on the long board only"):
        await h.service.open_match(Place(1, 101), ANN, BOB, Terms(options={"assassins": True}))


async def test_listeners_hear_of_every_ending_and_may_open_the_next_match_there(
    h: Harness,
) -> None:
    heard: list[Hosted] = []

    async def next_game(hosted: Hosted) -> None:
        heard.append(hosted)
        if len(heard) == 1:  # a tournament would open its next game in the same thread
            place = Place(hosted.guild_id, hosted.channel_id)
            await h.service.open_match(place, BOB, ANN, intro="Game 2.")

    async def broken(hosted: Hosted) -> None:
        raise RuntimeError("a listener's failure is only logged")

    h.service.on_ended(broken)
    h.service.on_ended(next_game)
    await h.service.open_match(HERE, ANN, BOB, intro="Game 1.")
    await h.service.abort(HERE, BOB)
    assert [(x.phase, x.ending) for x in heard] == [(ENDED, "aborted")]
    following = await h.service.matches_of(ANN.id)
    assert [(x.challenger_id, x.phase) for x in following] == [(BOB.id, SETUP)]
    await h.service.setup(HERE, ANN, {"strategy": "aggressive"})
    await h.service.setup(HERE, BOB, {"strategy": "defensive"})
    await h.service.resign(HERE, ANN)
    assert [x.ending for x in heard] == ["aborted", "finished"]


async def test_a_users_matches_are_found_from_anywhere(h: Harness) -> None:
    await h.service.challenge(HERE, ANN, BOB)
    await h.service.open_match(Place(1, 101), CARL, ANN)
    assert {x.channel_id for x in await h.service.matches_of(ANN.id)} == {100, 101}
    assert {x.channel_id for x in await h.service.matches_of(BOB.id)} == {100}
    assert await h.service.matches_of(99) == []


async def test_a_keystroke_in_a_dm_reads_the_callers_matches_not_every_live_match(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``MatchService.matches_of`` (a player's live matches) is asked at every keystroke of
    the ``match`` option's autocomplete and of ``/tora rules`` in a DM (not rate limited),
    by every DM command and by every command given in a channel without a match
    (``_point_to_thread``): it reads the caller's matches on the indexes naming them, not
    every live match of every server (each row made a ``Hosted`` on the event loop)."""
    import storage.hosting.hosted as hosted_rows

    await h.running.challenge(HERE, ANN, BOB, Terms())  # ann's only match
    for n in range(60):  # other servers' matches
        await h.running.challenge(
            Place(1000 + n, 5000 + n), User(100 + n, f"c{n}"), User(300 + n, f"d{n}"), Terms()
        )
    made = calls_counted(monkeypatch, hosted_rows, "hosted_of")
    mine = await h.running.matches_of(ANN.id)  # one keystroke's read
    assert [m.issuer_id for m in mine] == [ANN.id]
    assert len(made) <= 5, f"{len(made)} live matches read to find ann's one"


async def test_server_settings_round_trip_with_defaults(h: Harness) -> None:
    assert await load_guild(h.store, 1) == GuildSettings()
    chosen = GuildSettings(turn_seconds=3 * 3600.0, threads=True, ladder_channel=555)
    await save_guild(h.store, 1, chosen)
    assert await load_guild(h.store, 1) == chosen
    assert await load_guild(h.store, 2) == GuildSettings()
    await save_guild(h.store, 1, GuildSettings())
    assert await load_guild(h.store, 1) == GuildSettings()


async def test_threads_open_under_their_channel(h: Harness) -> None:
    thread = await h.threads.open_thread(100, "ann vs bob")
    assert h.threads.opened[thread] == (100, "ann vs bob")
