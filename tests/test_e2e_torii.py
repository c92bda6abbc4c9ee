"""End to end against the local Discord emulator: a whole Torii match with the Spirits' powers.
Each player picks a Spirit privately; turns are played with the Play panel and typed; when ann
builds a Torii, the game pauses in her turn while bob answers for his Monkey (TI15) from his
own "your turn" notice; then the record, the replay and the Torii ladder. A second match ends
with a turn that builds a Torii and then the 4th: bob still answers for the first one, and
only then does the match end."""

from __future__ import annotations

import random
from pathlib import Path

from bot.app import menus
from harness.stage import Stage
from rules import Side, game_type
from rules.torii import ToriiGame
from rules.torii.actions import Action, Move

SEED = 43  # with ``pick``: ann wins in 12 turns (4 Torii), bob's Monkey answering 3 times
# With ``keen``: ann's 7th turn builds a Torii and then her 4th, against bob's Monkey.
KEEN_SEED = 47
SPIRITS = ({"spirit": "Kitsune"}, {"spirit": "Monkey"})


def pick(game: ToriiGame, rng: random.Random) -> str:
    """A random legal action, keen on building Torii."""
    actions = game.legal_actions()
    builds = [a for a in actions if "build" in game.notation(a)]
    return game.notation(rng.choice(builds if builds and rng.random() < 0.8 else actions))


def keen(game: ToriiGame, rng: random.Random) -> str:
    """A random legal action; ann's turns build as many Torii as they can."""
    actions = game.legal_actions()
    if game.side == Side.CHALLENGER and not game.deciding:
        most = max(map(_builds, actions))
        actions = [a for a in actions if _builds(a) == most]
    return game.notation(rng.choice(actions))


def _builds(action: Action) -> int:
    return len(action.builds) if isinstance(action, Move) else 0


async def test_a_torii_match_with_powers_and_the_monkeys_pause(tmp_path: Path) -> None:
    async with Stage(tmp_path) as stage:
        await stage.slash("ann", "challenge", opponent="bob", game="torii", deadline="2h")
        challenge = await stage.posted("ann challenges bob to a match of Torii")
        assert "with the Spirits' powers" in challenge
        await stage.click("bob", "Accept")
        wrong = await stage.slash("ann", "setup", strategy="aggressive")
        assert "Torii asks for your spirit" in wrong.text
        mine = await stage.slash("ann", "setup", spirit="Kitsune")
        assert mine.ephemeral and "spirit Kitsune" in mine.text
        await stage.slash("bob", "setup", spirit="Monkey")
        begins = await stage.posted("The game begins")
        assert "playing Kitsune against" in begins and "playing Monkey" in begins

        game = game_type("torii").new_game({"powers": True}, SPIRITS)
        rng, turn, pauses = random.Random(SEED), 0, 0
        while not game.is_over():
            name = "ann" if game.side == Side.CHALLENGER else "bob"
            if game.deciding:
                pauses += 1
                dm = stage.emu.dm_channel(stage.user["bob"])
                notice = await stage.posted("decision", channel=dm)
                assert "in the opponent's turn" in notice
            while game.actions_left and game.legal_actions():
                text = pick(game, rng)
                if turn % 2 or game.deciding:  # the Play panel: tile, path, builds
                    await stage.open_panel(name)
                    group = next(c.group for c in game.choices() if c.notation == text)
                    path = menus.route(game.menu(), game.choices(group), text)
                    await stage.pick(name, text, path)
                else:
                    staged = await stage.slash(name, "act", action=text)
                    assert staged.text.startswith("Staged:"), staged.text
                game.apply(text)
            ended_by = game.side
            game.end_turn()
            ended = await stage.click(name, "End turn")
            turn += 1
            if not game.is_over():
                said = "Your decision is made" if game.side == ended_by else "Your turn is over."
                assert said in ended.text, ended.text
        assert pauses == 3 and game.outcome().winner == Side.CHALLENGER
        final = await stage.posted("The full record is attached.")
        assert "ann" in final and "all 4 Torii built" in final
        last = stage.emu.public_messages(stage.channel)[-1]
        record = next(f for f in last.files if f.name == "torii-match-1.torii").data.decode()
        assert '[OppositionSpirit "Monkey"]' in record and "O: flip" in record
        replay = await stage.slash("bob", "replay", number=1)
        assert replay.files and replay.files[0].name == "torii-match-1.gif"
        ladder = await stage.slash("ann", "ladder", "show", board="torii")
        assert "Torii ladder" in ladder.text and "1. ann" in ladder.text


async def test_ti15_the_monkey_answers_before_a_winning_turn_ends_the_match(
    tmp_path: Path,
) -> None:
    async with Stage(tmp_path) as stage:
        await stage.slash("ann", "challenge", opponent="bob", game="torii", deadline="2h")
        await stage.click("bob", "Accept")
        await stage.slash("ann", "setup", spirit="Kitsune")
        await stage.slash("bob", "setup", spirit="Monkey")
        await stage.posted("The game begins")
        dm = stage.emu.dm_channel(stage.user["bob"])
        game = game_type("torii").new_game({"powers": True}, SPIRITS)
        rng = random.Random(KEEN_SEED)
        while game.pos.winner() is None:  # typed turns, up to the winning one
            name = "ann" if game.side == Side.CHALLENGER else "bob"
            while game.actions_left:
                text = keen(game, rng)
                staged = await stage.slash(name, "act", action=text)
                assert staged.text.startswith("Staged:"), staged.text
                game.apply(text)
            ended_by = game.side
            game.end_turn()
            ended = await stage.click(name, "End turn")
            said = "Your decision is made" if game.side == ended_by else "Your turn is over."
            assert said in ended.text, ended.text
        won = game.turns[-1].texts[0]
        assert won.count("build") == 2 and game.deciding and game.actions_left == 1

        post = await stage.posted(f"`{won}`")
        assert "and wins: all 4 Torii built" in post
        assert "bob decides for the Monkey, then ann wins (all 4 Torii built)" in post
        assert "bob (Opposition) to act: 1 decision in the opponent's turn" in post
        await stage.quiet()
        notice = stage.emu.public_messages(dm)[-1].text()
        assert "Your turn against ann (Challenger): 1 decision in the opponent's turn" in notice
        texts = [m.text() for m in stage.emu.public_messages(stage.channel)]
        assert not any("The full record is attached." in text for text in texts)
        board = await stage.slash("ann", "board")
        assert "bob (Opposition) to act" in board.text

        await stage.open_panel("bob")  # the answer from the Play panel
        path = menus.route(game.menu(), game.choices("monkey"), "flip C")
        await stage.pick("bob", "flip C", path)
        game.apply("flip C")
        game.end_turn()
        assert game.outcome().winner == Side.CHALLENGER
        await stage.click("bob", "End turn")
        final = await stage.posted("The full record is attached.")
        assert "ann (Challenger) wins (all 4 Torii built)" in final
        last = stage.emu.public_messages(stage.channel)[-1]
        record = next(f for f in last.files if f.name == "torii-match-1.torii").data.decode()
        assert record.rstrip().endswith(f"C: {won}\nO: flip C")
        assert '[Result "1-0"]' in record
        assert game_type("torii").read_record(record).fen() == game.fen()  # C's tile 1 flipped
