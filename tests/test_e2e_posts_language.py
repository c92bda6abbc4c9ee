"""End to end through the emulator (issue 30): the posts and DMs the bot sends outside a
command speak their readers' languages. A server whose Discord language is German gets its
game's start and turn posts in German; a player whose Discord is Japanese gets their "your
turn" DM in Japanese, the opponent's turn in words and its notation unchanged; the English
player reads what they always read. Each within Discord's 2000 characters."""

from __future__ import annotations

from pathlib import Path

from harness.stage import Stage

DISCORD_LIMIT = 2000


async def test_a_german_servers_turn_post_and_a_japanese_players_your_turn_dm(
    tmp_path: Path,
) -> None:
    async with Stage(tmp_path) as stage:
        world = stage.emu.world
        world.guilds[stage.guild].preferred_locale = "de"
        world.users[stage.user["bob"]].locale = "ja"
        ann, bob = stage.user["ann"], stage.user["bob"]
        await stage.slash("ann", "challenge", opponent="bob", game="torishogi", deadline="2h")
        await stage.slash("bob", "accept")
        begins = await stage.posted("Die Partie beginnt")
        assert "Die Partie beginnt: ann (Challenger) gegen bob (Opposition).\n" in begins, begins
        assert "ann (Challenger) ist am Zug: " in begins, begins
        started = await stage.emu.wait_for_dm(bob, lambda m: "対局が始まりました" in m.text(), 30)
        assert "ann (Challenger)との対局が始まりました。" in started.text()
        first = await stage.emu.wait_for_dm(ann, lambda m: "Your turn against" in m.text(), 30)
        assert "Your turn against bob (Opposition): " in first.text()  # ann: English

        await stage.slash("ann", "act", action="Falcon 4f-5f")
        await stage.slash("ann", "end")
        post = await stage.posted("hat den Zug beendet")
        assert "ann (Challenger) hat den Zug beendet:\n- Falcon von ann zieht 4f-5f · `" in post
        assert "bob (Opposition) ist am Zug: " in post, post
        notice = await stage.emu.wait_for_dm(bob, lambda m: "あなたの手番です" in m.text(), 30)
        text = notice.text()
        assert "ann (Challenger)が手番を終えました" in text, text
        assert "ann の Falcon が 4f-5f に動き · `" in text, text
        assert "ann (Challenger)との対局であなたの手番です" in text, text
        for message in (begins, post, text):
            assert len(message) <= DISCORD_LIMIT
