"""End to end through the emulator (issue 30): the match service's answers and refusals come
in the caller's language, its posts in the server's and its DMs in each player's. A German
player challenges in a Japanese server: her answers and refusals are German, the challenge and
the setup posts Japanese, each player's setup prompt in their own language. A Japanese
player's refusals of a rated match (a takeback, a hint, nothing to decline) are Japanese; the
proposal she makes is posted in the server's language and told to her German opponent in
German. A practice game's hint and the refusal to analyse a running match answer a Japanese
player in Japanese in a German server."""

from __future__ import annotations

from pathlib import Path

from harness.stage import Stage


async def test_a_german_player_challenges_in_a_japanese_server(tmp_path: Path) -> None:
    async with Stage(tmp_path) as stage:
        world = stage.emu.world
        world.users[stage.user["ann"]].locale = "de"
        world.guilds[stage.guild].preferred_locale = "ja"
        posted = await stage.slash("ann", "challenge", opponent="bob", game="torii", deadline="2h")
        assert posted.text.startswith(
            "Deine Herausforderung ist gepostet; sie läuft in 1 Tag ab."
        ), posted.text
        assert "`/tora ablehnen`" in posted.text, posted.text
        post = await stage.posted("ann が bob に Torii の対局を挑みました")
        assert "`/tora 受諾` で受けるか" in post, post
        assert "手番ごとに2時間, レート戦" in post, post  # the terms in the server's language

        own = await stage.slash("ann", "accept")
        assert own.text.startswith("Du kannst deine eigene Herausforderung nicht annehmen."), (
            own.text
        )
        await stage.click("bob", "受ける")  # the post's buttons in the server's language too
        setup = await stage.posted("bob が ann の挑戦を受けました。")
        assert "二人とも非公開で初期配置を選んでください" in setup, setup
        await stage.quiet()
        [ann_prompt] = [m.text() for m in stage.emu.dms(stage.user["ann"])]
        assert "Deine Partie Torii gegen bob" in ann_prompt, ann_prompt
        assert "Du spielst den Challenger und ziehst zuerst" in ann_prompt, ann_prompt
        [bob_prompt] = [m.text() for m in stage.emu.dms(stage.user["bob"])]
        assert "Your match of Torii against ann (Challenger): you play the Opposition." in (
            bob_prompt
        ), bob_prompt

        chosen = await stage.slash("ann", "setup", spirit="Crane")
        assert chosen.text.startswith("Deine Aufstellung bisher: "), chosen.text
        assert "die Partie beginnt, wenn auch bob gewählt hat" in chosen.text, chosen.text
        await stage.posted("ann が初期配置を終えました。bob を待っています。")
        english = await stage.slash("bob", "setup", spirit="Deer")
        assert english.text.startswith("Your setup is complete, and so is your opponent's"), (
            english.text
        )


async def test_a_japanese_players_refusals_and_her_proposal(tmp_path: Path) -> None:
    async with Stage(tmp_path) as stage:
        world = stage.emu.world
        world.users[stage.user["bob"]].locale = "de"
        await stage.slash("ann", "challenge", opponent="bob", game="torishogi", deadline="2h")
        await stage.click("bob", "Accept")
        await stage.posted("The game begins")
        world.users[stage.user["ann"]].locale = "ja"

        nothing = await stage.slash("ann", "decline")
        assert nothing.text == "断る提案はありません。", nothing.text
        rated = await stage.slash("ann", "match", "takeback")
        assert rated.text.startswith(
            "待ったができるのは非レート戦だけで、この対局はレート戦です。"
        ), rated.text
        assert "`レート戦:False`" in rated.text, rated.text
        hint = await stage.slash("ann", "hint")
        assert hint.text.startswith("ヒントは練習対局"), hint.text

        await stage.slash("ann", "draw")
        await stage.posted("ann (Challenger) proposes a draw. bob, accept with `/tora draw`")
        await stage.quiet()
        told = [m.text() for m in stage.emu.dms(stage.user["bob"])]
        assert any("schlägt in eurer Partie ein Remis vor" in t for t in told), told
        again = await stage.slash("ann", "draw")
        assert again.text.startswith("すでに引き分けを提案しています。"), again.text


async def test_a_japanese_player_asks_the_ai_for_help_in_a_german_server(tmp_path: Path) -> None:
    """A practice game's hint and the refusal to analyse a running match come in the
    caller's language (Japanese), whatever the server's (German)."""
    async with Stage(tmp_path, ("ann",)) as stage:
        world = stage.emu.world
        world.guilds[stage.guild].preferred_locale = "de"
        await stage.slash("ann", "challenge", game="torishogi", ai="easy")
        await stage.quiet()
        world.users[stage.user["ann"]].locale = "ja"
        running = await stage.slash("ann", "match", "analyse")
        assert running.text.startswith("対局 1 はまだ進行中です。終了してから分析できます。"), (
            running.text
        )
        assert "`/tora ヒント`" in running.text, running.text
        hint = await stage.slash("ann", "hint")
        assert hint.text.startswith("AI（hard）ならこう指します："), hint.text  # noqa: RUF001
        assert "画像であなたの盤面に示しています。" in hint.text, hint.text
