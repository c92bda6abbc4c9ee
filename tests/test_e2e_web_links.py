"""End to end through the emulator, the web board's links in Discord: a player's private
"Open the board" link on their Play panel and their "your turn" DM (with the warning that
whoever holds it plays their turns), the public "Match page" link on every turn post and the
match's end, ``/tora board link:new`` replacing a player's link, and no link anywhere when
the web board is off."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_e2e_web import started

from bot.app.board_links import NOT_YOURS, WEB_OFF
from bot.app.links import REPLACED, LinkRefused, Links
from bot.service.links import BOARD, PAGE
from emulator import Msg
from emulator.errors import ApiError
from emulator.messages import check_components
from harness.stage import Stage
from rules import Side

BASE = "https://tora.example"


def web_on(stage: Stage) -> Links:
    """The bot's links, named by a public address (as with TORA_WEB_URL)."""
    bot = stage.bot
    assert bot is not None
    bot.links.base_url = BASE
    return bot.links


def token_of(url: str) -> str:
    head, _hash, token = url.partition("#")
    assert head == f"{BASE}/play" and token
    return token


def links_on(stage: Stage, channel: int, public: bool = False) -> list[tuple[str, str]]:
    """The links in ``channel`` (``public``: only on what everyone there sees)."""
    shown = stage.emu.public_messages(channel) if public else stage.emu.messages(channel)
    return [
        (str(button["label"]), str(button["url"]))
        for msg in shown
        for button in msg.buttons()
        if "url" in button
    ]


async def test_players_get_their_board_and_everyone_the_match_page(tmp_path: Path) -> None:
    async with Stage(tmp_path, ("ann", "bob", "carl")) as stage:
        links = web_on(stage)
        match = await started(stage)
        page = f"{BASE}/m/{match}"
        assert stage.emu.find_link(stage.channel, PAGE) == page  # on "The game begins"
        ann_dm = stage.emu.dm_channel(stage.user["ann"])
        dm = stage.emu.messages(ann_dm)[-1]
        assert "whoever holds it can play your turns" in dm.text()
        token = token_of(stage.emu.find_link(ann_dm, BOARD))
        assert await links.check(token) == (match, Side.CHALLENGER)

        panel = await stage.open_panel("ann")
        assert panel.error is None
        on_panel = stage.emu.find_link(stage.channel, BOARD, user=stage.user["ann"])
        assert token_of(on_panel) == token

        turn = await stage.slash("ann", "end")
        assert turn.error is None
        await stage.posted("to act")
        await stage.quiet()
        bob_dm = stage.emu.dm_channel(stage.user["bob"])
        bob_token = token_of(stage.emu.find_link(bob_dm, BOARD))
        assert await links.check(bob_token) == (match, Side.OPPOSITION)
        public = links_on(stage, stage.channel, public=True)
        assert {label for label, _url in public if _url.startswith(f"{BASE}/play")} == set()
        assert [url for label, url in public if label == PAGE][-1] == page

        await stage.slash("bob", "resign")
        await stage.click("bob", "Resign")  # confirmed
        await stage.posted("bob (Opposition) resigns")
        await stage.quiet()
        ended = stage.emu.public_messages(stage.channel)[-1]
        assert [b["url"] for b in ended.buttons() if "url" in b] == [page]
        refused = await stage.slash("carl", "board", link="new")
        assert "no live match" in refused.text


