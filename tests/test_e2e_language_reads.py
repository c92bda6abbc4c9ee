"""The language of an answer is read from storage once, not for every interaction (issue 26):
a player's second command, and their server's, answer in the language kept from the first;
a change through ``/tora settings`` (the player's, or an admin's for the server) is seen by
the very next answer; one made by another process sharing the database, within seconds."""

from __future__ import annotations

from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path

from test_e2e_comforts import pick
from test_service_away import ANN, HERE

from bot.app.callers import Caller
from bot.app.languages import Languages
from bot.service.languages import CHOICE_SECONDS
from bot.service.records import Records
from bot.service.testing import Harness
from harness.stage import Stage


def counting(stage: Stage) -> Counter[str]:
    """How often storage is asked for a player's or a server's settings from now on."""
    assert stage.bot is not None
    store, reads = stage.bot.store, Counter[str]()
    for name in ("player_settings", "guild_settings"):
        read: Callable[[int], Awaitable[dict[str, str]]] = getattr(store, name)

        async def counted(key: int, read: Callable[..., Awaitable[dict[str, str]]] = read,
                          name: str = name) -> dict[str, str]:  # fmt: skip
            reads[name] += 1
            return await read(key)

        setattr(store, name, counted)
    return reads


async def test_two_interactions_read_the_language_once(tmp_path: Path) -> None:
    async with Stage(tmp_path, ("ann", "bob", "admin")) as stage:
        reads = counting(stage)
        first = await stage.slash("ann", "rules", topic="crane", game="torii")
        once = reads.copy()
        assert once["player_settings"] >= 1, once
        second = await stage.slash("ann", "rules", topic="crane", game="torii")
        assert second.text == first.text
        assert reads == once, (once, reads)  # nothing read again: ann's and the server's kept


async def refusal(stage: Stage) -> str:
    """A refusal to ann, in the language of her answers."""
    return (await stage.slash("ann", "settings", timezone="Mars/Olympus")).text


async def test_a_language_chosen_in_settings_is_used_at_once(tmp_path: Path) -> None:
    async with Stage(tmp_path, ("ann", "bob", "admin")) as stage:
        english = await refusal(stage)
        assert "Mars/Olympus" in english and english.isascii(), english
        await stage.slash("ann", "settings", language="ja")
        japanese = await refusal(stage)
        assert "は知らないタイムゾーンです" in japanese, japanese
        await stage.slash("ann", "settings")
        await pick(stage, "ann", "language", "discord")  # the form's menu: English again
        assert await refusal(stage) == english


async def test_a_change_by_another_process_is_seen_within_seconds(h: Harness) -> None:
    """A server's language an admin chose here is seen at once; one chosen through another
    process sharing the database, once the kept choice is ``CHOICE_SECONDS`` old."""
    languages = Languages(h.running)
    here = Caller(ANN, HERE.guild_id, HERE.channel_id, locale="de", guild_locale="es-ES")
    assert await languages.of_server(here) == "es"
    await h.running.records.choose_server_language(HERE.guild_id, "ja")
    assert await languages.of_server(here) == "ja"
    assert h.store is not None
    elsewhere = Records(h.store, h.clock)  # another process's, with its own kept choices
    await elsewhere.choose_server_language(HERE.guild_id, "fr")
    await elsewhere.choose_player_language(ANN, "pt_BR")
    assert (await languages.of_server(here), await languages.of(here)) == ("ja", "de")
    await h.advance(CHOICE_SECONDS)
    assert (await languages.of_server(here), await languages.of(here)) == ("fr", "pt_BR")
