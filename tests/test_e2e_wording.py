"""End to end, the words players read: a finished match's result names its winner and every
listing and heading names the game; refusals read as sentences; names in the tournament
desk's answers show as written and ping nobody."""

from __future__ import annotations

from pathlib import Path

from harness.stage import Stage

SIDES = ("challenger wins", "opposition wins")


async def test_a_finished_match_names_its_winner_and_every_heading_its_game(
    tmp_path: Path,
) -> None:
    async with Stage(tmp_path, ("ann", "bob", "carl")) as stage:
        await stage.slash("ann", "challenge", opponent="bob", game="torishogi")
        await stage.click("bob", "Accept")
        await stage.posted("The game begins")
        bob_dm = stage.emu.dm_channel(stage.user["bob"])
        live = await stage.slash("ann", "games")
        assert "Match 1 · ToriShogi: ann vs bob" in live.text, live.text
        board = await stage.slash("bob", "board", channel=bob_dm)  # an answer in his DMs
        assert board.text.startswith("-# Match 1 · ToriShogi · ann vs bob · "), board.text
        await stage.slash("bob", "resign")
        await stage.click("bob", "Resign")
        await stage.posted("bob (Opposition) resigns")
        await stage.quiet()

        games = await stage.slash("ann", "games")
        assert "Match 1 · ToriShogi: ann vs bob, ended: ann wins (resignation)" in games.text
        assert "(ended), ended (finished)" not in games.text
        final = await stage.slash("carl", "board")
        assert final.text.startswith(
            "Match 1 (ToriShogi) ended: ann wins (resignation). Its final board:"
        ), final.text
        headed = [m.text() for m in stage.emu.dms(stage.user["ann"]) if "-# Match" in m.text()]
        assert headed and all("-# Match 1 · ToriShogi · ann vs bob · " in t for t in headed)
        seen = " ".join(m.text() for m in stage.emu.public_messages(stage.channel))
        assert not any(words in seen for words in SIDES)


async def test_a_buttons_answer_in_a_dm_names_its_match_as_the_commands_does(
    tmp_path: Path,
) -> None:
    """Regression: in a DM, where the answers of all one's matches meet, /tora preview's
    answer named its match in a first line, but the Preview button's did not."""
    async with Stage(tmp_path) as stage:
        await stage.slash("ann", "challenge", opponent="bob", game="torishogi")
        await stage.click("bob", "Accept")
        await stage.posted("The game begins")
        await stage.quiet()
        ann_dm = stage.emu.dm_channel(stage.user["ann"])
        typed = await stage.slash("ann", "preview", channel=ann_dm)
        assert typed.text.startswith("-# Match 1 · ToriShogi · ann vs bob · "), typed.text
        pressed = await stage.click("ann", "Preview", channel=ann_dm)
        assert pressed.text.startswith("-# Match 1 · ToriShogi · ann vs bob · "), pressed.text


async def test_a_torii_match_ends_with_its_winners_name(tmp_path: Path) -> None:
    async with Stage(tmp_path) as stage:
        await stage.slash("ann", "challenge", opponent="bob", game="torii")
        await stage.click("bob", "Accept")
        await stage.slash("ann", "setup", spirit="Kitsune")
        await stage.slash("bob", "setup", spirit="Monkey")
        await stage.posted("The game begins")
        await stage.slash("ann", "resign")
        await stage.click("ann", "Resign")
        end = await stage.posted("ann (Challenger) resigns")
        assert "· bob wins (resignation)." in end, end  # the final state's line
        assert not any(words in end for words in SIDES)


async def test_refusals_read_as_sentences(tmp_path: Path) -> None:
    async with Stage(tmp_path) as stage:
        refused = await stage.slash(
            "ann", "challenge", opponent="bob", game="torishogi", board="long", assassins=True
        )
        assert refused.text == (
            "ToriShogi is played without a choice of board or Assassins: those are TORA's. "
            "Leave them out of a challenge to ToriShogi."
        )
        refused = await stage.slash("ann", "challenge", opponent="bob", game="torii", target=5)
        assert refused.text.startswith("Torii is played without a point target: that is TORA's.")
        await stage.slash("ann", "challenge", opponent="bob")
        await stage.click("bob", "Accept")
        await stage.slash("ann", "setup", strategy="aggressive")
        await stage.slash("bob", "setup", strategy="defensive")
        await stage.posted("The game begins")
        unread = await stage.slash("ann", "act", action="hello")
        assert unread.text.startswith("Cannot read `hello`"), unread.text
        square = await stage.slash("ann", "act", action="A v4h2-v3h2")
        assert square.text.startswith("v4h2 "), square.text  # notation keeps its case


async def test_a_tournament_name_full_of_markdown_and_mentions(tmp_path: Path) -> None:
    name = "@here Cup **2**"
    async with Stage(tmp_path, ("ann", "admin")) as stage:
        created = await stage.slash(
            "admin", "tournament create", name=name, board="short", target=60
        )
        assert "Tournament **@\u200bhere Cup \\*\\*2\\*\\*** is open" in created.text, created.text
        again = await stage.slash("admin", "tournament create", name=name, board="short", target=60)
        assert "called **@\u200bhere Cup \\*\\*2\\*\\***." in again.text, again.text
        unknown = await stage.slash("ann", "tournament register", name="Cup")
        assert "(this server has: **@\u200bhere Cup \\*\\*2\\*\\***)" in unknown.text
        shown = [*created.messages, *again.messages, *unknown.messages]
        assert all(not m.pinged for m in shown)


async def test_the_profile_of_someone_who_never_played_names_them(tmp_path: Path) -> None:
    """Regression: a profile asked for a member who never played a rated game read "Player
    123456789012345678 has never played here", their raw user id, though the command had
    their name."""
    async with Stage(tmp_path, ("ann", "bob")) as stage:
        profile = await stage.slash("ann", "ladder", "profile", player="bob")
        assert profile.text == "Bob has never played here."  # a refusal reads as a sentence
        assert str(stage.user["bob"]) not in profile.text
