"""End to end against the local Discord emulator: ``/tora help`` and ``/tora rules`` know
every game. Each game has its quick start and coordinates picture, and its rulings, pieces
and powers to look up; both commands answer in the game of the match at hand (the channel's,
or in a DM the caller's) unless the ``game`` option names another."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.stage import Stage
from render.coordinates import coordinates_of


async def test_rules_know_every_games_rulings_pieces_and_powers(tmp_path: Path) -> None:
    async with Stage(tmp_path, ("ann",)) as stage:
        for topic, start in (
            ("phoenix", "# Phoenix (K) · ToriShogi"),
            ("TS5", "**TS5 Promotion.**"),
            ("quail", "# Quail (L/R) · ToriShogi"),
            ("monkey", "# Monkey · Torii"),
            ("TI15", "**TI15 Monkey.**"),
            ("archer", "# Archer (A) · TORA"),
        ):
            answer = await stage.slash("ann", "rules", topic=topic)
            assert answer.text.startswith(start), answer.text
            assert answer.ephemeral and "No ruling" not in answer.text
        chosen = await stage.slash("ann", "rules", topic="crane", game="torii")
        assert chosen.text.startswith("# Crane · Torii")
        offered = await stage.emu.autocomplete(
            stage.user["ann"], stage.channel, "tora", "rules", focused="topic", topic="monk"
        )
        assert [c["name"] for c in offered] == ["TI15 Monkey · Torii", "Monkey · Torii"]
        picked = await stage.slash("ann", "rules", topic=offered[1]["value"])
        assert picked.text.startswith("# Monkey · Torii")


async def test_help_and_rules_follow_the_game_of_the_match_at_hand(tmp_path: Path) -> None:
    async with Stage(tmp_path, ("ann", "bob", "cid", "dan"), channels=2) as stage:
        shogi, torii = stage.channels
        await stage.slash("ann", "challenge", opponent="bob", game="torishogi", channel=shogi)
        await stage.click("bob", "Accept", channel=shogi)
        await stage.slash("cid", "challenge", opponent="dan", game="torii", channel=torii)
        await stage.click("dan", "Accept", channel=torii)

        helped = await stage.slash("ann", "help", channel=shogi)
        assert helped.text.startswith("**ToriShogi by chat: a quick start**"), helped.text
        assert "Archer" not in helped.text and "v5h7" not in helped.text
        (picture,) = helped.files
        assert picture.name == "torishogi-coordinates.png"
        assert picture.data == coordinates_of("torishogi")
        assert (await stage.slash("ann", "rules", topic="C", channel=shogi)).text.startswith(
            "# Crane (C) · ToriShogi"
        )
        offered = await stage.emu.autocomplete(
            stage.user["ann"], shogi, "tora", "rules", focused="topic", topic=""
        )
        assert offered[0]["name"] == "TS1 Board and sides · ToriShogi"

        # in a DM: the caller's match (dan plays Torii), unless the game option says otherwise
        dm = stage.emu.dm_channel(stage.user["dan"])
        helped = await stage.slash("dan", "help", channel=dm)
        assert helped.text.startswith("**Torii by chat: a quick start**")
        assert helped.files[0].name == "torii-coordinates.png" and "Spirit" in helped.text
        crane = await stage.slash("dan", "rules", topic="crane", channel=dm)
        assert crane.text.startswith("# Crane · Torii"), crane.text
        tora = await stage.slash("dan", "help", game="tora", channel=dm)
        assert tora.text.startswith("**TORA by chat: a quick start**") and "`v5h7`" in tora.text
        assert tora.files[0].data == coordinates_of("tora")


@pytest.mark.parametrize("game", ["tora", "torishogi", "torii"])
async def test_the_quick_starts_picture_is_drawn_in_the_readers_language(game: str) -> None:
    """``/tora help`` in Japanese: the quick start's coordinates picture says who is to act
    in Japanese too, not in English (every image's own words are converted)."""
    from bot.app import guide
    from bot.i18n import speaking

    with speaking("en"):
        english = await guide.quick_start(None, None, game)  # type: ignore[arg-type]
    with speaking("ja"):
        japanese = await guide.quick_start(None, None, game)  # type: ignore[arg-type]
    assert japanese.text != english.text
    assert japanese.files[0].data != english.files[0].data
