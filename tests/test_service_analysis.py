"""The analysis of a finished match (issue 28, ``/tora analyse``): the hint's search on every
position, the same analysis every time for the same match, the three turns that lost the
most with the AI's better turn drawn on their boards; running matches are refused."""

from __future__ import annotations

import asyncio
import random

import pytest

import ai
from bot.app.costly import ANALYSES, Limits
from bot.service import Place, Refused, Terms, User
from bot.service.analysis import Analysis, Report, Slip, summary
from bot.service.errors import RateLimited
from bot.service.testing import Harness
from rules import GameState, Side, game_type
from rules.tora import Game, Options
from storage import Match

ANN, BOB = User(1, "ann"), User(2, "bob")
GUILD = 1
TURNS = 6
GAMES = {"torishogi": {}, "torii": {}, "tora": {"board": "short"}}


async def finished(h: Harness, game_id: str, seed: int = 3, turns: int = TURNS) -> Match:
    """A match of ``game_id`` between ann and bob: ``turns`` turns of random play (a blunder
    or two for the analysis to find), then bob resigns."""
    assert h.store is not None
    for user in (ANN, BOB):
        await h.store.save_player(user.id, user.name)
    kind = game_type(game_id)
    options = kind.check_options(GAMES[game_id])
    rng = random.Random(seed)
    answers = ai.engines.drawn_answers(kind, options, rng)
    match = await h.store.create_match(GUILD, ANN.id, BOB.id, kind.new_game(options, answers))
    player = ai.make_player("random", match.game)
    for _ in range(turns):
        for text in player.turn(match.game.for_player(match.game.side), rng, 1.0):
            match.act(text)
        match.end_turn()
    match.resign(Side.OPPOSITION)
    await h.store.save(match)
    return match


@pytest.mark.parametrize(
    "game_id",
    # Torii's analysis takes 20-40 s here (its engine searches every turn): make soak runs it
    [pytest.param(g, marks=pytest.mark.slow) if g == "torii" else g for g in sorted(GAMES)],
)
async def test_a_finished_match_gives_the_same_analysis_every_time(
    h: Harness, game_id: str
) -> None:
    match = await finished(h, game_id)
    first = await h.service.analyse(match.id, ANN, GUILD)
    again = await h.service.analyse(match.id, BOB, GUILD)
    assert first == again
    title = game_type(game_id).title
    assert first.text.startswith(f"Analysis of match {match.id} ({title}), {TURNS} turns")
    assert first.title == f"Match {match.id} · {title}: evaluation"
    assert len(first.values) == TURNS
    assert 1 <= len(first.marked) <= 3
    assert len(first.boards) == len(first.marked)
    assert first.text.count("the AI prefers") == len(first.marked)


def said(position: GameState, texts: list[str]) -> str:
    """A turn as players read it (TS1: the board's coordinates, "Swallow 5e-5d")."""
    staged = position.copy()
    for text in texts:
        staged.apply(text)
    return "; ".join(staged.staged())


async def test_the_worst_turns_are_those_the_hint_would_have_played_better(h: Harness) -> None:
    """Regression (TS1): the turns were given in the machines' notation (`c3c4`) where every
    other post gives them as the board reads (`Swallow 5e-5d`)."""
    match = await finished(h, "torishogi")
    report = await h.service.analyse(match.id, ANN, GUILD)
    final = (await h.store.load(match.id)).game
    game: GameState = game_type("torishogi").new_game({}, ({}, {}))
    before = []
    for turn in final.turns[:TURNS]:
        before.append(game.copy())
        for text in turn.texts:
            game.apply(text)
        game.end_turn()
    for index in report.marked:
        position = before[index]
        better = ai.hint(position.for_player(position.side))
        played = final.turns[index].texts
        assert better != played
        played_said, better_said = said(position, played), said(position, better)
        assert played_said != "; ".join(played)  # not Fairy-Stockfish's coordinates
        assert f"played `{played_said}`; the AI prefers `{better_said}`" in report.text


async def test_a_running_match_is_not_analysed(h: Harness) -> None:
    reply = await h.service.challenge(
        Place(GUILD, 100), ANN, BOB, Terms(game="torishogi", turn_seconds=3600.0)
    )
    await h.service.accept(Place(GUILD, 100), BOB)
    hosted = await h.service.records.live_in_channel(100)
    assert hosted is not None and hosted.match_id is not None and reply.text
    with pytest.raises(Refused, match=r"still being played: it can be analysed once it has"):
        await h.service.analyse(hosted.match_id, ANN, GUILD)


