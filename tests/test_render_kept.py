"""What render keeps between pictures (issue 26): a board under the strip (``render.tora.board``)
and a blended arrow (``render.compose``) are reused only for exactly what they were drawn from,
so a picture is the same file whatever was drawn before it, and nothing of a player's own
picture (their hidden Assassin, its dashed path) reaches a public one."""

from __future__ import annotations

import contextlib
import gc
import io
import random
from dataclasses import replace

import pytest
from PIL import Image
from rules_helpers import end_the_turn

from render import bands, compose, strokes
from render import palette as pal
from render.compose import paste_colours
from render.status import StatusInfo
from render.tora import board as tora_board
from render.tora.base import base_board
from render.tora.layout import layout_for
from render.tora.samples import assassin_turn
from rules import IllegalAction
from rules.sides import Side
from rules.tora import Event, Game, PieceView, Terrain, View, square

INFO = StatusInfo(challenger="Aiko", opposition="Bram", deadline="due in 11 h")


def forget(monkeypatch: pytest.MonkeyPatch) -> None:
    """Empty every cache a board picture is drawn with."""
    monkeypatch.setattr(bands, "CACHE", bands.BandCache(bands.CACHE_BYTES))
    monkeypatch.setattr(compose, "_BLENDS", compose._Blends(compose.BLENDS_BYTES))
    tora_board._board.cache_clear()


def test_r40_a_turn_ends_pictures_are_what_they_are_drawn_alone(monkeypatch):
    """The Challenger stages a secret Assassin move, previews it and ends the turn; every
    picture of that turn is, byte for byte, the file drawn with nothing kept."""
    game = assassin_turn()
    preview = game.view_for(Side.CHALLENGER)
    game.end_turn()
    views = [game.view_for(None), game.view_for(Side.CHALLENGER), game.view_for(Side.OPPOSITION)]

    def drawn(view: object) -> bytes:
        if view.viewer is None:  # type: ignore[attr-defined]
            return tora_board.board_png(view, INFO)  # type: ignore[arg-type]
        return tora_board.private_png(view, INFO)  # type: ignore[arg-type]

    alone = {}
    for view in [preview, *views]:
        forget(monkeypatch)
        alone[id(view)] = drawn(view)
    forget(monkeypatch)
    for view in [preview, *views, *reversed(views)]:
        assert drawn(view) == alone[id(view)]
    assert alone[id(views[0])] == drawn(views[0])
    assert_the_assassin_is_drawn(views[1], alone[id(views[1])])


def assert_the_assassin_is_drawn(view: View, png: bytes) -> None:
    """The owner's picture shows its hidden Assassin: its square differs from the same
    picture drawn without it."""
    (assassin,) = (piece for piece in view.pieces if piece.hidden)
    unseen = replace(view, pieces=tuple(piece for piece in view.pieces if not piece.hidden))
    layout = layout_for(view.terrain.size)
    x, y = layout.corner(assassin.sq)
    cell = (x - 2, y - 2, x + layout.cell, y + layout.cell)
    with_it = Image.open(io.BytesIO(png)).convert("RGB").crop(cell)
    without = Image.open(io.BytesIO(tora_board.private_png(unseen, INFO))).convert("RGB")
    assert with_it.tobytes() != without.crop(cell).tobytes()


def test_a_kept_arrow_is_reused_only_over_the_same_pixels():
    """An arrow blended onto the board is kept by the pixels under it: the same arrow over
    other pixels (a piece moved under it) is blended anew."""
    canvas = Image.new("RGB", (60, 40), pal.LIGHT)
    plain = pal.to_palette(canvas)
    marked = plain.copy()
    marked.paste(pal.index(pal.BLACK), (10, 10, 30, 14))
    mask = Image.new("L", (40, 20), 0)
    mask.paste(255, (5, 5, 35, 15))
    box = (10, 5, 50, 25)
    expected = []
    for image in (plain, marked):
        region = image.crop(box).convert("RGB")
        region.paste(pal.ARROW[Side.CHALLENGER], (0, 0, *region.size), mask)
        expected.append(pal.to_palette(region).tobytes())
    for image, blended in zip((plain, marked, plain), (*expected, expected[0]), strict=True):
        drawn = image.copy()
        paste_colours(drawn, box, [(pal.ARROW[Side.CHALLENGER], "bar")], lambda _s, _b: mask)
        assert drawn.crop(box).tobytes() == blended


