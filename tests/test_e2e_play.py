"""End to end, the play loop without notation: a whole short game played with the Play
panel alone (one player in the channel, the other from the Play button of their "your turn"
DMs), stale and doubled clicks, buttons disabled once their turn is over, a draw agreed with
buttons, a finished match's board, record and replay, and names full of markdown and
mentions that ping nobody."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import bot.discord.sweeper as sweeper
from bot.app import menus
from emulator import Interaction
from emulator.models import walk_components
from harness.stage import Stage, panel_turn, planned_turn
from rules.tora import Game, Options, Side

SEED = 11


async def started(stage: Stage, ann: str = "ann", bob: str = "bob") -> Game:
    await stage.slash(ann, "challenge", opponent=bob)
    await stage.click(bob, "Accept")
    await stage.slash(ann, "setup", strategy="aggressive")
    await stage.slash(bob, "setup", strategy="defensive")
    await stage.posted("The game begins")
    return Game(board="short", challenger_setup="aggressive", opposition_setup="defensive")


async def test_a_short_game_played_with_the_menus_alone(tmp_path: Path) -> None:
    async with Stage(tmp_path) as stage:
        game = await started(stage)
        rng = random.Random(SEED)
        bob_dm = stage.emu.dm_channel(stage.user["bob"])
        interactions: list[Interaction] = []
        while not game.is_over():
            if game.side == Side.CHALLENGER:
                interactions.append(await stage.open_panel("ann"))
                interactions += await panel_turn(stage, game, "ann", stage.channel, rng)
            else:  # from the Play button of his "your turn" message
                interactions.append(await stage.click("bob", "Play", channel=bob_dm))
                interactions += await panel_turn(stage, game, "bob", bob_dm, rng)
        assert all(i.error is None for i in interactions)
        typed = [
            i
            for i in interactions
            if i.payload["type"] == 2 and i.payload["data"]["name"] != "tora"
        ]
        assert typed == []
        commands = {
            o["name"]
            for i in interactions
            if i.payload["type"] == 2
            for o in i.payload["data"]["options"]
        }
        assert commands <= {"play"}  # no act, no notation typed
        await stage.posted("Final score")
        public = " ".join(m.text() for m in stage.emu.public_messages(stage.channel))
        assert "ann's " in public and "bob's " in public  # the turns in plain words too


async def test_stale_and_double_clicks_and_disabled_buttons(tmp_path: Path) -> None:
    async with Stage(tmp_path) as stage:
        game = await started(stage)
        ann = stage.user["ann"]
        older = (await stage.open_panel("ann")).messages[0]
        panel = (await stage.open_panel("ann")).messages[0]
        text = game.notations(game.legal_actions())[0]
        group = game.choices()[0].group
        await stage.pick("ann", text, menus.route(game.menu(), game.choices(group), text))
        game.apply(text)
        end = next(b for b in panel.buttons() if b["label"] == "End turn")
        clicks = [await stage.emu.click(ann, panel.id, end["custom_id"]) for _ in range(2)]
        for click in clicks:  # a double click: both sent before either is answered
            await click.done(30)

        def told() -> str:
            return " ".join(m.text() for c in clicks for m in c.followups)

        await stage.emu.wait_until(lambda: told() or None, 30, "the second click's answer")
        assert "That turn has already ended" in told()
        assert "has moved on" not in told()
        await stage.posted("ann (Challenger) ended their turn")
        await stage.emu.wait_until(
            lambda: (
                not [c for c in walk_components(older.components) if c.get("type") == 3] or None
            ),
            30,
            "the older panel's menus gone",
        )  # the turn it was for is over
        bob_dm = stage.emu.dm_channel(stage.user["bob"])
        prompt = await stage.emu.wait_for_dm(
            stage.user["bob"], lambda m: "Your turn against" in m.text(), 30
        )
        actions = [b for b in prompt.buttons() if "url" not in b]  # links never go stale
        assert actions and all(not b.get("disabled") for b in actions)
        game.end_turn()
        await stage.click("bob", "Play", channel=bob_dm)
        await panel_turn(stage, game, "bob", bob_dm, random.Random(SEED))
        await stage.emu.wait_until(
            lambda: all(b.get("disabled") for b in prompt.buttons() if "url" not in b) or None,
            30,
            "bob's turn prompt disabled once his turn is over",
        )


def _selects(msg) -> list[dict]:
    return [c for c in walk_components(msg.components) if c.get("type") == 3]


def _offered(msg) -> set[str]:
    return {o["value"] for s in _selects(msg) for o in s.get("options", [])}


async def _piece_menu(stage: Stage, name: str, msg, square: str) -> dict:
    """Pick the piece on ``square`` in the panel ``msg``: its action menu."""
    first = _selects(msg)[0]
    value = next(o["value"] for o in first["options"] if square in o["value"])
    await (await stage.emu.select(stage.user[name], msg.id, first["custom_id"], [value])).done(30)
    return _selects(msg)[-1]


async def test_a_panels_menu_older_than_a_staging_elsewhere_shows_the_turn_as_it_is(
    tmp_path: Path,
) -> None:
    """ann has a panel in the channel open on her General's moves, and stages that General's
    move from a second panel in her DMs. A pick in the channel's still shown action menu
    answers with the fresh panel and says her turn changed since that menu was shown.
    Regression: it was refused with the rules' error ("There is no piece of yours on v5h9
    (R8). Allowed: ...") and the same dead options stayed."""
    async with Stage(tmp_path) as stage:
        await started(stage)
        ann = stage.user["ann"]
        dm = stage.emu.dm_channel(ann)
        chan = (await stage.open_panel("ann")).messages[0]
        actions = await _piece_menu(stage, "ann", chan, "v5h9")
        assert "=G v5h9-v6h9" in _offered(chan)
        await stage.open_panel("ann", channel=dm)
        await stage.pick("ann", "G v5h9-v4h9", ("", "Gv5h9", None), channel=dm)
        pick = await stage.emu.select(ann, chan.id, actions["custom_id"], ["=G v5h9-v6h9"])
        pick = await pick.done(30)
        await stage.quiet()
        told = " ".join([pick.text or "", *(m.text() for m in pick.followups), chan.text()])
        assert "There is no piece of yours" not in told, told
        assert "changed since that menu was shown" in chan.text(), chan.text()
        assert "=G v5h9-v6h9" not in _offered(chan)  # not left to fail again
        assert "This turn so far: 1. G v5h9-v4h9" in chan.text(), chan.text()


