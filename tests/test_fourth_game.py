"""A fourth game reaches every part of the host through the registry alone: Breakthrough on a
4x4 board, which exists only in the tests (``tests/games/breakthrough``, built on the rules
core's turn machine and grid), registered by one line. It is then challenged, played with the
Play panel's menus through the emulator, stored, reloaded after a restart, drawn (the
generic drawing), replayed, rated on its own ladder and played by the AI baselines, with no
file outside its package changed."""

from __future__ import annotations

import random
import struct
from collections.abc import Iterator
from pathlib import Path

import pytest
from discord import app_commands
from games.breakthrough import BREAKTHROUGH, BreakthroughGame

import ai
from ai.match import match_games, new_game, play_match
from bot.app import menus
from bot.discord.choices import game_choices, ladder_choices
from bot.ladder.opening import unopened_text
from bot.ladder.queue import Pairing
from bot.ladder.results import boards, ladder_name
from bot.service import Settings, User
from harness.stage import Stage
from render import board_of, own_board_of, replay_of
from render.coordinates import coordinates_of
from render.generic import MIN_WIDTH
from render.status import StatusInfo
from rules import Side
from rules.registry import GAMES, game_type, ladder_of, register, unregister

SEED = 5  # the shadow game's moves: a win by breakthrough after a capture


@pytest.fixture
def breakthrough() -> Iterator[None]:
    register(BREAKTHROUGH)  # the one registration line
    yield
    unregister(BREAKTHROUGH.id)


def png_width(data: bytes) -> int:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">I", data[16:20])[0]


def moves_of_a_game() -> list[str]:
    """A whole game, seeded: a capture on the way, then a pawn through."""
    game, rng = BreakthroughGame(), random.Random(SEED)
    texts = []
    while not game.is_over():
        moves = game.legal_actions()
        captures = [m for m in moves if m.captures]
        move = rng.choice(captures or moves)
        texts.append(move.text)
        game.apply(move)
        game.end_turn()
    return texts


def test_the_registry_lists_it_with_its_ladder(breakthrough: None) -> None:
    assert list(GAMES)[-1] == "breakthrough" and game_type("Breakthrough") is BREAKTHROUGH
    assert ladder_of("breakthrough", {}).name == "Breakthrough"
    assert boards()[-2:] == ("ai-torii", "ai-breakthrough")
    assert ladder_name("ai-breakthrough") == "AI Breakthrough"
    assert ("Breakthrough", "breakthrough") in {(c.name, c.value) for c in game_choices()}
    assert "breakthrough" in [c.value for c in ladder_choices(ai=False)]
    with pytest.raises(ValueError, match="already"):
        register(BREAKTHROUGH)


def test_its_registration_is_undone_with_the_fixture() -> None:
    assert "breakthrough" not in GAMES and "breakthrough" not in boards()


def test_it_is_drawn_by_the_generic_drawing(breakthrough: None) -> None:
    game = BreakthroughGame()
    game.apply("b1-b2")
    public = board_of(game.view_for(None), StatusInfo("ann", "bob", "due in 5 h"))
    own = own_board_of(game.view_for(Side.CHALLENGER), StatusInfo("ann", "bob"))
    assert png_width(public) == MIN_WIDTH and public != own  # her own shows her staged move
    game.end_turn()
    assert board_of(game.view_for(None), StatusInfo("ann", "bob", "due in 5 h")) != public
    assert png_width(coordinates_of("breakthrough")) == MIN_WIDTH


def test_its_squares_say_their_pieces_from_its_square_map(breakthrough: None) -> None:
    """A web board's screen reader words each square of a game that brings no words of its
    own from the view's square map (``Policies.square_words``)."""
    view = BreakthroughGame().view_for(None)
    said = game_type("breakthrough").square_words(view, ("ann", "bob"))
    placed = view.square_map().pieces
    assert set(said) == set(placed) and len(said) == 8  # both sides' pawns
    square, piece = next(iter(placed.items()))
    assert said[square] == f"{('ann', 'bob')[piece.side]}'s {piece.name}"


def test_the_ai_baselines_play_it_to_the_end(breakthrough: None) -> None:
    """Every action the baselines choose is played by the rules, which would refuse an
    illegal one; every game ends with a winner (Breakthrough has no draw by play)."""
    assert "breakthrough" in match_games()
    for a, b in (("greedy", "random"), ("random", "greedy")):
        tally = play_match("breakthrough", a, b, games=6, seed=3)
        assert tally.draws == 0 and sum(tally.wins.values()) == 6
    game = new_game("breakthrough", random.Random(1))
    assert ai.turn_seconds(game) == 2.0
    assert len(ai.hint(game)) == 1 and ai.decide(game, "hard", 0.5, seed=1)


