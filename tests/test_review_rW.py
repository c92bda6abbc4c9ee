"""Review rW: help and learning for a new player (the quick starts, ``/tora rules``, hints,
analysis). Each test fails on a bug a player sees."""

from __future__ import annotations

import pytest

from bot.app import rulebook
from bot.service import Place, Refused, Terms, User
from bot.service.testing import Harness

HERE = Place(guild_id=1, channel_id=100)
ANN = User(1, "ann")
BOB = User(2, "bob")


def test_a_ruling_id_typed_with_a_space_finds_that_ruling() -> None:
    """`/tora rules R 25` (an id typed with a space, as people often write it) answers with
    ToriShogi's Quail (the letter R of the Right Quail), and `/tora rules TS 5` says "No
    ruling of any game mentions `TS 5`", though TS5 exists. They should answer with R25 and
    TS5, as `R25` and `TS5` do."""
    for typed, wanted in (("R 25", "R25"), ("TS 5", "TS5"), ("ti 15", "TI15")):
        assert rulebook.lookup(typed) == rulebook.lookup(wanted), rulebook.lookup(typed)[:120]


async def test_a_hint_before_a_torishogi_challenge_is_accepted_does_not_speak_of_a_setup(
    h: Harness,
) -> None:
    """`/tora hint` (and `/tora play`) while ann's ToriShogi challenge to bob waits to be
    accepted answers "The game has not started yet: both players must finish their setup",
    but ToriShogi has no setup at all and nobody has accepted: the players look for a setup
    message that never comes. Every other command then says "The match has not been accepted
    yet"; these should too (and tell bob to accept)."""
    await h.service.challenge(HERE, ANN, BOB, Terms(game="torishogi", rated=False))
    await h.settle()
    for who in (ANN, BOB):
        with pytest.raises(Refused) as refused:
            await h.service.hint(HERE, who)
        said = str(refused.value)
        assert "setup" not in said and "accepted" in said, said


async def test_an_analysis_does_not_call_a_losing_repetition_a_win_missed(h: Harness) -> None:
    """TS10: the player whose move makes a position occur the fourth time loses. A ToriShogi
    match lost so (both Phoenixes stepping back and forth, bob's 12th turn repeating the start
    a fourth time) is analysed as "Turn 12, bob: played `Phoenix 5b-4a`; the AI prefers ...
    (a win missed, by its evaluation)": bob missed no win, his move lost the game on the spot.
    A drop from a move that loses at once should be said so (e.g. "the game lost")."""
    from rules import game_type

    assert h.store is not None
    for user in (ANN, BOB):
        await h.store.save_player(user.id, user.name)
    kind = game_type("torishogi")
    match = await h.store.create_match(1, ANN.id, BOB.id, kind.new_game({}, ({}, {})))
    for text in ["d1c2", "d7c6", "c2d1", "c6d7"] * 3:
        match.act(text)
        match.end_turn()
    outcome = match.game.outcome()
    assert outcome is not None and "repetition" in str(outcome)
    await h.store.save(match)
    report = await h.service.analyse(match.id, ANN, 1)
    (line,) = [each for each in report.text.splitlines() if "Turn 12," in each]
    assert "a win missed" not in line, line


def test_each_quick_start_tells_a_new_player_how_to_practise_against_the_ai() -> None:
    """A new player with nobody to play reads `/tora help` (any game's quick start) and
    learns of challenges to people and the ladder queue only: no word of
    `/tora challenge ai:easy` (the README's "No opponent awake?" first step), of practice
    games or of their Hint button, the bot's only way of teaching a game. Each quick start
    should name the AI challenge and the hints."""
    from rules.registry import GAMES

    for game in GAMES:
        text = rulebook.help_text(game)
        assert "ai:" in text and "Hint" in text, (game, text)
