"""End to end, the Play panel's picture guides the pick in every game: once a piece (a tile)
is picked, the panel's new picture frames it and letters each square its actions go to, and
the action menu's options start with the same letters; a command piece's move that the turn
could not end on is marked before it is staged (R30); in a one-move game a new pick replaces
the staged move. What the picture points out is read from what the renderer was given."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from bot.app import pictures
from bot.service import Pointing
from emulator.models import Msg, walk_components
from harness.stage import Stage
from rules import game_type

LABEL = re.compile(r"^(?:\u26a0 )?([A-Z]+) \u00b7 ")


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[Pointing]:
    """The marks of every private picture the bot draws."""
    seen: list[Pointing] = []
    private = pictures.PillowRenderer.private

    def spy(
        self: Any, view: Any, status: Any, marks: Pointing | None = None, language: str = "en"
    ) -> bytes:
        if marks is not None:
            seen.append(marks)
        return private(self, view, status, marks, language)

    monkeypatch.setattr(pictures.PillowRenderer, "private", spy)
    return seen


def selects(panel: Msg) -> dict[str, dict[str, Any]]:
    """The panel's select menus by level (``c``, ``g``, ``s``, ``a``)."""
    found = [c for c in walk_components(panel.components) if c.get("type") == 3]
    return {select["custom_id"].split(":")[4]: select for select in found}


async def pick(stage: Stage, name: str, level: str, value: str, channel: int) -> Msg:
    panel = stage._panel_of(channel, stage.user[name])
    select = selects(panel)[level]
    done = await stage.emu.select(stage.user[name], panel.id, select["custom_id"], [value])
    answered = await done.done(30)
    assert answered.error is None, answered.error
    return stage._panel_of(channel, stage.user[name])


async def short_tora(stage: Stage, bobs: str) -> Any:
    """A short-board TORA match begun (ann aggressive, bob ``bobs``), and its shadow game."""
    await stage.slash("ann", "challenge", opponent="bob")
    await stage.click("bob", "Accept")
    await stage.slash("ann", "setup", strategy="aggressive")
    await stage.slash("bob", "setup", strategy=bobs)
    await stage.posted("The game begins")
    answers = ({"strategy": "aggressive"}, {"strategy": bobs})
    return game_type("tora").new_game({"board": "short"}, answers)


def lettered(panel: Msg, marks: Pointing, choices: dict[str, Any]) -> None:
    """Every action option starts with the letter the picture put on its square."""
    letters = dict(marks.letters)
    options = selects(panel)["a"]["options"]
    assert options
    for option in options:
        found = LABEL.match(option["label"])
        assert found, option["label"]
        choice = choices[option["value"].removeprefix("=")]
        assert letters[choice.spot] == found[1], (option, choice)


async def test_a_tora_piece_picked_is_framed_and_its_squares_lettered(tmp_path: Path, drawn):
    async with Stage(tmp_path) as stage:
        game = await short_tora(stage, "defensive")
        group = max(game.menu(), key=lambda g: g.size)
        await stage.open_panel("ann")
        before = len(drawn)
        panel = await pick(stage, "ann", "g", group.key, stage.channel)
        assert len(drawn) == before + 1
        marks = drawn[-1]
        assert marks.picked == group.origin
        choices = {c.notation: c for c in game.choices(group.key)}
        assert {square for square, _ in marks.letters} == {c.spot for c in choices.values()}
        assert [f.name for f in panel.files] == ["your-board.png"]
        lettered(panel, marks, choices)
        assert "the picture letters where each goes" in panel.content
        first = selects(panel)["a"]["options"][0]
        staged = await pick(stage, "ann", "a", first["value"], stage.channel)
        assert "This turn so far: 1." in staged.content


async def test_r30_a_general_move_the_turn_could_not_end_on_is_marked_in_the_menu(
    tmp_path: Path, drawn
):
    """After the General's first step forward, some of its second steps would leave it where
    the Opposition's pieces reach it: those are marked, the others are not."""
    async with Stage(tmp_path) as stage:
        game = await short_tora(stage, "aggressive")
        await stage.slash("ann", "act", action="G v5h9-v7h8")
        game.apply("G v5h9-v7h8")
        choices = game.choices("Gv7h8")
        warnings = game.warnings([c.notation for c in choices])
        warned = {c.notation for c, w in zip(choices, warnings, strict=True) if w}
        assert warned and len(warned) < len(choices)
        await stage.open_panel("ann")
        panel = await pick(stage, "ann", "g", "Gv7h8", stage.channel)
        options = selects(panel)["a"]["options"]
        marked = {o["value"].removeprefix("=") for o in options if o["label"][0] == "\u26a0"}
        assert marked == warned
        assert all("R30" in o["description"] for o in options if o["label"][0] == "\u26a0")
        assert "\u26a0 marks an action after which your turn could not end" in panel.content


