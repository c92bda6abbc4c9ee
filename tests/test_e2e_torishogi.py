"""End to end against the local Discord emulator: a whole ToriShogi match, played
with the Play panel's menus and with typed notation (Fairy-Stockfish's and the readable one),
with drops, promotions and a checkmate; its record and replay; then its ladder, rated apart
from TORA's. The menus, autocomplete and posts speak the coordinates the board shows (TS1)."""

from __future__ import annotations

import random
from pathlib import Path

from bot.app import menus
from emulator.models import Msg, walk_components
from harness.stage import Stage
from rules import Side
from rules.torishogi import Move, ToriShogiGame
from rules.torishogi.pieces import NAME

SEED = 43  # with ``pick``: checkmate after 35 moves, with drops and promotions on the way


def pick(game: ToriShogiGame, rng: random.Random) -> Move:
    """A random move, keen on captures, promotions and drops."""
    moves = game.legal_actions()
    keen = [m for m in moves if m.captured or m.promotes or m.origin is None]
    return rng.choice(keen if keen and rng.random() < 0.7 else moves)


def readable(move: Move) -> str:
    """The readable notation of a board move: "Falcon d2-c2", "Swallow c5-c6+"."""
    return f"{NAME[move.kind]} {move.uci[:2]}-{move.uci[2:4]}{'+' if move.promotes else ''}"


async def test_a_torishogi_match_from_challenge_to_checkmate_then_its_ladder(tmp_path: Path):
    async with Stage(tmp_path, ("ann", "bob", "cid", "dan")) as stage:
        challenge = await stage.slash(
            "ann", "challenge", opponent="bob", game="torishogi", deadline="2h"
        )
        assert challenge.error is None and challenge.ephemeral
        await stage.posted("ann challenges bob to a match of ToriShogi")
        refused = await stage.slash("bob", "challenge", game="torishogi", board="long")
        assert "ToriShogi is played without a choice of board" in refused.text, refused.text
        accepted = await stage.click("bob", "Accept")
        assert accepted.text == "You accepted the challenge: the game begins."
        begins = await stage.posted("The game begins")
        assert "ann (Challenger) to act: a move" in stage.names_for_ids(begins)

        game, rng = ToriShogiGame(), random.Random(SEED)
        drops = promotions = 0
        ply = 0
        while not game.is_over():
            name = "ann" if game.side == Side.CHALLENGER else "bob"
            move = pick(game, rng)
            drops += move.origin is None
            promotions += move.promotes
            if ply % 3 == 0:  # the Play panel's menus alone
                await stage.open_panel(name)
                group = next(c.group for c in game.choices() if c.notation == move.uci)
                path = menus.route(game.menu(), game.choices(group), move.uci)
                await stage.pick(name, move.uci, path)
            else:  # typed: the readable notation for board moves now and then
                text = readable(move) if ply % 3 == 2 and move.origin else move.uci
                staged = await stage.slash(name, "act", action=text)
                assert staged.text.startswith("Staged:"), staged.text
                assert staged.files and staged.ephemeral
            game.apply(move)
            game.end_turn()
            ended = await stage.click(name, "End turn")
            ply += 1
            if not game.is_over():
                assert ended.text.endswith("Your turn is over."), ended.text
        assert game.outcome().reason == "checkmate" and drops and promotions
        assert "Your turn ended the match: " in ended.text, ended.text
        assert "wins (checkmate)" in ended.text
        winner = "ann" if game.outcome().winner == Side.CHALLENGER else "bob"
        final = await stage.posted("The full record is attached.")
        assert winner in final and "checkmate" in final
        last = stage.emu.public_messages(stage.channel)[-1]
        assert {f.name for f in last.files} == {"board.png", "torishogi-match-1.torishogi"}
        record = last.files[1 if last.files[1].name.endswith("shogi") else 0].data.decode()
        assert record.startswith('[Game "torishogi"]')
        assert sum(line[:2] in ("C:", "O:") for line in record.splitlines()) == ply

        replay = await stage.slash("ann", "replay", number=1)
        assert replay.files and replay.files[0].name.endswith(".gif"), replay.text
        ladder = await stage.slash("ann", "ladder", "show", board="torishogi")
        assert f"1. {winner}" in ladder.text and "ToriShogi ladder" in ladder.text
        await stage.slash("cid", "ladder", "queue", board="torishogi")
        paired = await stage.slash("dan", "ladder", "queue", board="torishogi")
        assert paired.text.endswith("the game has begun."), paired.text
        thread = await stage.emu.wait_until(lambda: stage.emu.thread_of(stage.channel), 30)
        opening = await stage.posted("The game begins", channel=thread)  # no setup to wait for
        assert "ToriShogi ladder match" in await stage.posted("paired from", channel=thread)
        assert "to act: a move" in opening
        reset = await stage.slash("cid", "match reset", channel=thread)
        assert reset.text == "ToriShogi has no reset: it is TORA's, in a series (R28)."
        short = await stage.slash("ann", "ladder", "show")  # TORA's ladders are apart
        assert "has not had" in short.text
        assert all(m.ephemeral_to == stage.user["ann"] for m in short.messages if not m.deleted)


