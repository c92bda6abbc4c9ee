"""End to end, hidden information (R40-R44): a long game with Assassins where the owner plays
their Assassin in a DM with the bot. Twin worlds, each a fresh emulator and bot, differ only
in where ann's Assassin starts and how it walks: everything public in the channel (texts,
mentions and image bytes) is identical in both, and so is everything bob saw, while ann's DM
transcript holds her hidden moves. So nothing public depends on the hidden Assassin."""

from __future__ import annotations

import random
from pathlib import Path

from bot.app import menus
from bot.service import ManualClock
from emulator.world import visible_bytes
from harness.stage import Stage
from rules.tora import Game, Options, Side

OPTIONS = Options(
    board="long",
    assassins=True,
    challenger_setup="aggressive",
    opposition_setup="defensive",
    rulers=("Q", "K"),
)
BOB_START = "v17h1"
# Both worlds are one deployment: the web board's links name the same public address and are
# signed with the same key, so they can differ only by what the matches make them.
PUBLIC, SECRET = "https://tora.example", "one host's web secret"
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
        for dm in (ann_dm, bob_dm):  # each answers their setup message once it is there
            await stage.emu.wait_for_message(dm, lambda m: "Choose your setup" in m.text(), 30)
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
        """A hidden move with the Play panel in the owner's DM (its menus hold the hidden
        Assassin for its owner alone); the others typed in the channel."""
        if hidden:
            game, dm = self.shadow, self.dm(name)
            group = next(c.group for c in game.choices() if c.notation == text)
            path = menus.route(game.menu(), game.choices(group), text)
            await self.stage.open_panel(name, channel=dm)
            [*_navigation, staged] = await self.stage.pick(name, text, path, channel=dm)
            assert staged.error is None and f". {text}" in staged.text  # her turn so far
        else:
            staged = await self.stage.slash(name, "act", action=text)
            assert staged.text.startswith("Staged:"), staged.text
        self.shadow.apply(text)

    async def undo(self, name: str) -> None:
        self.shadow.undo()
        undone = await self.stage.slash(name, "undo", channel=self.dm(name))
        assert "\nTaken back:" in undone.text, undone.text  # under the match's heading

    async def end(self, name: str) -> None:
        self.shadow.end_turn()
        ended = await self.stage.slash(name, "end")
        assert ended.text == "Your turn is over.", ended.text
        # the opponent acts once told, as a player would: their DMs then come in the game's
        # order in both worlds, not in the order a loaded machine happens to deliver them
        await self.stage.quiet()

    def public_choices(self) -> list[str]:
        game = self.shadow
        return sorted(game.notation(a) for a in game.legal_actions() if a.letter != "X")

    def public(self) -> list[str]:
        """Every version of every message ever public in the channel (bytes of images,
        button ids and nonces included), ids as names, in the order they were shown."""
        versions = self.stage.emu.public_versions(self.stage.channel)
        return [self.stage.names_for_ids(v.decode("latin-1")) for v in versions]

    def seen_by(self, name: str) -> list[str]:
        """Every message in the user's DMs (the bot's and its answers to them: texts, files,
        button ids and nonces), ids as names."""
        user = self.stage.user[name]
        only_them = [
            m for m in self.stage.emu.messages(self.stage.channel) if m.ephemeral_to == user
        ]
        messages = self.stage.emu.dms(user) + only_them
        return [self.stage.names_for_ids(visible_bytes(m).decode("latin-1")) for m in messages]


async def play(world: World, turns: int, rng: random.Random) -> None:
    for turn in range(turns):
        side = Side.CHALLENGER if turn % 2 == 0 else Side.OPPOSITION
        name = "ann" if side == Side.CHALLENGER else "bob"
        if side == Side.CHALLENGER:
            if world.ann_start == "v14h17" and turn == 0:  # hidden: how often she undid
                await world.act("ann", "X v14h17-v13h16", hidden=True)
                await world.undo("ann")
            await world.act("ann", WALKS[world.ann_start][turn // 2], hidden=True)
        elif turn == 1:
            await world.act("bob", "X v17h1-v16h2", hidden=True)
        text = rng.choice([c for c in world.public_choices() if " x " not in c])
        await world.act(name, text)
        await world.end(name)
    await world.stage.quiet()


async def run_world(path: Path, ann_start: str) -> tuple[str, list, list, list[str]]:
    async with Stage(path, clock=ManualClock(), web_public=PUBLIC, web_secret=SECRET) as stage:
        world = World(stage, ann_start)
        await world.start()
        await play(world, 4, random.Random(7))
        asked = await stage.slash("bob", "resign")
        assert asked.text.startswith("Resign match 1 against ann?")
        await stage.click("bob", "Resign")  # confirmed
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
    # The end publishes everything (R44). Before it, the same messages in both worlds; the
    # moment a stale button is disabled (an edit) may differ, so all the versions shown
    # are compared as a whole.
    ending = "bob (Opposition) resigns"
    before_a = sorted(v for v in public_a if ending not in v)
    assert before_a == sorted(v for v in public_b if ending not in v)
    end = "".join(before_a)
    assert "X ?" in end  # the public form of a hidden move
    assert bob_a == bob_b
    assert ann_a != ann_b
    for public, secrets in ((public_a, ("v3h17", "v4h16", "v5h16")), (public_b, ("v14h17",))):
        shown = "".join(v for v in public if ending not in v)
        assert not any(square in shown for square in secrets)
    assert any("X v3h17-v4h16" in v for v in public_a if ending in v)  # the full record
