"""Animated replays, views from records, and rendering off the event loop."""

from __future__ import annotations

import asyncio
import io
import random
from pathlib import Path

import pytest
from PIL import Image

from benchmarks.common import play_random_turn
from render import StatusInfo, board_png, record_status, render_async, replay_gif, views_from_record
from render.drawings import drawing_of
from render.encode import DISCORD_LIMIT, FRAME_BYTES_PER_PIXEL, gif_bytes
from render.status import Mode
from render.tora.board import board_image
from render.tora.samples import MID_GAME, PLAYERS
from rules import game_type
from rules.tora import Game, Side
from rules.tora.record import parse_record, write_record

EXAMPLE = Path(__file__).parents[1] / "docs" / "examples" / "short-game.tora"


def test_views_from_record_start_and_one_per_turn():
    text = EXAMPLE.read_text()
    views = views_from_record(text)
    assert len(views) == len(parse_record(text).turns) + 1
    assert views[0].round == 1 and not views[0].last_turn
    assert views[-1].outcome is not None
    assert all(view.viewer is None for view in views)


def test_a_tora_replay_shows_the_last_turn_before_a_player_resigned_on_their_own_turn() -> None:
    """The commonest ending: the Challenger ends a turn, the Opposition resigns on theirs.
    The replay read the Challenger's finished turn as one interrupted by the resignation
    (R26) and never ended it: its frame was missing, and the web page's move list showed
    that turn as "no action"; R50: replaying a record reproduces the game exactly."""
    rng = random.Random(0)
    game = Game(board="short")
    for _ in range(3):
        play_random_turn(game, rng)
    assert not game.is_over() and game.side == Side.OPPOSITION
    last = list(game.turns[-1].texts)
    game.resign(Side.OPPOSITION)
    text = write_record(game, {"Challenger": "ann", "Opposition": "bob"})
    views = drawing_of("tora").views(text)
    assert len(views) == len(game.turns) + 1
    assert [event.text for event in views[3].last_turn] == last


def test_replay_gif_has_a_frame_per_view_and_fits_discord():
    text = EXAMPLE.read_text()
    views = views_from_record(text)
    data = replay_gif(views, record_status(text))
    assert len(data) < DISCORD_LIMIT
    gif = Image.open(io.BytesIO(data))
    assert gif.format == "GIF" and gif.n_frames == len(views)
    assert gif.info["loop"] == 0


def test_long_replay():
    views = views_from_record(MID_GAME)
    gif = Image.open(io.BytesIO(replay_gif(views, PLAYERS)))
    assert gif.n_frames == 9


def test_record_names_reach_the_status():
    info = record_status(EXAMPLE.read_text())
    assert (info.challenger, info.opposition) == ("Aiko", "Bram")


def test_replay_refuses_player_views_and_empty_input():
    with pytest.raises(ValueError):
        replay_gif([Game(board="short").view_for(Side.CHALLENGER)], PLAYERS)
    with pytest.raises(ValueError):
        replay_gif([], PLAYERS)


async def test_render_async_runs_off_the_loop_and_in_parallel():
    views = views_from_record(EXAMPLE.read_text())[:8]
    expected = [board_png(view, PLAYERS) for view in views]
    rendered = await asyncio.gather(*(render_async(board_png, view, PLAYERS) for view in views))
    assert list(rendered) == expected


def test_each_frame_is_the_board_of_its_view():
    views = views_from_record(MID_GAME)
    gif = Image.open(io.BytesIO(replay_gif(views, PLAYERS)))
    for index in (0, 4, len(views) - 1):
        gif.seek(index)
        expected = board_image(views[index], PLAYERS, Mode.PUBLIC).convert("RGB")
        assert gif.convert("RGB").tobytes() == expected.tobytes()


@pytest.mark.parametrize("game", ["tora-long", "torishogi", "torii"])
def test_a_replays_busy_frames_stay_within_the_bytes_its_bound_counts_on(game):
    """``most_frames`` bounds a replay by ``FRAME_BYTES_PER_PIXEL``, measured on each game's
    busiest frames: the late frames of a long random game, with 32-character names, stay
    within it (else a long match's replay could pass Discord's limit after all)."""
    info = StatusInfo("Bartholomew Montgomery-Whitfield", "Maximilian Featherstonehaugh")
    rng = random.Random(1)
    kind = game_type(game.split("-")[0])
    play = Game(board="long") if game == "tora-long" else kind.new_game(*kind.sample_setup({}))
    views = [play.view_for(None)]
    while len(views) < 120 and not play.is_over():
        play_random_turn(play, rng)
        views.append(play.view_for(None))
    drawing = drawing_of(kind.id)
    frames = [drawing.frame(view, info) for view in views[-12:]]
    first = len(gif_bytes(frames[:1]))
    width, height = frames[0].size
    worst = max(len(gif_bytes([frames[0], frame])) - first for frame in frames)
    assert worst <= FRAME_BYTES_PER_PIXEL * width * height
