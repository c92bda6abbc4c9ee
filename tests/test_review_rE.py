"""Review rE: what a finished game leaves behind (records, replays, analysis) for the three
games: each test asserts what a player should see and fails today."""

from __future__ import annotations

import random

import ai
from bot.service import User
from bot.service.testing import Harness
from rules import Side, game_type

ANN, BOB = User(1, "ann"), User(2, "bob")
GUILD = 1


async def _players(h: Harness) -> None:
    assert h.store is not None
    for user in (ANN, BOB):
        await h.store.save_player(user.id, user.name)


async def test_an_analysis_says_a_tora_turn_left_to_its_deadline_lapsed_not_empty_code(
    h: Harness,
) -> None:
    """A TORA turn left to its deadline is recorded with no action; the analysis judges it
    (doing nothing often loses the most) and writes it as ``played ``;`` : an empty code span
    Discord shows as two stray backticks. It should say the turn lapsed."""
    await _players(h)
    assert h.store is not None
    kind = game_type("tora")
    options = kind.check_options({"board": "short"})
    rng = random.Random(3)
    answers = ai.engines.drawn_answers(kind, options, rng)
    match = await h.store.create_match(GUILD, ANN.id, BOB.id, kind.new_game(options, answers))
    player = ai.make_player("random", match.game)
    for turn in range(4):
        if turn == 1:
            match.end_turn_by_deadline()  # bob's turn lapses
            continue
        for text in player.turn(match.game.for_player(match.game.side), rng, 1.0):
            match.act(text)
        match.end_turn()
    match.resign(Side.OPPOSITION)
    await h.store.save(match)
    report = await h.service.analyse(match.id, ANN, GUILD)
    assert "Turn 2, bob" in report.text  # the lapsed turn is among those that lost the most
    assert "``" not in report.text


def test_an_analysis_writes_a_loss_of_a_thousand_or_more_as_a_plain_number() -> None:
    """ToriShogi's evaluation counts centi-Swallows and Torii's runs to the hundreds a
    Follower, so a blunder costs a thousand or more; the summary formats it with ``.3g``
    and a player reads "(1.23e+03 lost, by its evaluation)". It should read 1230 (or
    1234), as numbers read everywhere else."""
    from bot.service.analysis import Analysis, Slip, summary

    slip = Slip(5, Side.CHALLENGER, ("c3c4",), ("g3g4",), 1234.0)
    text = summary(Analysis((0.0,), (slip,), ()), 7, "ToriShogi", ["ann", "bob"])
    assert "e+" not in text, text


async def test_the_record_of_a_declined_challenge_says_its_game_never_began(tmp_path) -> None:
    """``/tora games`` lists "Match 1 · ToriShogi: ann vs bob, the challenge was declined";
    ``/tora record number:1`` then answers "There is no match 1 in this server", as for a
    number that never existed. It should say that match 1's game never began, so it has
    no record (as the web page's record download says)."""
    from harness.stage import Stage

    async with Stage(tmp_path, ("ann", "bob")) as stage:
        await stage.slash("ann", "challenge", opponent="bob", game="torishogi")
        await stage.slash("bob", "decline")
        games = await stage.slash("ann", "games")
        assert "Match 1 " in games.text and "declined" in games.text, games.text
        record = await stage.slash("ann", "record", number=1)
        assert "There is no match 1" not in record.text, record.text
        assert "never began" in record.text or "not begun" in record.text, record.text
