"""The Fairy-Stockfish adapter (``bot.service.fairy``) against a scripted fake UCI engine
(``tests/fake_uci.py``): the moves it plays are legal ones, a dead or hung engine is started
again once and then our engine serves, the event loop goes on meanwhile; and against the
real engine when ``TORA_FAIRY_STOCKFISH`` names one."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest

from bot.config import Config, ConfigError
from bot.service import Place, Settings, Terms, User, fairy
from bot.service.fairy import FairyStockfish, Limit, engine_turn, fairy_turn, position_of
from bot.service.offload import Offload
from bot.service.testing import Harness
from rules import Side
from rules.tora import Game
from rules.torishogi import ToriShogiGame

FAKE = Path(__file__).with_name("fake_uci.py")


def fake(mode: str, tmp_path: Path) -> tuple[FairyStockfish, Path]:
    log = tmp_path / "commands.log"
    return FairyStockfish([sys.executable, str(FAKE), mode, str(log)], start_seconds=5), log


def played(*moves: str) -> ToriShogiGame:
    game = ToriShogiGame()
    for move in moves:
        game.apply(move)
        game.end_turn()
    return game


async def test_the_engine_plays_a_legal_move_of_the_game_after_its_moves(tmp_path):
    engine, log = fake("good", tmp_path)
    game = played("c3c4", "e5e4")
    try:
        turn = await fairy_turn(engine, game, 0.2)
    finally:
        await engine.close()
    assert turn is not None and turn[0] in {game.notation(m) for m in game.legal_moves()}
    said = log.read_text().splitlines()
    assert said[:3] == ["uci", "setoption name UCI_Variant value torishogi", "isready"]
    assert f"position fen {game.start_fen} moves c3c4 e5e4" in said
    assert "go movetime 200" in said


def test_a_game_whose_turns_are_not_all_moves_is_sent_as_its_position_alone():
    game = played("c3c4", "e5e4")
    assert position_of(game) == (game.start_fen, ["c3c4", "e5e4"])
    game.resign(Side.CHALLENGER)  # a turn "resign", which the engine could not read
    assert position_of(game) == (game.fen(), [])


async def test_an_illegal_move_from_the_engine_is_never_played(tmp_path):
    engine, _log = fake("illegal", tmp_path)
    try:
        assert await fairy_turn(engine, played(), 0.2) is None
    finally:
        await engine.close()


async def test_a_hung_engine_is_stopped_killed_and_started_again_once_then_rests(
    tmp_path, monkeypatch
):
    monkeypatch.setattr(fairy, "GRACE_SECONDS", 0.2)
    monkeypatch.setattr(fairy, "STOP_SECONDS", 0.2)
    engine, _log = fake("hang", tmp_path)
    ticks = 0

    async def ticking() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    ticker = asyncio.create_task(ticking())
    try:  # it gives up on the engine rather than waiting for it (a minute: never reached)
        assert await asyncio.wait_for(fairy_turn(engine, played(), 0.1), 60) is None
    finally:
        ticker.cancel()
        await engine.close()
    assert engine.starts == 2
    assert ticks >= 20  # the loop went on while the engine hung
    assert engine.resting and await fairy_turn(engine, played(), 0.1) is None
    assert engine.starts == 2  # a resting engine is not started again


async def test_an_engine_that_died_is_started_again_for_the_same_question(tmp_path):
    engine, _log = fake("die-once", tmp_path)
    try:
        turn = await fairy_turn(engine, played(), 0.1)
    finally:
        await engine.close()
    assert turn is not None and engine.starts == 2


async def test_a_question_given_up_leaves_no_late_answer_for_the_next(tmp_path):
    engine, log = fake("slow", tmp_path)
    log.touch()
    first, second = played(), played("c3c4")  # the other side to move
    stale = first.notation(first.legal_moves()[0])
    fresh = second.notation(second.legal_moves()[0])
    assert stale != fresh
    asked = asyncio.create_task(fairy_turn(engine, first, 5))
    while "go" not in log.read_text(errors="replace").split():  # the engine is thinking
        await asyncio.sleep(0.05)
    asked.cancel()
    with pytest.raises(asyncio.CancelledError):
        await asked
    try:
        assert await fairy_turn(engine, second, 5) == [fresh]
    finally:
        await engine.close()


async def test_an_engine_without_torishogi_or_no_engine_at_all_gives_no_move(tmp_path):
    engine, _log = fake("no-variant", tmp_path)
    missing = FairyStockfish([str(tmp_path / "no-such-engine")])
    assert await fairy_turn(engine, played(), 0.1) is None
    assert await fairy_turn(missing, played(), 0.1) is None
    await engine.close()


async def test_a_game_no_uci_engine_knows_is_never_asked_about(tmp_path):
    """TORA has no ``uci_variant``: its ``master`` is ours, the engine not even started."""
    engine, _log = fake("good", tmp_path)
    try:
        assert await fairy_turn(engine, Game(), 0.1) is None
        assert engine.starts == 0
    finally:
        await engine.close()


async def test_go_depth_for_measuring_and_go_nodes_for_analysis(tmp_path):
    engine, log = fake("good", tmp_path)
    try:
        assert await engine_turn(engine, played(), Limit(5, depth=3)) is not None
        assert await engine_turn(engine, played(), Limit(5, nodes=20000)) is not None
    finally:
        await engine.close()
    said = log.read_text().splitlines()
    assert "go depth 3" in said and "go nodes 20000" in said


async def test_master_plays_the_engines_move_and_other_levels_our_own(tmp_path):
    engine, log = fake("good", tmp_path)
    offload = Offload(processes=0, ai_processes=0, fairy=engine)
    game = played()
    try:
        master = await offload.ai_turn(game, "master", 0.1, seed=1)
        hard = await offload.ai_turn(game, "hard", 0.05, seed=1)
    finally:
        await offload.aclose()
    first = game.notation(game.legal_moves()[0])
    assert master == [first]  # the fake's answer
    assert len(hard) == 1
    assert log.read_text().count("go movetime") == 1  # only master asked the engine


async def test_master_falls_back_to_our_engine_when_the_engine_fails(tmp_path):
    engine, _log = fake("die", tmp_path)
    offload = Offload(processes=0, ai_processes=0, fairy=engine)
    game = played()
    try:
        turn = await offload.ai_turn(game, "master", 0.05, seed=1)
    finally:
        await offload.aclose()
    assert turn[0] in {game.notation(m) for m in game.legal_moves()}
    assert engine.starts == 2


async def test_a_hosted_master_match_plays_the_engines_move(tmp_path):
    log = tmp_path / "commands.log"
    program = tmp_path / "fairy-stockfish"
    program.write_text(f"#!/bin/sh\nexec {sys.executable} {FAKE} good {log}\n")
    program.chmod(0o755)
    settings = Settings(
        burst=1000,
        every=0.001,
        ai_processes=0,
        ai_seconds=0.05,
        auto_away=False,
        fairy_stockfish=str(program),
    )
    here, ann = Place(guild_id=1, channel_id=100), User(1, "ann")
    async with Harness(tmp_path / "tora.sqlite3", settings=settings) as h:
        terms = Terms(game="torishogi", rated=False, turn_seconds=3600.0)
        await h.service.challenge_ai(here, ann, "master", terms)
        await h.settle()
        await h.service.play(here, ann, "c3c4")
        await h.service.end_turn(here, ann)
        await h.settle()
        posted = h.delivery.texts(here.channel_id)[-1]
    expected = played("c3c4")
    engines_move = expected.notation(expected.legal_moves()[0])  # what the fake plays
    assert posted.startswith("AI (master) (Opposition) ended their turn:")
    assert engines_move in posted
    assert f"position fen {expected.start_fen} moves c3c4" in log.read_text().splitlines()


def test_the_engine_path_is_read_from_the_environment_and_checked(tmp_path):
    program = tmp_path / "fairy-stockfish"
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    env = {"DISCORD_TOKEN": "t"}
    assert Config.from_env(env).fairy_stockfish is None
    assert Config.from_env({**env, "TORA_FAIRY_STOCKFISH": str(program)}).fairy_stockfish == str(
        program
    )
    for wrong in (tmp_path / "missing", tmp_path):  # no such file; a directory
        with pytest.raises(ConfigError, match="TORA_FAIRY_STOCKFISH"):
            Config.from_env({**env, "TORA_FAIRY_STOCKFISH": str(wrong)})


REAL = os.environ.get("TORA_FAIRY_STOCKFISH")


@pytest.mark.skipif(not REAL, reason="TORA_FAIRY_STOCKFISH names no engine here")
async def test_the_real_engine_plays_legal_moves_of_a_game():
    engine = FairyStockfish([REAL or ""])
    game = played("c3c4", "e5e4", "c4c5")
    try:
        for _ in range(4):
            turn = await fairy_turn(engine, game, 0.1)
            assert turn is not None
            game.apply(turn[0])
            game.end_turn()
    finally:
        await engine.close()
    assert engine.starts == 1