def test_a_stroke_s_blend_is_found_again_with_its_mask_made_anew(monkeypatch):
    """A stroke's blend is kept by the stroke, not by its mask: once the masks' cache has
    let the mask go, the same stroke over the same pixels is still the kept blend."""
    forget(monkeypatch)
    board = base_board(Terrain(9))
    arrow = strokes.Stroke([(60.0, 80.0), (140.0, 80.0)], 6.0, [(140, 72), (152, 80), (140, 88)])
    first = board.copy()
    strokes.paint(first, (pal.ARROW[Side.CHALLENGER], arrow))
    kept = len(compose._BLENDS._kept)
    strokes.mask.cache_clear()
    again = board.copy()
    strokes.paint(again, (pal.ARROW[Side.CHALLENGER], arrow))
    assert again.tobytes() == first.tobytes()
    assert len(compose._BLENDS._kept) == kept  # found, not blended and kept anew


def held_bytes(root: object) -> int:
    """The pixels and bytes that ``root`` keeps alive, each object once."""
    seen: set[int] = set()
    total, todo = 0, [root]
    while todo:
        thing = todo.pop()
        if id(thing) in seen:
            continue
        seen.add(id(thing))
        if isinstance(thing, Image.Image):
            total += thing.width * thing.height * len(thing.getbands())
        elif isinstance(thing, bytes):
            total += len(thing)
        else:
            todo.extend(gc.get_referents(thing))
    return total


def test_the_blends_kept_stay_within_their_bytes(monkeypatch):
    """The blends cache counts all it keeps alive (the masks and sprites its blends were
    made of included) and stays within its bound over a long game's pictures."""
    forget(monkeypatch)
    cache = compose._Blends(256 * 1024)
    monkeypatch.setattr(compose, "_BLENDS", cache)
    rng = random.Random(3)
    game = Game(board="long", terrain="river")
    for _ in range(8):
        for _ in range(game.actions_left):
            with contextlib.suppress(IllegalAction, IndexError):
                game.apply(rng.choice(game.legal_actions()))
                tora_board.preview_png(game.view_for(game.side), INFO)
        end_the_turn(game)
        tora_board.board_png(game.view_for(None), INFO)
        tora_board.private_png(game.view_for(game.side), INFO)
        assert held_bytes(cache._kept) <= cache._size <= cache.most


def assert_below_the_strip(view: View) -> None:
    events = view.staged if view.staged else view.last_turn
    round_end = () if view.staged else view.round_end
    visible = tuple(piece for piece in view.pieces if not piece.hidden)
    assert_kept_below_the_strip(view.terrain, events, round_end, visible)


def assert_kept_below_the_strip(
    terrain: Terrain,
    events: tuple[Event, ...],
    round_end: tuple[tuple[Side, str, int], ...],
    visible: tuple[PieceView, ...],
) -> None:
    layout = layout_for(terrain.size)
    kept = tora_board._board(terrain, events, round_end, visible)
    strip = (0, 0, layout.width, layout.strip)
    assert kept.crop(strip).tobytes() == base_board(terrain).crop(strip).tobytes()


@pytest.mark.parametrize("size", [9, 17])
def test_the_numbers_in_the_top_rows_corners_stay_below_the_status_strip(size):
    """A piece of the top row that acts in place gets its number in a corner of its square,
    the highest a mark of the turn goes: still below the strip."""
    top = [square(h, size) for h in range(1, size + 1)]
    acts = tuple(Event(Side.CHALLENGER, "A", "A", sq, sq, (), (), (), ()) for sq in top[:9])
    pieces = tuple(PieceView(Side.CHALLENGER, "A", "A", sq) for sq in top)
    assert_kept_below_the_strip(Terrain(size), acts, (), pieces)


@pytest.mark.parametrize("board", ["short", "long"])
def test_no_mark_of_a_turn_reaches_the_status_strip(board):
    """The strip goes on over a kept board: every mark of a turn (arrows, shots, the numbers
    in the corners of the top row's squares), on the public board and on each preview, stays
    below it, so the strip hides none."""
    rng = random.Random(5)
    game = Game(board=board, terrain="river" if board == "long" else "none")
    for _ in range(12):
        if game.is_over():
            break
        for _ in range(game.actions_left):
            actions = game.legal_actions()
            if not actions:
                break
            with contextlib.suppress(IllegalAction):  # a command piece's search refused
                game.apply(rng.choice(actions))
                assert_below_the_strip(game.view_for(game.side))
        end_the_turn(game)
        assert_below_the_strip(game.view_for(None))