def menu_labels(panel: Msg, level: str) -> list[str]:
    """The option labels of the panel's select of ``level`` (``g`` pieces, ``a`` actions)."""
    for select in (c for c in walk_components(panel.components) if c.get("type") == 3):
        if select["custom_id"].split(":")[4] == level:
            return [option["label"] for option in select["options"]]
    return []


async def test_ts1_players_read_the_boards_coordinates_in_menus_autocomplete_and_posts(
    tmp_path: Path,
) -> None:
    """Files 7..1 and ranks a..g, as on the picture and in the rule text's diagram, in the Play
    panel, the autocomplete of /tora act (in words, found by a piece's name or its tile's
    letters) and the turn post; Fairy-Stockfish's notation is still read."""
    async with Stage(tmp_path) as stage:
        await stage.slash("ann", "challenge", opponent="bob", game="torishogi", deadline="2h")
        await stage.click("bob", "Accept")
        await stage.posted("The game begins")
        ann = stage.user["ann"]
        panel = (await stage.open_panel("ann")).messages[0]
        pieces = menu_labels(panel, "g")
        assert "Falcon (Fa) 4f" in pieces and "Left Quail (LQ) 7g" in pieces, pieces
        [select] = [c for c in walk_components(panel.components) if c.get("type") == 3]
        picked = await stage.emu.select(ann, panel.id, select["custom_id"], ["d2"])
        await picked.done(30)
        actions = [label.split(" \u00b7 ")[-1] for label in menu_labels(panel, "a")]
        assert actions == ["to 5f", "to 3f"]  # after the letters that mark them on the picture

        def offered(typed: str):
            return stage.emu.autocomplete(
                ann, stage.channel, "tora", "act", focused="action", action=typed
            )

        swallows = await offered("Sw")
        assert swallows and all(c["name"].startswith("Swallow (Sw) ") for c in swallows)
        assert {"name": "Swallow (Sw) 5e: to 5d, capturing the Swallow", "value": "c3c4"} in (
            swallows
        )
        quails = await offered("LQ")
        assert [c["name"] for c in quails] == ["Left Quail (LQ) 7g: to 7f"]
        assert [c["value"] for c in await offered("Falcon 4f")] == ["d2c2", "d2e2"]

        staged = await stage.slash("ann", "act", action="Falcon 4f-5f")
        assert staged.text.startswith("Staged:") and staged.files
        own = await stage.slash("ann", "board")
        assert "Falcon 4f-5f" in own.text and "d2c2" not in own.text, own.text
        await stage.click("ann", "End turn")
        posted = await stage.posted("ended their turn")
        assert "ann's Falcon moves 4f-5f" in posted, posted
        typed = await stage.slash("bob", "act", action="c4c3")  # Fairy-Stockfish's notation
        assert typed.text.startswith("Staged:"), typed.text


# Captures until ann holds three kinds, two Swallows among them.
HOARD = ("e4e5", "c4c3", "d2c3", "d6e5", "S@g4", "g5g4", "g3g4", "g7g4", "g1g4", "e5d4", "d3d4")


async def test_the_end_post_lists_each_hand_as_a_sentence(tmp_path: Path) -> None:
    async with Stage(tmp_path) as stage:
        await stage.slash("ann", "challenge", opponent="bob", game="torishogi", deadline="2h")
        await stage.click("bob", "Accept")
        await stage.posted("The game begins")
        for ply, move in enumerate(HOARD):
            name = ("ann", "bob")[ply % 2]
            staged = await stage.slash(name, "act", action=move)
            assert staged.text.startswith("Staged:"), staged.text
            await stage.click(name, "End turn")
        await stage.slash("bob", "resign")
        await stage.click("bob", "Resign")
        end = await stage.posted("bob (Opposition) resigns")
        assert "In hand: ann 2 Swallows, 1 Falcon and 1 Left Quail; bob 4 Swallows" in end, end
