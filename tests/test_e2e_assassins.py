"""End to end, hidden information (R40-R44): a long game with Assassins where the owner plays
their Assassin in a DM with the bot. Twin worlds, each a fresh emulator and bot, differ only
in where ann's Assassin starts and how it walks: everything public in the channel (texts,
mentions and image bytes) is identical in both, and so is everything bob saw, while ann's DM
transcript holds her hidden moves. So nothing public depends on the hidden Assassin."""

from __future__ import annotations

import random
from pathlib import Path

from bot.frontend.stage import Stage
from bot.service import ManualClock
from rules import Game, Options, Side

OPTIONS = Options(
    board="long",
    assassins=True,
    challenger_setup="aggressive",
    opposition_setup="defensive",
    rulers=("Q", "K"),
)
BOB_START = "v17h1"
WALKS = {
    "v3h17": ["X v3h17-v4h16", "X v4h16-v5h16"],
    "v14h17": ["X v14h17-v14h16", "X v14h16-v12h16"],
}


class World:
    def __init__(self, stage: Stage, ann_start: str) -> None:
        self.stage = stage
        self.ann_start = ann_start
        self.shadow = Game(OPTIONS, assassin_starts=(ann_start, BOB_START))

    def dm(self, name: str) -> int:
        return self.stage.emu.dm_channel(self.stage.user[name])

    async def start(self) -> None:
        stage = self.stage
        await stage.slash("ann", "challenge", opponent="bob", board="long", assassins=True)
        await stage.click("bob", "Accept")
        ann_dm, bob_dm = self.dm("ann"), self.dm("bob")
        await stage.slash("ann", "setup", strategy="aggressive", ruler="Q", channel=ann_dm)
        offered = await stage.emu.autocomplete(
            stage.user["ann"], ann_dm, "tora", "setup", focused="assassin", assassin="v"
        )
        squares = [choice["value"] for choice in offered]
        assert self.ann_start in squares and "v1h17" in squares  # her free home squares
        assert "v9h17" not in squares  # her Ruler's square under the aggressive setup
        placed = await stage.slash("ann", "setup", assassin=self.ann_start, channel=ann_dm)
        assert f"Assassin starts on {self.ann_start}" in placed.text
        await stage.slash(
            "bob", "setup", strategy="defensive", ruler="K", assassin=BOB_START, channel=bob_dm
        )
        await stage.posted("The game begins")

    async def act(self, name: str, text: str, hidden: bool = False) -> None:
        self.shadow.apply(text)
        where = self.dm(name) if hidden else None
        staged = await self.stage.slash(name, "act", action=text, channel=where)
        assert staged.text.startswith("Staged:"), staged.text

    async def end(self, name: str) -> None:
        self.shadow.end_turn()
        assert (await self.stage.slash(name, "end")).text == "Your turn is over."

    def public_choices(self) -> list[str]:
        game = self.shadow
        return sorted(game.notation(a) for a in game.legal_actions() if a.letter != "X")

    def public(self) -> str:
        """Everything ever public in the channel, bytes of images included, ids as names."""
        raw = self.stage.emu.everything_public(self.stage.channel).decode("latin-1")
        return self.stage.names_for_ids(raw)

    def seen_by(self, name: str) -> list[tuple[str, list[bytes]]]:
        """Every message in the user's DMs (the bot's and its answers to them), ids as names."""
        messages = self.stage.emu.dms(self.stage.user[name])
        return [(self.stage.names_for_ids(m.text()), [f.data for f in m.files]) for m in messages]


async def play(world: World, turns: int, rng: random.Random) -> None:
    for turn in range(turns):
        side = Side.CHALLENGER if turn % 2 == 0 else Side.OPPOSITION
        name = "ann" if side == Side.CHALLENGER else "bob"
        if side == Side.CHALLENGER:
            await world.act("ann", WALKS[world.ann_start][turn // 2], hidden=True)
        elif turn == 1:
            await world.act("bob", "X v17h1-v16h2", hidden=True)
        text = rng.choice([c for c in world.public_choices() if " x " not in c])
        await world.act(name, text)
        await world.end(name)
    await world.stage.quiet()


async def run_world(path: Path, ann_start: str) -> tuple[str, list, list, list[str]]:
    async with Stage(path, clock=ManualClock()) as stage:
        world = World(stage, ann_start)
        await world.start()
        await play(world, 4, random.Random(7))
        await stage.slash("bob", "resign")
        await stage.posted("bob (Opposition) resigns")
        await stage.quiet()
        choices = world.public_choices()
        return world.public(), world.seen_by("bob"), world.seen_by("ann"), choices


async def test_hidden_moves_stay_in_the_owners_dms(tmp_path: Path) -> None:
    a = await run_world(tmp_path / "a", "v3h17")
    b = await run_world(tmp_path / "b", "v14h17")
    public_a, bob_a, ann_a, choices_a = a
    public_b, bob_b, ann_b, choices_b = b
    assert choices_a == choices_b
    end = public_a.index("bob (Opposition) resigns")  # the end publishes everything (R44)
    assert public_a[:end] == public_b[:end]
    assert "X ?" in public_a[:end]  # the public form of a hidden move
    assert bob_a == bob_b
    assert ann_a != ann_b
    ann_texts = "\n".join(text for text, _files in ann_a)
    assert "Staged: X v3h17-v4h16" in ann_texts and "Staged: X v4h16-v5h16" in ann_texts
    for public, secrets in ((public_a, ("v3h17", "v4h16", "v5h16")), (public_b, ("v14h17",))):
        assert not any(square in public[:end] for square in secrets)
    assert "X v3h17-v4h16" in public_a[end:]  # the record attached to the end, in full
