"""End to end through the emulator: the rules core's refusal reaches a German player in
German (issue 30), its notation and ruling id unchanged, while an English player's stays
byte for byte the rules' English; the Play panel's menus speak the player's language; a Torii
refusal in Japanese lists the allowed next steps in Japanese; a TORA refusal in German and its
Play panel in Japanese."""

from __future__ import annotations

from pathlib import Path

from emulator.models import walk_components
from harness.stage import Stage


async def test_a_torishogi_refusal_and_menu_in_the_players_language(tmp_path: Path) -> None:
    async with Stage(tmp_path) as stage:
        await stage.slash("ann", "challenge", opponent="bob", game="torishogi", deadline="2h")
        await stage.click("bob", "Accept")
        await stage.posted("The game begins")
        stage.emu.world.users[stage.user["ann"]].locale = "de"

        refused = await stage.slash("ann", "act", action="Falcon 4f-1a")
        assert "Ein Falcon auf 4f kann nicht nach 1a ziehen (TS3). Erlaubt: " in refused.text, (
            refused.text
        )
        stage.emu.world.users[stage.user["ann"]].locale = "en-US"
        english = await stage.slash("ann", "act", action="Falcon 4f-1a")
        assert "A Falcon on 4f cannot move to 1a (TS3). Allowed: " in english.text, english.text
        stage.emu.world.users[stage.user["ann"]].locale = "de"

        panel = (await stage.open_panel("ann")).messages[0]
        [select] = [c for c in walk_components(panel.components) if c.get("type") == 3]
        assert select["placeholder"] == "Wähle eine Figur, auf dem Brett oder in der Hand"
        picked = await stage.emu.select(stage.user["ann"], panel.id, select["custom_id"], ["d2"])
        await picked.done(30)
        labels = [
            str(o["label"])
            for c in walk_components(panel.components)
            if c.get("type") == 3
            for o in c.get("options", [])
        ]
        assert any(label.endswith("nach 5f") for label in labels), labels


async def test_a_torii_refusal_in_japanese_lists_the_next_steps_in_japanese(
    tmp_path: Path,
) -> None:
    async with Stage(tmp_path) as stage:
        await stage.slash("ann", "challenge", opponent="bob", game="torii", deadline="2h")
        await stage.click("bob", "Accept")
        await stage.slash("ann", "setup", spirit="Kitsune")
        await stage.slash("bob", "setup", spirit="Monkey")
        await stage.posted("The game begins")
        stage.emu.world.users[stage.user["ann"]].locale = "ja"

        refused = await stage.slash("ann", "act", action="3")
        assert "タイル 3 は 3 ステップですが、0 個書かれています (TI5)。可能: " in refused.text, (
            refused.text
        )
        assert "次のステップで " in refused.text and "next step" not in refused.text


async def test_a_tora_refusal_and_menu_in_the_players_language(tmp_path: Path) -> None:
    async with Stage(tmp_path) as stage:
        await stage.slash("ann", "challenge", opponent="bob", deadline="2h")
        await stage.click("bob", "Accept")
        await stage.slash("ann", "setup", strategy="aggressive")
        await stage.slash("bob", "setup", strategy="defensive")
        await stage.posted("The game begins")
        stage.emu.world.users[stage.user["ann"]].locale = "de"

        refused = await stage.slash("ann", "act", action="S v4h8 fire N")
        assert (
            "Nur Cannons feuern oder werden feuerbereit gemacht; dein Soldier auf v4h8 nicht "
            "(R21). Erlaubt: S v4h8 defend" in refused.text
        ), refused.text
        stage.emu.world.users[stage.user["ann"]].locale = "en-US"
        english = await stage.slash("ann", "act", action="S v4h8 fire N")
        assert "your Soldier on v4h8 cannot (R21). Allowed: S v4h8 defend" in english.text, (
            english.text
        )
        stage.emu.world.users[stage.user["ann"]].locale = "ja"

        panel = (await stage.open_panel("ann")).messages[0]
        [select] = [c for c in walk_components(panel.components) if c.get("type") == 3]
        assert select["placeholder"] == "駒を選択"
        descriptions = [str(o.get("description")) for o in select.get("options", [])]
        assert "4 手、その他 1" in descriptions and "4 手、射撃 4" in descriptions, descriptions
