"""Board images: size limits, R2 orientation, what each image may show, determinism."""

from __future__ import annotations

import io
import struct
from dataclasses import dataclass, replace
from functools import cache

import pytest
from PIL import Image
from positions import position

from render import StatusInfo, board_png, preview_png, private_png
from render import palette as pal
from render.tora.layout import layout_for
from render.tora.samples import (
    PLAYERS,
    assassin_turn,
    long_start,
    mid_game,
    private_preview,
    short_start,
)
from render.tora.sprites import Look, sprite
from rules.tora import Event, Game, PieceView, Side
from rules.tora.geometry import parse_square

C, O = Side.CHALLENGER, Side.OPPOSITION
KIB = 1024


def decode(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def chunks(data: bytes) -> list[bytes]:
    """The chunk types of a PNG file, in order."""
    types, at = [], 8
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        types.append(data[at + 4 : at + 8])
        at += 12 + length
    return types


def pixel(image: Image.Image, view_size: int, where: str) -> tuple[int, int, int]:
    layout = layout_for(view_size)
    x, y = layout.centre(parse_square(where, view_size))
    return image.convert("RGB").getpixel((int(x), int(y)))


def lone(side: Side, where: str, board: str = "short", **fields) -> PieceView:
    size = 9 if board == "short" else 17
    return PieceView(side, "A", "A", parse_square(where, size), **fields)


def test_short_board_is_a_small_palette_png_of_the_layout_size():
    data = board_png(short_start(), PLAYERS)
    image = decode(data)
    layout = layout_for(9)
    assert image.format == "PNG" and image.mode == "P"
    assert image.size == (layout.width, layout.height)
    assert len(data) <= 10 * KIB


def test_long_board_with_arrows_stays_under_its_size_limit():
    data = board_png(mid_game(), PLAYERS)
    assert decode(data).size == (layout_for(17).width, layout_for(17).height)
    assert len(data) <= 24 * KIB


def test_png_is_deterministic_and_carries_no_metadata():
    first = board_png(mid_game(), PLAYERS)
    assert board_png(mid_game(), PLAYERS) == first
    assert chunks(first) == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]


def test_r2_orientation_opposition_left_challenger_right_v1_at_the_bottom():
    view = replace(
        short_start(), pieces=(lone(O, "v1h1"), lone(C, "v9h9")), last_turn=(), round_end=()
    )
    image = decode(board_png(view, PLAYERS))
    assert pixel(image, 9, "v1h1") == pal.FILL[O]
    assert pixel(image, 9, "v9h9") == pal.FILL[C]
    layout = layout_for(9)
    bottom_left = layout.corner(parse_square("v1h1", 9))
    assert bottom_left[0] == layout.left
    assert bottom_left[1] == layout.top + layout.board_px - layout.cell


def test_sides_differ_in_shape_not_only_colour():
    for letter in "GKASHCX":
        disc = sprite(Look(C, letter), 36).getchannel("A")
        square = sprite(Look(O, letter), 36).getchannel("A")
        corner = (7, 7)  # inside the rounded square, outside the disc
        assert square.getpixel(corner) > 200 and disc.getpixel(corner) < 60


@pytest.mark.parametrize(
    "look",
    [
        Look(C, "S", defending=True),
        Look(C, "C", pale=True, flipped=True),
        Look(C, "G", command=True, doomed=True),
        Look(C, "K", command=True),
        Look(C, "Q", command=True),
        Look(C, "X", hidden=True),
    ],
)
def test_every_state_has_its_own_look(look):
    plain = sprite(Look(look.side, "S" if look.defending else look.letter), 48)
    assert sprite(look, 48).tobytes() != plain.tobytes()


def test_ruler_shows_its_owners_letter():
    assert (
        sprite(Look(C, "K", command=True), 48).tobytes()
        != sprite(Look(C, "Q", command=True), 48).tobytes()
    )


