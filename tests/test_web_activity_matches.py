"""Which match an Activity's sign-in shows, and to whom (docs/WEB.md, "In Discord"): during
the setup the players get their seats (the setup page) and anyone else the public view, in
which nothing of a player's secret choices shows (twin worlds differing in a hidden Assassin's
square); in a direct message the user's one match that has a board, a challenge not yet
accepted not counting as one; several, or none, said so in words; in a channel that hosted
several, its live one, else the latest; in one that hosts none, a player of a match elsewhere
in the server pointed to it; a player of one match who opens another match's
Activity watches that one and can reach nothing of it with their own seat; and a user the bot
never met is refused in their browser's language."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest_asyncio
from test_web_activity import Signing, session, undated
from test_web_live import ANN_STARTS, TWIN_TERMS
from web_world import HERE, World

from bot.service import Place, Terms
from bot.web.passes import HEADER
from emulator import Emulator
from rules import Side

C = Side.CHALLENGER
THERE = Place(guild_id=HERE.guild_id, channel_id=HERE.channel_id + 1)
DM = 900  # the bot's direct message with the user who launches an Activity there


@pytest_asyncio.fixture
async def signing() -> AsyncIterator[Signing]:
    async with Emulator(bot_name="TORA") as emu:
        yield Signing(emu)


def in_dm(s: Signing, name: str) -> str:
    """An Activity ``name`` launched in their direct message with the bot: its instance."""
    launched = s.emu.activities.launch(s.emu.world.ids.next(), DM, None, s.users[name].id)
    return launched.id


async def accepted(w: World, s: Signing, where: Place = HERE, terms: Terms = TWIN_TERMS) -> int:
    """ann's challenge to bob in ``where``, accepted: the setup under way."""
    reply = await w.service.challenge(where, s.users["ann"], s.users["bob"], terms)
    await w.service.accept(where, s.users["bob"])
    assert reply.stamp is not None
    return reply.stamp.match


async def signed_in(w: World, s: Signing, name: str, instance: str | None = None) -> Any:
    status, seat, _ = await session(w, {"code": s.code(name), "instance": instance or s.instance})
    assert status == 200, seat
    return seat


async def test_the_setup_opens_as_the_players_setup_page(tmp_path: Path, signing: Signing) -> None:
    async with World(tmp_path / "t.sqlite3", discord=signing.api()) as w:
        match = await accepted(w, signing)
        seat = await signed_in(w, signing, "ann")
        assert (seat["match"], seat["side"]) == (match, "challenger")
        status, state = await w.get("/api/me", seat["token"])
        assert status == 200 and state["phase"] == "setup" and state["setup"]
        watching = await signed_in(w, signing, "cat")
        assert set(watching) == {"match", "access_token", "pass"} and watching["match"] == match
        status, public = await w.get(f"/api/m/{match}")
        assert status == 200 and public["phase"] == "setup"


async def seen_in_setup(w: World, s: Signing, match: int) -> list[Any]:
    """What cat, who plays no part, gets of a match being set up through its Activity."""
    assert w.client is not None
    seat = await signed_in(w, s, "cat")
    access = seat.pop("access_token")
    sent = {HEADER: seat.pop("pass")}  # as his page sends it (it says until when)
    seen: list[Any] = [seat]
    for path, token in (
        (f"/api/m/{match}", None),
        (f"/api/m/{match}/board.png", None),
        ("/api/me", access),
    ):
        headers = sent if token is None else sent | {"Authorization": f"Bearer {token}"}
        async with w.client.get(path, headers=headers) as answer:
            seen.append((path, answer.status, await answer.read()))
    answers = {"strategy": "defensive", "ruler": "K", "assassin": "v17h1"}
    status, body, headers = await w.post("setup", access, {"stamp": 0, "answers": answers})
    seen.append((status, body, undated(headers)))
    return seen


