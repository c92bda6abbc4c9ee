"""End to end through the emulator, the application layer's answers in each player's
language (issue 30): a German and a Japanese player get ``/tora help`` (the quick start of
the match at hand, its commands in the names their Discord shows), ``/tora games``, the
confirmation of ``/tora resign`` with its buttons, and the refusal of a button press, each in
their own language, while a public ``/tora-ladder profile`` comes in the server's."""

from __future__ import annotations

from pathlib import Path

from bot.i18n import speaking, word
from emulator.models import Msg, walk_components
from harness.stage import Stage
from rules.torii import POWERS

# Japanese punctuation is full width
HELP_JA = "**チャットで遊ぶToriShogi：クイックスタート**"  # noqa: RUF001
GAMES_JA = "**あなたの対局**\n- 対局1 · ToriShogi：ann 対 bob、"  # noqa: RUF001
THREAD_JA = "あなたの対局には専用のスレッドがあります：<#{thread}>。"  # noqa: RUF001
RESIGN_JA = "annとの対局1を投了しますか？相手の勝ちとなり、対局は終わります。"  # noqa: RUF001


def button_labels(message: Msg) -> list[str]:
    return [str(c["label"]) for c in walk_components(message.components) if c.get("type") == 2]


async def test_help_games_and_confirmations_in_each_players_language(tmp_path: Path) -> None:
    async with Stage(tmp_path) as stage:
        users = stage.emu.world.users
        users[stage.user["ann"]].locale = "de"
        users[stage.user["bob"]].locale = "ja"
        challenge = await stage.slash("ann", "challenge", opponent="bob", game="torishogi")
        assert "Zurückziehen" in button_labels(challenge.messages[0]), challenge.messages
        await stage.slash("bob", "accept")

        help_de = await stage.slash("ann", "help")
        assert help_de.text.startswith("**ToriShogi im Chat: ein Schnellstart**"), help_de.text
        assert "`/tora herausfordern @someone spiel:torishogi`" in help_de.text, help_de.text
        assert "-# Die Schnellstarts der anderen Spiele: `/tora hilfe spiel:tora` (TORA)" in (
            help_de.text
        )
        assert help_de.ephemeral and len(help_de.messages) == 1
        help_ja = await stage.slash("bob", "help")
        assert help_ja.text.startswith(HELP_JA), help_ja.text
        assert "`/tora 挑戦 @someone" in help_ja.text, help_ja.text

        games_de = await stage.slash("ann", "games")
        assert games_de.text.startswith(
            "**Deine Partien**\n- Partie 1 · ToriShogi: ann gegen bob, "
        )
        games_ja = await stage.slash("bob", "games")
        assert games_ja.text.startswith(GAMES_JA), games_ja.text

        asked = await stage.slash("bob", "resign")
        assert asked.text == RESIGN_JA, asked.text
        assert button_labels(asked.messages[0]) == ["投了", "続ける"]
        kept = await stage.click("bob", "続ける")
        assert kept.text == "何もしていません。対局は続きます。", kept.text
        asked = await stage.slash("ann", "resign")
        assert asked.text.startswith("Partie 1 gegen bob aufgeben?"), asked.text
        assert button_labels(asked.messages[0]) == ["Aufgeben", "Weiterspielen"]
        await stage.click("ann", "Aufgeben")
        await stage.quiet()

        ended = await stage.slash("ann", "games")
        assert ended.text.startswith("Gerade läuft keine Partie von dir.\n**Kürzlich beendet**")
        assert "`/tora brett nummer:N`" in ended.text, ended.text
        assert "- Partie 1 · ToriShogi: ann gegen bob, beendet: bob gewinnt (" in ended.text

        stage.emu.world.guilds[stage.guild].preferred_locale = "de"
        profile = await stage.slash("bob", "ladder", "profile", player="ann")
        assert profile.text.startswith("ann in den Ranglisten:"), profile.text
        assert not profile.ephemeral
        stage.emu.world.guilds[stage.guild].preferred_locale = "ja"
        profile = await stage.slash("ann", "ladder", "profile", player="bob")
        assert profile.text.startswith("bobのランキング："), profile.text  # noqa: RUF001


async def test_a_spirits_power_is_offered_in_the_players_language(tmp_path: Path) -> None:
    async with Stage(tmp_path) as stage:
        stage.emu.world.users[stage.user["bob"]].locale = "de"
        await stage.slash("ann", "challenge", opponent="bob", game="torii")
        await stage.slash("bob", "accept")
        offered = await stage.emu.autocomplete(
            stage.user["bob"], stage.channel, "tora", "setup", focused="spirit", spirit="M"
        )
        with speaking("de"):
            power = word(POWERS["Monkey"])
        assert power != POWERS["Monkey"]
        assert [c["name"] for c in offered] == [f"Monkey · {power}"[:100]]


async def test_a_challenges_thread_and_its_notice_are_in_the_servers_language(
    tmp_path: Path,
) -> None:
    """The challenger reads their answer in their language; the thread's name and the
    channel's notice of it are for everyone there: in the server's."""
    async with Stage(tmp_path, ("ann", "bob", "admin")) as stage:
        await stage.slash("admin", "admin settings", threads=True)
        stage.emu.world.guilds[stage.guild].preferred_locale = "de"
        stage.emu.world.users[stage.user["ann"]].locale = "ja"
        challenge = await stage.slash("ann", "challenge", opponent="bob")
        thread = stage.emu.thread_of(stage.channel)
        assert thread is not None
        assert challenge.text.startswith(THREAD_JA.format(thread=thread)), challenge.text
        assert stage.emu.world.channels[thread].name == "ann gegen bob"
        await stage.posted(
            f"Die Herausforderung von ann an bob zu einer Partie TORA ist in <#{thread}>."
        )