def test_a_failed_pairing_names_the_ladder_it_was_for(breakthrough: None) -> None:
    """A pairing of another game than TORA that cannot be opened says which ladder (not
    "breakthrough-board")."""
    pairing = Pairing(1, 7, "breakthrough", 9, 1, 2, 0.0, 1500.0, 1500.0)
    text = unopened_text(pairing, User(2, "bob"), RuntimeError("boom"), Settings())
    assert "for a rated Breakthrough ladder match" in text


async def test_a_match_of_the_fourth_game_from_challenge_to_its_ladder(
    breakthrough: None, tmp_path: Path
) -> None:
    moves = moves_of_a_game()
    async with Stage(tmp_path, ("ann", "bob")) as stage:
        challenge = await stage.slash(
            "ann", "challenge", opponent="bob", game="breakthrough", deadline="2h"
        )
        assert challenge.error is None, challenge.text
        await stage.posted("ann challenges bob to a match of Breakthrough")
        accepted = await stage.click("bob", "Accept")
        assert accepted.text == "You accepted the challenge: the game begins."
        begins = await stage.posted("The game begins")
        assert "ann (Challenger) to act" in stage.names_for_ids(begins)

        shadow = BreakthroughGame()
        for ply, text in enumerate(moves):
            if ply == 4:  # the bot stops and starts again: the match is read back from storage
                await stage.stop_bot()
                await stage.launch()
            name = "ann" if shadow.side == Side.CHALLENGER else "bob"
            await stage.open_panel(name)
            group = next(c.group for c in shadow.choices() if c.notation == text)
            path = menus.route(shadow.menu(), shadow.choices(group), text)
            picks = await stage.pick(name, text, path)
            assert picks[-1].files and png_width(picks[-1].files[0].data) == MIN_WIDTH
            shadow.apply(text)
            shadow.end_turn()
            ended = await stage.click(name, "End turn")
            if not shadow.is_over():
                assert ended.text.endswith("Your turn is over."), ended.text
        outcome = shadow.outcome()
        assert outcome is not None and outcome.reason == "breakthrough"
        winner = "ann" if outcome.winner == Side.CHALLENGER else "bob"
        assert "Your turn ended the match: " in ended.text, ended.text
        final = await stage.posted("The full record is attached.")
        assert f"{winner} wins (breakthrough)" in final
        last = stage.emu.public_messages(stage.channel)[-1]
        files = {f.name: f.data for f in last.files}
        assert set(files) == {"board.png", "breakthrough-match-1.breakthrough"}
        assert png_width(files["board.png"]) == MIN_WIDTH  # the generic drawing
        record = files["breakthrough-match-1.breakthrough"].decode()
        assert record.startswith('[Game "breakthrough"]')
        assert BREAKTHROUGH.read_record(record).key() == shadow.key()

        replay = await stage.slash("ann", "replay", number=1)
        assert [f.name for f in replay.files] == ["breakthrough-match-1.gif"], replay.text
        assert replay.files[0].data == replay_of(record).gif
        ladder = await stage.slash("ann", "ladder", "show", board="breakthrough")
        assert "Breakthrough ladder" in ladder.text and f"1. {winner}" in ladder.text
        short = await stage.slash("ann", "ladder", "show")  # TORA's ladders are apart
        assert "has not had" in short.text


def test_the_ladder_commands_count_no_boards_in_their_words() -> None:
    """Regression: `/tora-ladder leave` and `profile` described their ladder option as
    "default both", from when TORA's two boards were the only ladders; the registry's games
    have four of their own and four AI ladders, and a new game adds two."""
    from bot.discord.client import unbound_tree

    [ladder] = [c for c in unbound_tree().get_commands() if c.name == "tora-ladder"]
    assert isinstance(ladder, app_commands.Group)
    said = {c.name: c.get_parameter("board") for c in ladder.commands}
    for name in ("leave", "profile"):
        parameter = said[name]
        assert parameter is not None and "both" not in parameter.description, name


def test_admins_may_close_the_season_of_every_ladder_the_ai_ones_too() -> None:
    """Regression: /tora-admin close-season offered the games' ladders alone, though the
    AI ladders have seasons of their own (shown by /tora-ladder seasons) and the desk closes
    them: an AI ladder's season could not be closed from Discord."""
    from bot.discord.client import unbound_tree

    [admin] = [c for c in unbound_tree().get_commands() if c.name == "tora-admin"]
    assert isinstance(admin, app_commands.Group)
    close = admin.get_command("close-season")
    assert isinstance(close, app_commands.Command)
    board = close.get_parameter("board")
    assert board is not None
    assert [c.value for c in board.choices] == list(boards())  # ai-short among them
    assert "short or the long" not in board.description