async def test_twin_setups_look_the_same_to_who_plays_no_part(
    tmp_path: Path, signing: Signing
) -> None:
    async with (
        World(tmp_path / "a.sqlite3", discord=signing.api()) as a,
        World(tmp_path / "b.sqlite3", discord=signing.api()) as b,
    ):
        matches = []
        for world, start in zip((a, b), ANN_STARTS, strict=True):
            match = await accepted(world, signing)
            answers = {"strategy": "aggressive", "ruler": "Q", "assassin": start}
            await world.service.setup(HERE, signing.users["ann"], answers)  # bob still choosing
            matches.append(match)
        seen = [await seen_in_setup(w, signing, m) for w, m in zip((a, b), matches, strict=True)]
        assert seen[0] == seen[1]
        assert seen[0][0] == {"match": matches[0]}


async def test_a_dm_shows_the_one_match_with_a_board(tmp_path: Path, signing: Signing) -> None:
    """A challenge ann issued elsewhere, not yet accepted, is no second match."""
    async with World(tmp_path / "t.sqlite3", discord=signing.api()) as w:
        instance = in_dm(signing, "ann")
        status, answer, _ = await session(w, {"code": signing.code("ann"), "instance": instance})
        assert status == 404 and "You play no match" in answer["error"]
        match = await accepted(w, signing)
        await w.service.challenge(THERE, signing.users["ann"], signing.users["cat"], Terms())
        seat = await signed_in(w, signing, "ann", instance)
        assert (seat["match"], seat["side"]) == (match, "challenger")


async def test_a_dm_of_several_matches_says_where_to_open_it(
    tmp_path: Path, signing: Signing
) -> None:
    async with World(tmp_path / "t.sqlite3", discord=signing.api()) as w:
        await accepted(w, signing)
        await accepted(w, signing, THERE, Terms())
        instance = in_dm(signing, "ann")
        status, answer, _ = await session(w, {"code": signing.code("ann"), "instance": instance})
        assert status == 404 and "You play several matches" in answer["error"]
        seat = await signed_in(w, signing, "ann")  # the channel's Activity says which
        assert seat["side"] == "challenger"


async def test_a_channel_without_a_match_points_a_player_to_theirs_elsewhere(
    tmp_path: Path, signing: Signing
) -> None:
    """Regression: with a thread per match, ann and bob play in a thread (``THERE``) and ann
    opens the board from the App Launcher in the channel itself, which hosts no match: she
    was told to challenge someone with /tora challenge, as if she played none. She is told
    her match's number instead, as the commands given there tell her; cat, who plays none,
    still gets the way to start one."""
    async with World(tmp_path / "t.sqlite3", discord=signing.api()) as w:
        match = await accepted(w, signing, THERE, Terms())
        status, answer, _ = await session(
            w, {"code": signing.code("ann"), "instance": signing.instance}
        )
        assert status == 404 and f"yours (match {match})" in answer["error"], answer
        status, answer, _ = await session(
            w, {"code": signing.code("cat"), "instance": signing.instance}
        )
        assert status == 404 and "challenge someone" in answer["error"], answer
        elsewhere = Place(guild_id=HERE.guild_id, channel_id=HERE.channel_id + 2)
        await w.service.challenge(elsewhere, signing.users["ann"], signing.users["cat"], Terms())
        await w.service.accept(elsewhere, signing.users["cat"])
        status, answer, _ = await session(
            w, {"code": signing.code("ann"), "instance": signing.instance}
        )
        assert status == 404 and "yours are played elsewhere" in answer["error"], answer