def test_last_turn_is_drawn():
    view = mid_game()
    with_turn = decode(board_png(view, PLAYERS)).convert("RGB")
    without = decode(board_png(replace(view, last_turn=()), PLAYERS)).convert("RGB")
    assert with_turn.tobytes() != without.tobytes()
    # the doomed General's square is framed in red
    layout = layout_for(17)
    x, y = layout.corner(parse_square("v4h5", 17))
    assert with_turn.getpixel((x + 2, y + layout.cell // 2)) == pal.DOOM


def test_public_board_refuses_a_players_view():
    view = Game(board="short").view_for(C)
    with pytest.raises(ValueError, match="view_for\\(None\\)"):
        board_png(view, PLAYERS)


def test_private_board_refuses_a_spectators_view():
    with pytest.raises(ValueError):
        private_png(short_start(), PLAYERS)


def test_preview_only_for_the_acting_player():
    game = Game(board="short")
    with pytest.raises(ValueError):
        preview_png(game.view_for(O), PLAYERS)
    game.apply("A v5h7-v5h5")
    assert decode(preview_png(game.view_for(C), PLAYERS)).format == "PNG"


def test_staged_actions_never_reach_the_public_board():
    game = Game(board="short")
    before = board_png(game.view_for(None), PLAYERS)
    game.apply("A v5h7-v5h5")
    assert board_png(game.view_for(None), PLAYERS) == before
    assert preview_png(game.view_for(C), PLAYERS) != before


def test_private_image_shows_the_hidden_assassin_and_its_path():
    view = private_preview()
    assassin = next(p for p in view.pieces if p.hidden)
    private = decode(private_png(view, PLAYERS)).convert("RGB")
    without = replace(
        view,
        pieces=tuple(p for p in view.pieces if not p.hidden),
        staged=tuple(e for e in view.staged if not e.hidden),
    )
    plain = decode(private_png(without, PLAYERS)).convert("RGB")
    layout = layout_for(17)
    x, y = layout.corner(assassin.sq)
    box = (x - layout.cell, y - layout.cell, x + layout.cell, y + 3 * layout.cell)
    assert private.crop(box).tobytes() != plain.crop(box).tobytes()
    colours = {colour for _count, colour in private.crop(box).getcolors(4096)}
    assert pal.HIDDEN in colours


def test_lone_hidden_assassin_is_drawn_full_size():
    view = replace(
        Game(board="long").view_for(C),
        pieces=(PieceView(C, "X", "X", parse_square("v2h17", 17), hidden=True),),
    )
    image = decode(private_png(view, PLAYERS)).convert("RGB")
    assert pixel(image, 17, "v2h17") != pixel(image, 17, "v3h17")


def test_long_start_with_terrain_draws_water_forest_and_hills():
    image = decode(board_png(long_start(), PLAYERS)).convert("RGB")
    layout = layout_for(17)
    x, y = layout.corner(parse_square("v9h9", 17))  # the highlands pool
    assert image.getpixel((x + 3, y + layout.cell // 2)) == pal.WATER
    x, y = layout.corner(parse_square("v6h6", 17))  # the western ridge
    assert image.getpixel((x + 3, y + 3)) == pal.HILL


def test_names_the_font_lacks_do_not_break_the_strip():
    info = StatusInfo(challenger="虎 Tora 🐯", opposition="Zoë " * 20, deadline="due in 2 days")
    assert decode(board_png(short_start(), info)).format == "PNG"


@cache
def _assassin_game(route: str) -> Game:
    """The turn ended (slow: the next turn's R25 check); tests only read views from it."""
    game = assassin_turn(route)
    game.end_turn()
    return game


def test_public_board_is_blind_to_where_the_assassin_went():
    one, other = _assassin_game("X v5h17-v8h16"), _assassin_game("X v5h17-v2h16")
    assert board_png(one.view_for(None), PLAYERS) == board_png(other.view_for(None), PLAYERS)
    assert private_png(one.view_for(C), PLAYERS) != private_png(other.view_for(C), PLAYERS)


def test_owner_sees_its_assassins_last_move_after_the_turn():
    view = _assassin_game("X v5h17-v8h16").view_for(C)
    assert view.side == O and any(e.hidden for e in view.last_turn)
    image = decode(private_png(view, PLAYERS)).convert("RGB")
    colours = {colour for _count, colour in image.getcolors(65536)}
    assert pal.HIDDEN in colours
    public = decode(board_png(_assassin_game("X v5h17-v8h16").view_for(None), PLAYERS))
    assert pal.HIDDEN not in {colour for _n, colour in public.convert("RGB").getcolors(65536)}


def _sq(where: str) -> int:
    return parse_square(where, 17)


def test_search_reveal_and_round_end_marks():
    around = tuple(_sq(f"v{v}h{h}") for v in (7, 8, 9) for h in (9, 10, 11))
    search = Event(O, "S v8h10 search", "S", _sq("v8h10"), _sq("v8h10"), (), (), (), ())
    search = replace(search, searched=around, revealed=_sq("v9h11"), note="Assassin found")
    base = replace(long_start(), last_turn=(), round_end=())
    plain = decode(board_png(base, PLAYERS)).convert("RGB")
    marked = decode(
        board_png(replace(base, last_turn=(search,), round_end=((C, "G", _sq("v4h14")),)), PLAYERS)
    ).convert("RGB")
    layout = layout_for(17)
    x, y = layout.corner(_sq("v9h9"))
    assert marked.getpixel((x + 1, y + 1)) == pal.HIDDEN  # the searched area's corner
    x, y = layout.corner(_sq("v9h11"))
    assert marked.getpixel((x + 2, y + layout.cell // 2)) == pal.HIDDEN  # the revealed square
    x, y = layout.corner(_sq("v4h14"))
    assert marked.getpixel((x + 3, y + 3)) == pal.DOOM  # removed at the round's end
    assert plain.getpixel((x + 3, y + 3)) != pal.DOOM


def test_any_object_with_the_status_fields_will_do():
    @dataclass(frozen=True)
    class ServiceStatus:  # the match service's own record, say
        challenger: str
        opposition: str
        deadline: str = ""

    view = short_start()
    ours = board_png(view, StatusInfo("Aiko", "Bram", "due in 11 h"))
    assert board_png(view, ServiceStatus("Aiko", "Bram", "due in 11 h")) == ours


def _red(pixel: tuple[int, ...]) -> bool:
    r, g, b = pixel[:3]
    return r > 150 and g < 100 and b < 110


def _cell_pixels(image: Image.Image, where: str, box: tuple[float, float, float, float]):
    """The RGB pixels of part of a square's cell (``box`` in fractions of the cell)."""
    layout = layout_for(9)
    x, y = layout.corner(parse_square(where, 9))
    c = layout.cell
    left, top, right, bottom = box
    crop = image.convert("RGB").crop(
        (round(x + left * c), round(y + top * c), round(x + right * c), round(y + bottom * c))
    )
    return [crop.getpixel((i, j)) for j in range(crop.height) for i in range(crop.width)]


def test_a_piece_that_took_by_moving_onto_its_victim_is_not_crossed_out():
    """The red cross of the removed piece lay under the taker standing on its square and
    showed round it, so the taker looked removed; the struck small copy alone marks it."""
    game = position((C, "A", "v3h3"), (O, "A", "v3h2"))
    game.apply("A v3h3-v3h2")
    game.end_turn()
    image = decode(board_png(game.view_for(None), PLAYERS))
    top_left = _cell_pixels(image, "v3h2", (0.02, 0.02, 0.3, 0.3))
    assert not any(_red(p) for p in top_left)
    bottom_right = _cell_pixels(image, "v3h2", (0.6, 0.6, 1.0, 1.0))
    assert any(_red(p) for p in bottom_right)  # the victim's struck copy


def test_a_cannon_shot_never_runs_under_another_actions_number():
    """The Soldier's number sat in the middle of the square it left, where the Cannon's shot
    then passed: the number moves to a corner, and the shot shows through the square."""
    game = position(
        (C, "C", "v5h7"), (C, "S", "v4h7"), (C, "S", "v6h7"), (C, "S", "v5h5"), (O, "S", "v5h2")
    )
    game.apply("S v5h5-v6h4")
    game.apply("C v5h7 fire W")
    game.end_turn()
    image = decode(board_png(game.view_for(None), PLAYERS))
    middle = _cell_pixels(image, "v5h5", (0.3, 0.45, 0.7, 0.55))
    assert sum(_red(p) for p in middle) > len(middle) // 4
    badge_colour = pal.ARROW[C]
    corner = _cell_pixels(image, "v5h5", (0.66, 0.66, 1.0, 1.0))
    assert any(p[:3] == badge_colour for p in corner)


def test_the_tora_strip_keeps_a_long_names_score_clear_of_the_round() -> None:
    """A 28-letter name with a score of 12 and +4 pending: the name is cut so that name,
    score and pending points end before "Round 1" (its room worked out from their measured
    widths), where a fixed 70 px for score and pending let "+4" run into the round."""
    view = replace(Game(board="short").view_for(None), score=(12, 12), pending=(4, 4))
    short = _rgb(board_png(view, StatusInfo("A", "B")))
    long_name = "Maximilian Featherstonehaugh"
    long = _rgb(board_png(view, StatusInfo(long_name, long_name)))
    width = short.width
    px = short.load()
    # the middle label's columns: what the short names' line draws away from both sides
    middle = [x for x in range(120, width - 120) if any(px[x, y] != pal.FRAME for y in range(31))]
    assert middle
    lo, hi = min(middle), max(middle)
    band = (lo - 2, 0, hi + 3, 31)
    clear = long.crop(band).tobytes() == short.crop(band).tobytes()
    assert clear, "the long name's score or pending points are drawn over the round's label"


def _rgb(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


@pytest.mark.parametrize("game", ["tora", "torishogi", "torii"])
def test_the_quick_starts_picture_names_the_side_to_act_once(game, monkeypatch):
    """The coordinates picture of `/tora help` has no players, so its names are the sides'
    own. Regression: its status line read "Challenger (Challenger) to act" (ToriShogi's "...
    to move"), the role repeated after a name that was the role."""
    from render.coordinates import coordinates_of
    from render.words import English

    said: list[str] = []

    def recording(self, message: str, /, **params: object) -> str:
        said.append(message.format_map(params))
        return said[-1]

    monkeypatch.setattr(English, "_", recording)
    coordinates_of.__wrapped__(game)
    assert not [text for text in said if "(Challenger)" in text or "(Opposition)" in text], said


def test_r28_a_new_games_board_shows_no_marks_of_the_game_before() -> None:
    """A series to a target: the Opposition's General falls, game 2 begins on a fresh board.
    Its picture shows no last turn (no arrow from v5h7, no struck General on v5h4): that
    turn was played on game 1's board. The texts still tell it (``last_turn``)."""
    from test_rules_outcomes import general_falls

    view = general_falls(target=20).view_for(None)
    assert view.game_number == 2 and view.round == 1 and view.last_turn and view.round_end
    info = StatusInfo("ann", "bob", "due in 5 h")
    fresh = replace(view, last_turn=(), last_turn_side=None, round_end=())
    assert board_png(view, info) == board_png(fresh, info)
