"""Torii's board images: what they show, their size, and that equal views draw equal bytes."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image, ImageChops
from test_torii_positions import LINES_GAME, C, make, play

from bot.i18n.words import Language
from render.drawings import drawing_of
from render.status import StatusInfo
from render.torii import board_png, replay_gif, views_from_record
from render.torii.examples import MID_GAME, examples
from render.torii.examples import start_view as torii_start
from render.torii.layout import HEIGHT, WIDTH
from rules.torii import TORII, ToriiGame

KIB = 1024
INFO = StatusInfo("ann", "bob", "due in 5 h")
DOCS_IMAGES = Path(__file__).resolve().parents[1] / "docs" / "images"


def _image(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data))


def test_images_are_small_palette_pngs_of_the_layout_size() -> None:
    for view in views_from_record(MID_GAME):
        data = board_png(view, INFO)
        image = _image(data)
        assert image.format == "PNG" and image.mode == "P"
        assert image.size == (WIDTH, HEIGHT)
        assert len(data) <= 12 * KIB
        assert not image.info  # no metadata


def test_equal_views_give_identical_bytes() -> None:
    one = TORII.new_game({}, ({"spirit": "Deer"}, {"spirit": "Crane"}))
    two = TORII.read_record(TORII.write_record(one, None))
    play(one, "3 c3 c4 c6")
    play(two, "3 up up up")
    assert one.view_for(None) == two.view_for(None)
    assert board_png(one.view_for(None), INFO) == board_png(two.view_for(None), INFO)


def test_the_staged_turn_shows_only_in_the_actors_image() -> None:
    game = TORII.new_game({}, ({"spirit": "Deer"}, {"spirit": "Crane"}))
    before = board_png(game.view_for(None), INFO)
    game.apply("3 c3 c4 c6")
    assert board_png(game.view_for(None), INFO) == before
    assert board_png(game.view_for(C), INFO) != before


def _normal_turn() -> ToriiGame:
    return TORII.new_game({}, ({"spirit": "Deer"}, {"spirit": "Crane"}))


def _monkey_decisions() -> ToriiGame:
    return play(make(LINES_GAME, spirits="Ka2,Mf6", tiles="1,123"), "1 a3 build a3 a3-d3 build a5")


@pytest.mark.parametrize(
    ("start", "staged"),
    [
        (_normal_turn, ["3 c3 c4 c6"]),
        (_normal_turn, ["3 c3 c4 c6", "undo", "1 b2"]),
        (_monkey_decisions, ["flip O"]),
        (_monkey_decisions, ["flip none", "flip C"]),
        (_monkey_decisions, ["flip C", "undo"]),
    ],
)
def test_twin_games_differing_only_in_the_staged_turn_look_the_same_to_all_but_the_actor(
    start: Callable[[], ToriiGame], staged: list[str]
) -> None:
    """Two games, one with nothing staged, the other with ``staged`` staged (``undo``: the
    last taken back): the opponent's and a spectator's views and pictures are identical to
    the byte; the actor's own picture is where they differ (unless all was taken back)."""
    quiet, busy = start(), start()
    for text in staged:
        if text == "undo":
            busy.undo()
        else:
            busy.apply(text)
    drawing = drawing_of(TORII.id)
    assert drawing.board(quiet.view_for(None), INFO) == drawing.board(busy.view_for(None), INFO)
    for viewer in (None, quiet.side.other):
        assert quiet.view_for(viewer) == busy.view_for(viewer)
        seen = [drawing.own(g.view_for(viewer), INFO, None) for g in (quiet, busy)]
        assert seen[0] == seen[1]
    mine = [drawing.own(g.view_for(quiet.side), INFO, None) for g in (quiet, busy)]
    assert (mine[0] == mine[1]) == (not busy.staged())


def test_the_monkeys_pause_and_the_outcome_are_drawn() -> None:
    game = make(LINES_GAME, spirits="Ka2,Mf6", tiles="1,123")
    play(game, "1 a3 build a3 a3-d3 build a5")
    waiting = board_png(game.view_for(None), INFO)
    game.resign(C)
    assert board_png(game.view_for(None), INFO) != waiting
    long_names = StatusInfo("a" * 80, "Émile \u2603 \U0001d518", "")
    assert len(board_png(game.view_for(None), long_names)) <= 12 * KIB


def test_replays_have_a_frame_per_view() -> None:
    views = views_from_record(MID_GAME)[:4]
    gif = _image(replay_gif(views, INFO))
    assert gif.format == "GIF" and gif.n_frames == 4


def test_the_documented_images_are_current() -> None:
    for name, data in examples().items():
        if not name.endswith(".png"):
            continue
        stored = Image.open(DOCS_IMAGES / name).convert("RGB")
        made = _image(data).convert("RGB")
        assert ImageChops.difference(stored, made).getbbox() is None, name


def test_a_torii_board_shows_the_deadline_whatever_the_players_name() -> None:
    """A 32-character Discord name (the longest), in German: the strip cuts the name first,
    as TORA's and ToriShogi's do, so "{name} ist dran · fällig in ... · Kräfte aus" keeps its
    deadline, where the whole line was cut after "fällig…" and two deadlines looked the
    same."""
    view = torii_start()
    name = "Bartholomew Montgomery-Whitfield"  # 32 characters: Discord's longest

    def strip(deadline: str) -> bytes:
        info = StatusInfo(name, "Bram", deadline, words=Language("de"))
        return (
            Image.open(io.BytesIO(board_png(view, info)))
            .convert("RGB")
            .crop((0, 0, 400, 34))
            .tobytes()
        )

    same = strip("fällig in 3 Tagen") == strip("fällig in 20 Minuten")
    assert not same, "two different deadlines give the same strip: the deadline is cut off"