async def test_a_channel_without_a_match_does_not_point_to_a_challenge_without_a_board(
    tmp_path: Path, signing: Signing
) -> None:
    """ann has challenged bob in a thread (``THERE``), not yet accepted, and opens the
    Activity from the App Launcher in the channel itself: she was told her match is played
    elsewhere, to be opened with its Play button, but a challenge has no board to open (a
    DM's Activity counts only matches with a board). She is told it has none yet."""
    async with World(tmp_path / "t.sqlite3", discord=signing.api()) as w:
        ann, bob = signing.users["ann"], signing.users["bob"]
        reply = await w.service.challenge(THERE, ann, bob, Terms())
        assert reply.stamp is not None
        status, answer, _ = await session(
            w, {"code": signing.code("ann"), "instance": signing.instance}
        )
        assert status == 404 and "Play button" not in answer["error"], answer
        assert "no board yet" in answer["error"], answer


async def test_a_player_in_another_matchs_activity_only_watches_it(
    tmp_path: Path, signing: Signing
) -> None:
    """cat, who plays ann in another channel, joined the Activity of ann and bob's match: she
    watches it, and her own seat still reaches her own match only."""
    async with World(tmp_path / "t.sqlite3", discord=signing.api()) as w:
        here = await accepted(w, signing, HERE, Terms())
        await set_up(w, signing)
        cat, ann = signing.users["cat"], signing.users["ann"]
        reply = await w.service.challenge(THERE, cat, ann, Terms())
        await w.service.accept(THERE, ann)
        assert reply.stamp is not None
        there = reply.stamp.match
        watching = await signed_in(w, signing, "cat")
        assert watching["match"] == here and "token" not in watching
        own = await w.token(there, C)
        status, state = await w.get("/api/me", own)
        assert status == 200 and state["match"] == there
        status, body, _ = await w.post("end", own, {"stamp": 1})
        assert status == 409 and "still choosing their setup" in body["error"]
        assert (await w.me(here, C))["turn"] == 1


async def test_a_channel_of_several_matches_shows_its_live_one(
    tmp_path: Path, signing: Signing
) -> None:
    """The channel's live match over those that ended in it; once it has ended too, the
    latest of them (its page stays)."""
    async with World(tmp_path / "t.sqlite3", discord=signing.api()) as w:
        first = await accepted(w, signing, HERE, Terms())
        await set_up(w, signing)
        assert (await w.post("resign", await w.token(first, C), {"stamp": 1}))[0] == 200
        second = await accepted(w, signing, HERE, Terms())
        seat = await signed_in(w, signing, "bob")
        assert (seat["match"], seat["side"]) == (second, "opposition")
        await set_up(w, signing)
        assert (await w.post("resign", await w.token(second, C), {"stamp": 1}))[0] == 200
        seat = await signed_in(w, signing, "bob")
        assert seat["match"] == second and "token" not in seat


async def set_up(w: World, s: Signing) -> None:
    """ann and bob's TORA short-board setup in ``HERE``, done."""
    for name, strategy in (("ann", "aggressive"), ("bob", "defensive")):
        await w.service.setup(HERE, s.users[name], {"strategy": strategy})


async def test_a_user_the_bot_never_met_is_answered_in_their_browsers_language(
    tmp_path: Path, signing: Signing
) -> None:
    """Nothing says dan's language but his Discord's browser: its Accept-Language, as the
    page's shell was; a user whose language the bot knows is answered in it."""
    async with World(tmp_path / "t.sqlite3", discord=signing.api()) as w:
        assert w.client is not None
        dan = signing.emu.add_user("dan")
        signing.emu.activities.join(signing.instance, dan)
        await w.service.records.choose_player_language(signing.users["ann"], "fr")
        said = {}
        for name, user in (("dan", dan), ("ann", signing.users["ann"].id)):
            body = {"code": signing.emu.activities.authorize(user), "instance": signing.instance}
            headers = {"Accept-Language": "de-DE,de;q=0.9"}
            async with w.client.post("/api/activity/session", json=body, headers=headers) as got:
                said[name] = (got.status, (await got.json())["error"])
        assert said["dan"][0] == 404 and said["dan"][1].startswith("In diesem Kanal")
        assert said["ann"][0] == 404 and not said["ann"][1].startswith("In diesem Kanal")
        assert not said["ann"][1].startswith("There is")  # French, as she chose