async def test_the_play_panel_names_its_match_and_game_open_and_ended(tmp_path: Path) -> None:
    """The Play panel's header names the match and its game, and so does the text its End
    turn leaves. Regression: it said "Match 1 against bob", never which game (TORA), unlike
    the "your turn" DM ("Match 1 · TORA · ann vs bob"), and the ended panel named neither."""
    async with Stage(tmp_path) as stage:
        await started(stage)
        panel = (await stage.open_panel("ann")).messages[0]
        header = panel.text().splitlines()[0]
        assert "Match 1 · TORA against bob" in header, header
        await stage.pick("ann", "G v5h9-v4h9", ("", "Gv5h9", None))
        await stage.click("ann", "End turn")
        await stage.quiet()
        first, *rest = panel.text().splitlines()
        assert first == "**Match 1 · TORA against bob**", panel.text()
        assert rest[0].startswith("Your turn is over."), panel.text()


async def test_the_panels_undo_shows_once_something_is_staged(tmp_path: Path) -> None:
    """The Play panel offers Undo only with an action staged to take back. Regression: it
    was always shown, and with nothing staged it answered "nothing to take back": a dead
    button."""
    async with Stage(tmp_path) as stage:
        await started(stage)
        panel = (await stage.open_panel("ann")).messages[0]

        def labels() -> list[str]:
            return [b.get("label") for b in panel.buttons() if "url" not in b]

        assert labels() == ["End turn", "Refresh"], labels()
        await stage.pick("ann", "G v5h9-v4h9", ("", "Gv5h9", None))
        assert labels() == ["End turn", "Undo", "Refresh"], labels()
        undone = await stage.click("ann", "Undo")
        assert undone.error is None
        await stage.quiet()
        assert labels() == ["End turn", "Refresh"], labels()