@pytest.mark.parametrize("how", ["aborted", "cancelled"])
async def test_an_aborted_or_cancelled_match_has_nothing_to_analyse(h: Harness, how: str) -> None:
    """Regression: ``/tora-match analyse`` of a match aborted (or cancelled by an admin)
    answered "Match 1 is still being played: it can be analysed once it has ended": it had
    ended, and will never be analysable; the player was sent to wait for nothing."""
    here = Place(GUILD, 100)
    await h.service.challenge(here, ANN, BOB, Terms(game="torishogi", rated=False))
    await h.service.accept(here, BOB)
    await h.settle()
    await h.service.play(here, ANN, "c3c4")
    await h.service.end_turn(here, ANN)
    hosted = await h.service.records.live_in_channel(100)
    assert hosted is not None and hosted.match_id is not None
    if how == "aborted":
        await h.service.abort(here, BOB)
    else:
        await h.service.cancel(here, User(9, "admin"), admin=True)
    await h.settle()
    assert await h.service.records.live_in_channel(100) is None
    with pytest.raises(Refused, match=f"was {how}: it ended without a result, and there is"):
        await h.service.analysable(hosted.match_id, ANN)


async def test_no_such_match_is_refused(h: Harness) -> None:
    with pytest.raises(Refused, match="There is no match 999"):
        await h.service.analyse(999, ANN, GUILD)


async def test_a_match_on_tora_s_long_board_is_not_analysed(h: Harness) -> None:
    assert h.store is not None
    for user in (ANN, BOB):
        await h.store.save_player(user.id, user.name)
    match = await h.store.create_match(GUILD, ANN.id, BOB.id, Game(Options(board="long")))
    match.resign(Side.CHALLENGER)
    await h.store.save(match)
    with pytest.raises(Refused, match=r"cannot be analysed yet. Matches on TORA's short board"):
        await h.service.analyse(match.id, ANN, GUILD)


async def test_a_match_resigned_before_any_move_has_nothing_to_analyse(h: Harness) -> None:
    assert h.store is not None
    for user in (ANN, BOB):
        await h.store.save_player(user.id, user.name)
    fresh = game_type("torishogi").new_game({}, ({}, {}))
    match = await h.store.create_match(GUILD, ANN.id, BOB.id, fresh)
    match.resign(Side.CHALLENGER)
    await h.store.save(match)
    with pytest.raises(Refused, match="ended before a single move was played"):
        await h.service.analyse(match.id, ANN, GUILD)


async def test_a_torii_match_with_a_turn_left_to_its_deadline_is_analysed(h: Harness) -> None:
    """Regression: a Torii turn left to its deadline is recorded as ``pass`` (TI18), which
    the analysis played as an action, refused by the rules while a tile has a path, and the
    match was refused as having "a secret setup" (Torii has none): turns replay as the
    game's record does (``GameType.replay_turn``)."""
    assert h.store is not None
    for user in (ANN, BOB):
        await h.store.save_player(user.id, user.name)
    spirits = ({"spirit": "Kitsune"}, {"spirit": "Monkey"})
    match = await h.store.create_match(
        GUILD, ANN.id, BOB.id, game_type("torii").new_game({}, spirits)
    )
    match.end_turn_by_deadline()  # ann's turn lapses
    match.resign(Side.OPPOSITION)
    await h.store.save(match)
    assert match.game.turns[0].texts == ["pass"]
    report = await h.service.analyse(match.id, ANN, GUILD)
    assert report.text.startswith(f"Analysis of match {match.id} (Torii), 1 turn")


async def tora_match_stored(h: Harness, rng: random.Random) -> Match:
    """A new stored TORA match of ann against bob, its setup answers drawn by ``rng``."""
    assert h.store is not None
    for user in (ANN, BOB):
        await h.store.save_player(user.id, user.name)
    kind = game_type("tora")
    options = kind.check_options(GAMES["tora"])
    answers = ai.engines.drawn_answers(kind, options, rng)
    return await h.store.create_match(GUILD, ANN.id, BOB.id, kind.new_game(options, answers))


async def test_an_analysis_does_not_judge_a_tora_turn_cut_short_by_the_opponent_resigning(
    h: Harness,
) -> None:
    """bob has staged one action of his turn when ann resigns (R26: at any time). bob's
    turn never ended, yet the analysis ended it for him and judged one action against the
    AI's whole turn: "4 turns", the fourth a half turn bob never finished. It analyses the
    3 turns that were played."""
    rng = random.Random(0)
    match = await tora_match_stored(h, rng)
    player = ai.make_player("random", match.game)
    for _ in range(3):
        for text in player.turn(match.game.for_player(match.game.side), rng, 1.0):
            match.act(text)
        match.end_turn()
    first = player.turn(match.game.for_player(match.game.side), rng, 1.0)[0]
    match.act(first)  # bob's first action of his turn...
    match.resign(Side.CHALLENGER)  # ...when ann resigns
    await h.store.save(match)
    report = await h.service.analyse(match.id, ANN, GUILD)
    assert report.text.startswith(f"Analysis of match {match.id} (TORA), 3 turns"), report.text
    assert len(report.values) == 3


