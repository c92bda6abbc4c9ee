"""The web board's private links: a token opens its player's board until it is replaced or
its match ends, and nothing but a token made with the secret opens anything."""

from __future__ import annotations

import asyncio
import base64
import sqlite3
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.app.links import ENDED, NOT_VALID, REPLACED, LinkRefused, Links
from bot.service import LinkRecords, Place, Terms, User
from bot.service.testing import Harness
from rules import Side
from storage import Config, LinkState, Store
from storage.backends.migrations import LATEST, migrate

HERE = Place(guild_id=1, channel_id=100)
ANN, BOB = User(1, "ann"), User(2, "bob")
BASE = "https://tora.example/"


def links_of(h: Harness, secret: str = "") -> Links:
    assert h.store is not None
    return Links(LinkRecords(h.store), BASE, secret)


async def opened(h: Harness) -> int:
    hosted = await h.service.open_match(HERE, ANN, BOB, Terms(options={"board": "long"}))
    return hosted.id


async def refusal(links: Links, token: str) -> str:
    with pytest.raises(LinkRefused) as caught:
        await links.check(token)
    return caught.value.message


async def test_a_players_link_names_their_match_and_side(h: Harness) -> None:
    match = await opened(h)
    links = links_of(h)
    for side in Side:
        token = await links.link_for(match, side)
        assert await links.check(token) == (match, side)
        assert await links.private_url(match, side) == f"https://tora.example/play#{token}"
    assert links.page_url(match) == f"https://tora.example/m/{match}"
    assert await links.link_for(match, Side.CHALLENGER) != await links.link_for(
        match, Side.OPPOSITION
    )


async def test_a_new_link_replaces_the_old_one_of_that_side_alone(h: Harness) -> None:
    match = await opened(h)
    links = links_of(h)
    old = await links.link_for(match, Side.CHALLENGER)
    theirs = await links.link_for(match, Side.OPPOSITION)
    new = await links.renew(match, Side.CHALLENGER)
    assert await refusal(links, old) == REPLACED
    assert await links.check(new) == (match, Side.CHALLENGER)
    assert await links.link_for(match, Side.CHALLENGER) == new
    assert await links.check(theirs) == (match, Side.OPPOSITION)
    newer = await links.renew(match, Side.CHALLENGER)
    assert await refusal(links, new) == REPLACED
    assert await links.check(newer) == (match, Side.CHALLENGER)


async def test_every_link_of_an_ended_match_points_to_its_page(h: Harness) -> None:
    match = await opened(h)
    links = links_of(h)
    token = await links.link_for(match, Side.OPPOSITION)
    await h.service.abort(HERE, ANN)
    with pytest.raises(LinkRefused) as caught:
        await links.check(token)
    assert caught.value.ended
    assert caught.value.message == ENDED.format(url=f"https://tora.example/m/{match}")
    assert caught.value.message.endswith(f"its page stays at https://tora.example/m/{match}.")


async def test_processes_without_a_configured_secret_share_the_kept_one(
    h: Harness, db: Config
) -> None:
    match = await opened(h)
    here = links_of(h)
    token = await here.link_for(match, Side.CHALLENGER)
    async with await Store.open(db) as other_store:
        there = Links(LinkRecords(other_store), BASE)
        assert await there.check(token) == (match, Side.CHALLENGER)
        assert await there.link_for(match, Side.CHALLENGER) == token
    configured = links_of(h, secret="the operator's own secret")
    assert await refusal(configured, token) == NOT_VALID
    assert await configured.check(await configured.link_for(match, Side.CHALLENGER))


def _forged(match: int, side: str, generation: int, signature: str) -> str:
    text = f"{match}:{side}:{generation}:{signature}"
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


async def test_forged_and_broken_tokens_are_not_valid(h: Harness) -> None:
    match = await opened(h)
    links = links_of(h)
    good = await links.link_for(match, Side.CHALLENGER)
    match_text, _side, generation, signature = (
        base64.urlsafe_b64decode(good + "=" * (-len(good) % 4)).decode().split(":")
    )
    assert match_text == str(match)
    forgeries = [
        _forged(match, "O", int(generation), signature),  # the other side, same signature
        _forged(match + 1, "C", int(generation), signature),  # another match
        _forged(match, "C", int(generation) + 1, signature),  # a later generation
        _forged(
            match, "C", int(generation), signature[:-1] + ("B" if signature[-1] == "A" else "A")
        ),
        _forged(match, "C", int(generation), ""),
        _forged(match, "c", int(generation), signature),
        good[:-2],
        good + "A",
        good + "=",
        "",
        "not a token",
        "A" * 10_000,
        _forged(2**70, "C", 1, signature),
    ]
    for token in forgeries:
        assert await refusal(links, token) == NOT_VALID, token
    # A well-signed token of a match that does not exist opens nothing either.
    signed = Links(_Kept(match + 99), BASE, "secret")  # type: ignore[arg-type]
    ghost = await signed.link_for(match + 99, Side.CHALLENGER)
    assert await refusal(links_of(h, "secret"), ghost) == NOT_VALID


class _Kept:
    """The records of one open match, in memory."""

    def __init__(self, match: int = 7) -> None:
        self.match = match
        self.generations = {Side.CHALLENGER: 1, Side.OPPOSITION: 1}

    async def state(self, hosted_id: int, side: Side) -> LinkState | None:
        return LinkState(False, self.generations[side]) if hosted_id == self.match else None

    async def renew(self, hosted_id: int, side: Side) -> int:
        self.generations[side] += 1
        return self.generations[side]

    async def secret(self, fresh: str) -> str:
        return "kept"


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.text(max_size=300), st.from_regex(r"[A-Za-z0-9_-]{0,120}", fullmatch=True)))
def test_any_text_as_a_token_is_refused_in_words(text: str) -> None:
    links = Links(_Kept(), BASE)  # type: ignore[arg-type]

    async def check() -> None:
        with pytest.raises(LinkRefused, match="not valid"):
            await links.check(text)

    asyncio.run(check())


def test_a_database_of_before_the_web_board_takes_its_links(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "old.sqlite3", isolation_level=None)
    try:
        migrate(conn, upto=11)
        assert migrate(conn) == list(range(12, LATEST + 1))
        assert conn.execute("PRAGMA user_version").fetchone()[0] == LATEST
        assert conn.execute("SELECT count(*) FROM web_links").fetchone()[0] == 0
        assert migrate(conn) == []
    finally:
        conn.close()
