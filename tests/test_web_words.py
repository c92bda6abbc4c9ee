"""The web board's words: what a page shows after an action says what happened and what the
page offers next, never Discord's commands, markdown or timestamps; and a player's setup is
done on their page, its board the match's own with every square to click."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import web_world
from hypothesis import given
from hypothesis import strategies as st
from web_world import ANN, BOB, HERE, World

from bot.app.page_words import page_text
from bot.i18n import _, slash, speaking
from bot.service import Terms, User
from rules import Side

C, O = Side.CHALLENGER, Side.OPPOSITION
DISCORD = re.compile(r"`|\*\*|/tora|<t:|^-# ", re.MULTILINE)


@pytest.fixture
async def w(tmp_path: Path):
    async with World(tmp_path / "web.sqlite3") as world:
        yield world


async def test_the_common_actions_are_answered_in_the_pages_words(w: World) -> None:
    match = await w.playing()
    ann, bob = await w.token(match, C), await w.token(match, O)
    notation = await w.first_action(match, C)
    said: list[str] = []
    for verb, token, body in (
        ("act", ann, {"stamp": 1, "notation": notation}),
        ("undo", ann, {"stamp": 1}),
        ("act", ann, {"stamp": 1, "notation": notation}),
        ("end", ann, {"stamp": 1}),
        ("pause", bob, {"stamp": 2}),
        ("answer", ann, {"stamp": 2, "kind": "pause", "yes": True}),
        ("resume", ann, {"stamp": 2}),
        ("draw", bob, {"stamp": 2}),
        ("answer", ann, {"stamp": 2, "kind": "draw", "yes": False}),
        ("draw", ann, {"stamp": 2}),  # bob's, declined, is not made again this turn
        ("answer", bob, {"stamp": 2, "kind": "draw", "yes": True}),
    ):
        status, answer, _ = await w.post(verb, token, body)
        assert status == 200, (verb, answer)
        said.append(answer["said"])
    assert said[0].startswith(f"Staged: {notation}") and "End turn" in said[0]
    assert said[1].startswith("Taken back") and "Click a piece" in said[1]
    for text in said:
        assert text and not DISCORD.search(text), text


async def test_refusals_name_the_pages_controls_not_commands(w: World) -> None:
    match = await w.playing()
    ann = await w.token(match, C)
    refused = []
    for verb, body in (
        ("act", {"stamp": 1, "notation": "zzz"}),
        ("undo", {"stamp": 1}),
        ("answer", {"stamp": 1, "kind": "draw", "yes": True}),
        ("end", {"stamp": 7}),
    ):
        status, answer, _ = await w.post(verb, ann, body)
        assert status == 409, (verb, answer)
        refused.append(answer["error"])
    for text in refused:
        assert text and not DISCORD.search(text), text


def test_discord_markdown_and_commands_become_page_text() -> None:
    text = (
        "**Match 3**: it is __your__ turn, due <t:1700000000:R>.\n"
        "-# Whoever holds it plays: `/tora board link:new` replaces it.\n"
        "Take one back with `/tora undo`, or end it with `/tora end`. A \\*star\\*."
    )
    assert page_text(text) == (
        "Match 3: it is your turn, due 2023-11-14 22:13 UTC.\n"
        "Take one back with “Undo”, or end it with “End turn”. A *star*."
    )


@pytest.mark.parametrize("language", ["en", "de", "ja"])
def test_a_match_command_in_a_reply_is_the_pages_control_in_every_language(
    language: str,
) -> None:
    """Regression: once ``/tora match resume`` had become ``/tora-match resume`` (a command
    of its own), the page no longer knew it and dropped the sentence naming it (a page's act
    during a pause lost "Resume it first with ..."). Its control is named in its place."""
    with speaking(language):
        control = _("“{control}”", control=_("Resume the clock"))
        said = page_text(f"Paused. Resume it first with {slash('tora match resume')}.")
        assert said == f"Paused. Resume it first with {control}."


@given(st.text(max_size=300))
def test_any_text_is_made_page_text_without_fail(text: str) -> None:
    assert isinstance(page_text(text), str)


async def test_a_long_board_setup_is_done_on_the_page(w: World) -> None:
    reply = await w.service.challenge(
        HERE, ANN, BOB, Terms(options={"board": "long", "assassins": True})
    )
    await w.service.accept(HERE, BOB)
    assert reply.stamp is not None
    match = reply.stamp.match
    ann = await w.token(match, C)
    mine = await w.me(match, C)
    assert len(mine["board"]["cells"]) == 17 * 17  # the match's own board, to click on
    assert not DISCORD.search(str(mine["setup"]))
    for answers in ({"strategy": "defensive"}, {"ruler": "Q"}):
        status, state, _ = await w.post("setup", ann, {"stamp": 0, "answers": answers})
        assert status == 200 and not DISCORD.search(state["said"]), state
    field = next(f for f in state["setup"]["fields"] if f["name"] == "assassin")
    square = next(o for o in field["options"] if o != "none")
    assert square in state["board"]["cells"]  # the question's answers are squares to click
    status, state, _ = await w.post("setup", ann, {"stamp": 0, "answers": {"assassin": square}})
    assert status == 200 and state["setup"]["done"]
    theirs = await w.me(match, O)
    assert theirs["board"] == (await w.me(match, O))["board"]
    assert not theirs["setup"]["done"]


async def test_the_opponents_setup_page_is_the_same_whatever_one_chose(tmp_path: Path) -> None:
    seen = []
    for n, strategy in enumerate(("defensive", "aggressive")):
        async with World(tmp_path / f"twin{n}.sqlite3") as w:
            reply = await w.service.challenge(
                HERE, ANN, BOB, Terms(options={"board": "long", "assassins": True})
            )
            await w.service.accept(HERE, BOB)
            assert reply.stamp is not None
            match = reply.stamp.match
            await w.service.setup(HERE, ANN, {"strategy": strategy, "ruler": "K"})
            fields = (await w.me(match, C))["setup"]["fields"]
            squares = next(f["options"] for f in fields if f["name"] == "assassin")
            await w.service.setup(HERE, ANN, {"assassin": squares[0] if n == 0 else "none"})
            bob = await w.me(match, O)
            _status, png = await w.get(bob["board"]["url"], await w.token(match, O))
            _status, public = await w.get(f"/api/m/{match}")
            seen.append((bob["board"], bob["setup"], png, public))
    assert seen[0] == seen[1]


async def test_the_web_boards_answer_names_a_bracketed_player_as_written(
    tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """bob is "[TAG] bob" (a clan tag: common on Discord) and offers a draw; ann declines it
    on her web page: the page says "You declined [TAG] bob's draw offer", every character
    ``texts.escape`` escapes for Discord shown as written (``ESCAPED`` is built from
    ``MARKDOWN``), where it showed "\\[TAG\\] bob"."""
    monkeypatch.setattr(web_world, "BOB", User(2, "[TAG] bob"))
    async with World(tmp_path / "web.sqlite3") as w:
        match = await w.playing()
        ann, bob = await w.token(match, Side.CHALLENGER), await w.token(match, Side.OPPOSITION)
        notation = await w.first_action(match, Side.CHALLENGER)
        said = []
        for verb, token, body in (
            ("act", ann, {"stamp": 1, "notation": notation}),
            ("end", ann, {"stamp": 1}),
            ("draw", bob, {"stamp": 2}),
            ("answer", ann, {"stamp": 2, "kind": "draw", "yes": False}),
        ):
            status, answer, _ = await w.post(verb, token, body)
            assert status == 200, (verb, answer)
            said.append(answer["said"])
    named = [text for text in said if "TAG" in text]
    assert named, said
    assert all("[TAG] bob" in text and "\\" not in text for text in named), named