async def test_torishogi_letters_and_a_new_move_replaces_the_staged_one(tmp_path: Path, drawn):
    async with Stage(tmp_path) as stage:
        await stage.slash("ann", "challenge", opponent="bob", game="torishogi")
        await stage.click("bob", "Accept")
        await stage.posted("The game begins")
        game = game_type("torishogi").new_game({}, ({}, {}))
        groups = [g for g in game.menu() if g.size > 1]
        await stage.open_panel("ann")
        panel = await pick(stage, "ann", "g", groups[0].key, stage.channel)
        choices = {c.notation: c for c in game.choices(groups[0].key)}
        assert drawn[-1].picked == groups[0].origin
        lettered(panel, drawn[-1], choices)
        first = selects(panel)["a"]["options"][0]["value"]
        panel = await pick(stage, "ann", "a", first, stage.channel)
        assert "Your move is staged: End turn plays it, or pick another" in panel.content
        assert "g" in selects(panel)  # the menus stay: another move replaces it
        other = groups[1]
        panel = await pick(stage, "ann", "g", other.key, stage.channel)
        second = selects(panel)["a"]["options"][0]["value"].removeprefix("=")
        panel = await pick(stage, "ann", "a", "=" + second, stage.channel)
        assert f"This turn so far: 1. {game.choices(other.key)[0].label}" not in panel.content
        assert panel.content.count("This turn so far: 1.") == 1
        typed = await stage.slash("ann", "act", action=first.removeprefix("="))
        assert typed.text.startswith("Staged ") and " in place of " in typed.text
        await stage.click("ann", "End turn")
        post = await stage.posted("ann (Challenger) ended their turn")
        assert f"`{first.removeprefix('=')}`" in post
        assert f"`{second}`" not in post


async def test_a_torii_tile_picked_frames_the_spirit_and_letters_its_landings(
    tmp_path: Path, drawn
):
    async with Stage(tmp_path) as stage:
        await stage.slash("ann", "challenge", opponent="bob", game="torii")
        await stage.click("bob", "Accept")
        await stage.slash("ann", "setup", spirit="Crane")
        await stage.slash("bob", "setup", spirit="Deer")
        await stage.posted("The game begins")
        game = game_type("torii").new_game(
            {"powers": True}, ({"spirit": "Crane"}, {"spirit": "Deer"})
        )
        tile = next(g for g in game.menu() if g.key.startswith("tile-") and g.size <= 25)
        await stage.open_panel("ann")
        panel = await pick(stage, "ann", "g", tile.key, stage.channel)
        assert drawn[-1].picked == tile.origin
        lettered(panel, drawn[-1], {c.notation: c for c in game.choices(tile.key)})
        assert selects(panel)["g"]["placeholder"] == "Choose a tile, or a power first"


async def test_a_new_kind_of_piece_picked_shows_the_board_without_the_last_pieces_letters(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On the long board the panel first asks for a kind of piece. Once a piece was picked
    (its picture framed and lettered), picking another kind redraws the player's board
    without those letters. Regression: the previous piece's lettered picture stayed until a
    piece of the new kind was picked, its letters matching no menu shown."""
    every: list[Pointing | None] = []
    private = pictures.PillowRenderer.private

    def spy(
        self: Any, view: Any, status: Any, marks: Pointing | None = None, language: str = "en"
    ) -> bytes:
        every.append(marks)
        return private(self, view, status, marks, language)

    monkeypatch.setattr(pictures.PillowRenderer, "private", spy)
    async with Stage(tmp_path) as stage:
        await stage.slash("ann", "challenge", opponent="bob", board="long")
        await stage.click("bob", "Accept")
        await stage.slash("ann", "setup", strategy="aggressive", ruler="K")
        await stage.slash("bob", "setup", strategy="defensive", ruler="Q")
        await stage.posted("The game begins")
        panel = (await stage.open_panel("ann")).messages[0]
        kinds = [o["value"] for o in selects(panel)["c"]["options"]]
        assert len(kinds) > 1, kinds
        panel = await pick(stage, "ann", "c", kinds[0], stage.channel)
        piece = selects(panel)["g"]["options"][0]["value"]
        panel = await pick(stage, "ann", "g", piece, stage.channel)
        assert every[-1] is not None and every[-1].letters  # the piece's lettered picture
        drawn_before = len(every)
        panel = await pick(stage, "ann", "c", kinds[1], stage.channel)
        assert len(every) == drawn_before + 1, "the board drawn again"
        assert every[-1] is None or not every[-1].letters, every[-1]
        assert [f.name for f in panel.files] == ["your-board.png"]
