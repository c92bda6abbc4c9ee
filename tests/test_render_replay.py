"""Animated replays, views from records, and rendering off the event loop."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import pytest
from PIL import Image

from render import board_png, record_status, render_async, replay_gif, views_from_record
from render.encode import DISCORD_LIMIT
from render.status import Mode
from render.tora.board import board_image
from render.tora.samples import MID_GAME, PLAYERS
from rules.tora import Game, Side
from rules.tora.record import parse_record

EXAMPLE = Path(__file__).parents[1] / "docs" / "examples" / "short-game.tora"


def test_views_from_record_start_and_one_per_turn():
    text = EXAMPLE.read_text()
    views = views_from_record(text)
    assert len(views) == len(parse_record(text).turns) + 1
    assert views[0].round == 1 and not views[0].last_turn
    assert views[-1].outcome is not None
    assert all(view.viewer is None for view in views)


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