async def test_a_new_link_replaces_the_old_one(tmp_path: Path) -> None:
    async with Stage(tmp_path, ("ann", "bob", "carl")) as stage:
        links = web_on(stage)
        match = await started(stage)
        old = token_of(stage.emu.find_link(stage.emu.dm_channel(stage.user["ann"]), BOARD))
        answer = await stage.slash("ann", "board", link="new")
        assert answer.error is None
        shown = answer.messages[-1]
        assert shown.ephemeral_to == stage.user["ann"]
        assert "Your earlier link no longer works" in shown.text()
        assert "whoever holds it can play your turns" in shown.text()
        [url] = [b["url"] for b in shown.buttons() if b.get("label") == BOARD]
        new = token_of(url)
        assert new != old and await links.check(new) == (match, Side.CHALLENGER)
        try:
            await links.check(old)
        except LinkRefused as refusal:
            assert refusal.message == REPLACED
        else:
            raise AssertionError("the replaced link still works")
        panel = await stage.open_panel("ann")
        assert panel.error is None
        assert token_of(stage.emu.find_link(stage.channel, BOARD, user=stage.user["ann"])) == new
        stranger = await stage.slash("carl", "board", link="new")
        assert NOT_YOURS in stranger.text


def buttons_of(msg: Msg) -> tuple[list[str], list[tuple[str, bool]]]:
    """A message's link labels, and its action buttons (label, disabled)."""
    shown = msg.buttons()
    links = [str(b["label"]) for b in shown if "url" in b]
    actions = [(str(b["label"]), bool(b.get("disabled"))) for b in shown if "url" not in b]
    return links, actions


TURN_BUTTONS = ("Play", "End turn", "Preview")


async def test_links_stay_when_a_turn_s_buttons_are_disabled_or_removed(tmp_path: Path) -> None:
    async with Stage(tmp_path, ("ann", "bob")) as stage:
        web_on(stage)
        await started(stage)
        panel = await stage.open_panel("ann")
        your_turn = stage.emu.messages(stage.emu.dm_channel(stage.user["ann"]))[-1]
        assert buttons_of(your_turn) == ([BOARD], [(label, False) for label in TURN_BUTTONS])
        await stage.slash("ann", "end")
        await stage.posted("to act")
        await stage.quiet()

        assert buttons_of(your_turn) == ([BOARD], [(label, True) for label in TURN_BUTTONS])
        [shown] = [m for m in panel.ephemeral if m.buttons()]
        assert buttons_of(shown) == ([BOARD], [])
        turn_post = stage.emu.public_messages(stage.channel)[-1]
        assert buttons_of(turn_post) == ([PAGE], [("Give +1 day", False)])  # the waiting side's


async def test_with_the_web_board_off_no_link_appears(tmp_path: Path) -> None:
    async with Stage(tmp_path, web=False) as stage:
        await started(stage)
        await stage.open_panel("ann")
        await stage.slash("ann", "end")
        await stage.posted("to act")
        await stage.quiet()
        channels = [stage.channel, *(stage.emu.dm_channel(stage.user[n]) for n in ("ann", "bob"))]
        assert [link for channel in channels for link in links_on(stage, channel)] == []
        dms = [m.text() for n in ("ann", "bob") for m in stage.emu.dms(stage.user[n])]
        assert not any("whoever holds it" in text for text in dms)
        refused = await stage.slash("ann", "board", link="new")
        assert WEB_OFF in refused.text


@pytest.mark.parametrize(
    "button",
    [
        {"type": 2, "style": 5, "label": "x", "url": BASE, "custom_id": "tora:x"},
        {"type": 2, "style": 5, "label": "x"},
        {"type": 2, "style": 5, "label": "x", "url": "javascript:alert(1)"},
        {"type": 2, "style": 5, "label": "x", "url": BASE + "/" + "a" * 600},
        {"type": 2, "style": 1, "label": "x", "custom_id": "tora:x", "url": BASE},
        {"type": 2, "style": 1, "label": "x"},
    ],
)
def test_the_emulator_refuses_buttons_discord_refuses(button: dict[str, object]) -> None:
    with pytest.raises(ApiError):
        check_components([{"type": 1, "components": [button]}], 0, "")


def test_the_emulator_takes_a_link_button() -> None:
    link = {"type": 2, "style": 5, "label": PAGE, "url": f"{BASE}/m/1"}
    check_components([{"type": 1, "components": [link]}], 0, "")