async def test_an_analysis_says_a_tora_turn_left_to_its_deadline_lapsed_not_empty_code(
    h: Harness,
) -> None:
    """A TORA turn left to its deadline is recorded with no action; the analysis judges it
    (doing nothing often loses the most) and wrote it as ``played ``;`` : an empty code span
    Discord shows as two stray backticks. It says the turn had no action."""
    rng = random.Random(3)
    match = await tora_match_stored(h, rng)
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
    Follower, so a blunder costs a thousand or more; the summary formatted it with ``.3g``
    and a player read "(1.23e+03 lost, by its evaluation)". It reads 1,234, as numbers
    read everywhere else."""
    slip = Slip(5, Side.CHALLENGER, ("c3c4",), ("g3g4",), 1234.0)
    text = summary(Analysis((0.0,), (slip,), ()), 7, "ToriShogi", ["ann", "bob"])
    assert "e+" not in text, text
    assert "(1,234 lost, by its evaluation)" in text, text


def test_the_summary_names_the_players_safely_and_says_when_a_win_was_missed() -> None:
    slips = (
        Slip(7, Side.OPPOSITION, ("a1b2",), ("c3d4",), 1_000_000.0),
        Slip(3, Side.CHALLENGER, ("e1e2",), ("f1f2",), 1.5),
    )
    text = summary(Analysis((0.0,) * 8, slips, ()), 12, "ToriShogi", ["ann", "**bob**"])
    assert text.splitlines() == [
        "Analysis of match 12 (ToriShogi), 8 turns, by the AI (hard).",
        "The turns that lost the most (the better turn is drawn on each board):",
        "1. Turn 7, \\*\\*bob\\*\\*: played `a1b2`; the AI prefers `c3d4` (a win missed, by "
        "its evaluation).",
        "2. Turn 3, ann: played `e1e2`; the AI prefers `f1f2` (1.5 lost, by its evaluation).",
    ]


async def test_ts10_an_analysis_says_a_losing_repetition_lost_the_game_not_missed_a_win(
    h: Harness,
) -> None:
    """Both Phoenixes step back and forth: bob's 12th turn makes the start occur the fourth
    time and loses (TS10). The analysis said he played it "(a win missed, by its
    evaluation)"; he missed no win, his move lost the game on the spot."""
    assert h.store is not None
    for user in (ANN, BOB):
        await h.store.save_player(user.id, user.name)
    kind = game_type("torishogi")
    match = await h.store.create_match(GUILD, ANN.id, BOB.id, kind.new_game({}, ({}, {})))
    for text in ["d1c2", "d7c6", "c2d1", "c6d7"] * 3:
        match.act(text)
        match.end_turn()
    assert "repetition" in str(match.game.outcome())
    await h.store.save(match)
    report = await h.service.analyse(match.id, ANN, GUILD)
    (line,) = [each for each in report.text.splitlines() if "Turn 12," in each]
    assert "a win missed" not in line and "which lost the game at once" in line, line


async def test_one_analysis_of_a_player_s_is_worked_out_at_a_time(h: Harness) -> None:
    match = await finished(h, "torii", turns=2)  # a hint a turn: two turns keep it short
    both = await asyncio.gather(
        h.service.analyse(match.id, ANN, GUILD),
        h.service.analyse(match.id, ANN, GUILD),
        return_exceptions=True,
    )
    # which of the two is checked first is the event loop's (their reads run in threads)
    [report] = [answer for answer in both if isinstance(answer, Report)]
    [refused] = [answer for answer in both if isinstance(answer, Refused)]
    assert refused.message == "Your last hint or analysis is still being worked out; wait for it."
    assert await h.service.analyse(match.id, ANN, GUILD) == report  # and once it is done, again


def test_the_hints_allowance_an_analysis_takes_from_says_what_is_allowed() -> None:
    hints = Limits(clock=lambda: 100.0).hints
    for _ in range(3):
        hints.take(ANN.id)
    with pytest.raises(RateLimited) as refused:
        hints.take(ANN.id)
    assert "asking for hints faster than I make them: up to 3 at once" in str(refused.value)


def test_an_analysis_beyond_the_hints_allowance_is_refused_naming_analyses() -> None:
    """Regression: an analysis spends the hints' allowance, and beyond it was refused "You
    are asking for hints faster than I make them", though the player asked for none."""
    hints = Limits(clock=lambda: 100.0).hints
    for _ in range(3):
        hints.take(ANN.id)
    with pytest.raises(RateLimited) as refused:
        hints.take(ANN.id, ANALYSES)
    assert "asking for hints and analyses faster than I make them" in str(refused.value)