async def test_a_panel_of_an_earlier_turn_shows_the_players_turn_now(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ann's panel is left from her first turn, older than an interaction token lives
    (TOKEN_AGE 0: the bot can no longer turn it off); she plays that turn by commands, bob
    answers, and it is her turn again. A pick in the old panel answers with her fresh panel,
    saying the menu was for an earlier turn. Regression: it said "That turn has already
    ended... See the match now with /tora board" and turned the panel off, though it was her
    turn."""
    monkeypatch.setattr(sweeper, "TOKEN_AGE", 0.0)
    async with Stage(tmp_path) as stage:
        await started(stage)
        ann = stage.user["ann"]
        old = (await stage.open_panel("ann")).messages[0]
        first = _selects(old)[0]
        await stage.slash("ann", "act", action="G v5h9-v4h9")
        await stage.slash("ann", "end")
        await stage.slash("bob", "act", action="S v4h2 defend")
        await stage.slash("bob", "end")
        await stage.posted("bob (Opposition) ended their turn")
        value = first["options"][0]["value"]
        pick = await (await stage.emu.select(ann, old.id, first["custom_id"], [value])).done(30)
        await stage.quiet()
        told = " ".join([pick.text or "", *(m.text() for m in pick.followups)])
        assert "already ended" not in told, told
        assert "was for an earlier turn" in old.text(), old.text()
        assert old.text().startswith("**Your turn**"), old.text()
        assert _selects(old), "the fresh panel's menus"


async def test_a_turn_prompt_is_disabled_without_being_read_back_or_kept_in_memory(
    tmp_path: Path,
) -> None:
    async with Stage(tmp_path) as stage:
        game = await started(stage)
        ann = stage.user["ann"]
        prompt = await stage.emu.wait_for_dm(ann, lambda m: "Your turn against" in m.text(), 30)
        for action in planned_turn(game, random.Random(SEED), attack=False):
            assert (await stage.slash("ann", "act", action=action)).error is None
        assert (await stage.slash("ann", "end")).error is None
        await stage.emu.wait_until(
            lambda: all(b.get("disabled") for b in prompt.buttons() if "url" not in b) or None,
            30,
            "ann's turn prompt disabled once her turn is over",
        )
        path = f"/channels/{prompt.channel_id}/messages/{prompt.id}"
        assert [r.method for r in stage.emu.requests if r.path == path] == ["PATCH"]
        assert stage.bot is not None  # and its disabled buttons are not kept to dispatch to
        assert stage.bot.client.persistent_views == []


async def test_a_draw_agreed_with_buttons_then_the_finished_match(tmp_path: Path) -> None:
    async with Stage(tmp_path, ("ann", "bob", "carl")) as stage:
        await started(stage)
        await stage.slash("ann", "draw")
        offer = await stage.posted("proposes a draw")
        assert "bob" in offer
        accepted = await stage.click("bob", "Accept the draw")
        assert accepted.error is None
        await stage.posted("agreed to a draw")
        board = await stage.slash("carl", "board")  # nothing runs here: the last match
        assert board.text.startswith("Match 1 (TORA) ended: a tie (agreed draw). Its final board:")
        assert board.files and board.files[0].name == "board.png"
        record = await stage.slash("carl", "record")
        assert record.files[0].name == "tora-match-1.tora"
        assert '[Result "1/2-1/2"]' in record.files[0].data.decode()
        replay = await stage.slash("carl", "replay")
        await stage.emu.wait_until(lambda: replay.files or None, 30, "the replay")
        assert replay.files[0].name == "tora-match-1.gif"


async def test_markdown_and_mentions_in_names_ping_nobody(tmp_path: Path) -> None:
    evil = "**ev*il** @everyone <@&1>"
    async with Stage(tmp_path, ("ann", evil)) as stage:
        await started(stage, "ann", evil)
        await stage.slash(evil, "draw")
        await stage.posted("proposes a draw")
        posts = stage.emu.public_messages(stage.channel)
        shown = " ".join(m.text() for m in posts)
        assert "\\*\\*ev\\*il\\*\\*" in shown and "@\u200beveryone" in shown
        allowed = {f"user:{stage.user['ann']}", f"user:{stage.user[evil]}"}
        assert all(m.pinged <= allowed for m in posts)  # never everyone, never a role
        assert not any("everyone" in m.pinged or "here" in m.pinged for m in posts)


async def test_long_board_turns_with_a_hidden_assassin_played_with_the_menus(
    tmp_path: Path,
) -> None:
    """ann plays from her DMs (her menus hold her hidden Assassin, for her alone), bob in
    the channel; neither types any notation."""
    async with Stage(tmp_path) as stage:
        ann_dm = stage.emu.dm_channel(stage.user["ann"])
        await stage.slash("ann", "challenge", opponent="bob", board="long", assassins=True)
        await stage.click("bob", "Accept")
        await stage.slash("ann", "setup", strategy="aggressive", ruler="K", channel=ann_dm)
        await stage.slash("ann", "setup", assassin="v3h17", channel=ann_dm)
        await stage.slash("bob", "setup", strategy="defensive", ruler="Q", assassin="none")
        await stage.posted("The game begins")
        options = Options(
            board="long",
            assassins=True,
            challenger_setup="aggressive",
            opposition_setup="defensive",
            rulers=("K", "Q"),
        )
        game = Game(options, assassin_starts=("v3h17", None))
        rng = random.Random(SEED)
        hidden = game.choices(next(g.key for g in game.menu() if g.key.startswith("X")))
        interactions = []
        for turn in range(4):
            if turn % 2 == 0:
                interactions.append(await stage.open_panel("ann", channel=ann_dm))
                interactions += await panel_turn(stage, game, "ann", ann_dm, rng, attack=False)
            else:
                interactions.append(await stage.open_panel("bob"))
                interactions += await panel_turn(stage, game, "bob", stage.channel, rng)
        assert all(i.error is None for i in interactions)
        await stage.quiet()
        public = stage.emu.everything_public(stage.channel).decode("latin-1")
        bobs = " ".join(m.text() for m in stage.emu.dms(stage.user["bob"]))
        for text in (public, bobs):
            assert not any(choice.notation in text for choice in hidden)  # her X moves


async def test_the_your_turn_dm_tells_what_the_opponent_did(tmp_path: Path) -> None:
    """A player who follows by DM needs not open the channel: the notice names the match and
    its game, says the opponent's turn in words with its notation, the score, and the time
    left."""
    async with Stage(tmp_path) as stage:
        await started(stage)
        await stage.slash("ann", "act", action="G v5h9-v4h9")
        await stage.slash("ann", "end")
        notice = await stage.emu.wait_for_dm(
            stage.user["bob"], lambda m: "Your turn against" in m.text(), 30
        )
        text = notice.text()
        assert "Match 1 \u00b7 TORA \u00b7 ann vs bob" in text
        assert "ann (Challenger) ended their turn:" in text
        assert "- ann's General moves v5h9-v4h9 \u00b7 `G v5h9-v4h9`" in text
        assert "Score: ann 0, bob 0" in text
        assert "Your turn against ann (Challenger): 2 actions in round 1, by <t:" in text
