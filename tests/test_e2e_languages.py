"""End to end through the emulator, every player in their own language (issue 30): the
commands are synced with their German, French, Spanish, Japanese and Brazilian Portuguese
names (Discord's rules held); a German player's ``/tora settings`` answers in German, a
language picked in its form takes over at once (its form redrawn in Japanese), and "Discord's
language" gives the German back; a refusal comes in the caller's language; an admin sets the
language of the server's posts, which otherwise follows the server's preferred locale."""

from __future__ import annotations

from pathlib import Path

from test_e2e_comforts import pick, settings_form

from emulator.models import walk_components
from harness.stage import Stage


def labels(stage: Stage, name: str) -> list[str]:
    form = settings_form(stage, name)
    return [str(c.get("label", "")) for c in walk_components(form.components) if c.get("label")]


async def test_the_settings_answer_in_the_players_language(tmp_path: Path) -> None:
    async with Stage(tmp_path, ("ann", "bob", "admin")) as stage:
        world = stage.emu.world
        world.users[stage.user["ann"]].locale = "de"
        world.guilds[stage.guild].preferred_locale = "es-ES"
        synced = stage.emu.commands()[0]
        challenge = next(o for o in synced["options"] if o["name"] == "challenge")
        assert challenge["name_localizations"]["de"] == "herausfordern"
        assert challenge["name_localizations"]["pt-BR"] == "desafiar"

        shown = await stage.slash("ann", "settings")
        assert shown.text.startswith("Deine Benachrichtigungen: DM bei meinem Zug;"), shown.text
        assert "`/tora einstellungen zeitzone:`" in shown.text
        assert "Deutsch (die Sprache deines Discord)" in shown.text
        assert "Mich bei meinem Zug erwähnen: aus" in labels(stage, "ann")

        await pick(stage, "ann", "language", "ja")
        form = settings_form(stage, "ann").text()
        assert form.startswith("あなたの通知："), form  # noqa: RUF001
        assert "返信とDMの言語：日本語。" in form, form  # noqa: RUF001

        wrong = await stage.slash("ann", "settings", timezone="Mars/Olympus")
        assert "は知らないタイムゾーンです" in wrong.text, wrong.text
        back = await stage.slash("ann", "settings", language="discord")
        assert back.text.startswith("Deine Einstellungen: Zeitzone `UTC`"), back.text
        assert "Sprache: Deutsch (die Sprache deines Discord)" in back.text

        bob = await stage.slash("bob", "settings")  # en-US: English, as before
        assert bob.text.startswith("Your notifications: DM on my turn;"), bob.text

        server = await stage.slash("admin", "settings", server=True)
        assert "Language of my posts here: Español (the server's Discord language)" in (
            server.text
        ), server.text
        form = next(
            m
            for m in reversed(stage.emu.messages(stage.channel))
            if m.ephemeral_to == stage.user["admin"]
        )
        done = await stage.emu.select(stage.user["admin"], form.id, "tora:ns:sv:language", ["fr"])
        answered = await done.done(30)
        assert not answered.errors, answered.errors
        edited = next(m for m in stage.emu.messages(stage.channel) if m.id == form.id)
        assert "Language of my posts here: Français." in edited.text(), edited.text()


async def test_the_play_panel_speaks_the_players_language(tmp_path: Path) -> None:
    """The panel's own words and buttons in German, for a German player, whose opponent
    keeps English; a pick redraws the panel in German too."""
    async with Stage(tmp_path) as stage:
        stage.emu.world.users[stage.user["ann"]].locale = "de"
        await stage.slash("ann", "challenge", opponent="bob", game="torishogi", deadline="2h")
        await stage.click("bob", "Accept")
        await stage.posted("The game begins")
        panel = (await stage.open_panel("ann")).messages[0]
        assert panel.text().startswith("**Du bist am Zug** · "), panel.text()
        buttons = [c.get("label") for c in walk_components(panel.components) if c.get("type") == 2]
        assert {"Zug beenden", "Aktualisieren"} <= set(buttons), buttons  # Undo: once staged
        [select] = [c for c in walk_components(panel.components) if c.get("type") == 3]
        picked = await stage.emu.select(stage.user["ann"], panel.id, select["custom_id"], ["d2"])
        await picked.done(30)
        redrawn = next(m for m in stage.emu.messages(stage.channel) if m.id == panel.id)
        placeholders = [
            c.get("placeholder") for c in walk_components(redrawn.components) if c.get("type") == 3
        ]
        assert "Wähle eine Aktion" in placeholders, placeholders
        assert len(redrawn.text()) <= 2000
        bob = (await stage.open_panel("bob")).messages[0]  # not his turn: English, as before
        assert not bob.text().startswith("**Du"), bob.text()
