"""ToriShogi images: sizes, determinism, orientation per viewer, replays."""

from __future__ import annotations

import io

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from bot.i18n.words import Language
from render.fonts import font
from render.status import StatusInfo
from render.torishogi import board_image, board_png, replay_gif
from render.torishogi import palette as pal
from render.torishogi.examples import check_game
from render.torishogi.layout import CELL, HAND_ROW, INNER, MARGIN, layout_for
from render.torishogi.palette import to_palette
from render.torishogi.status import NAME_AT, hand_plan, hand_strip
from rules.sides import Side
from rules.torishogi import SIZE, ToriShogiGame
from rules.torishogi.board import SQUARE_OF
from rules.torishogi.pieces import HAND_KINDS, SET_COUNT

INFO = StatusInfo("ann", "bob", "due in 5 h")
MAX_BYTES = 16 * 1024


def decode(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def centre_colour(image: Image.Image, viewer: Side | None, square: str) -> tuple[int, int, int]:
    """The colour a little under the middle of a square (the piece's body, not its name)."""
    x, y = layout_for(viewer).corner(SQUARE_OF[square])
    return image.getpixel((x + INNER // 2, y + INNER - 12))


def is_amber(rgb: tuple[int, int, int]) -> bool:
    return rgb[0] > 200 and rgb[2] < 120


def is_blue(rgb: tuple[int, int, int]) -> bool:
    return rgb[2] > 150 and rgb[0] < 100


def test_board_images_are_small_pngs_of_a_fixed_size() -> None:
    for game in (ToriShogiGame(), check_game()):
        for viewer in (None, Side.CHALLENGER, Side.OPPOSITION):
            data = board_png(game.view_for(viewer), INFO)
            assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) <= MAX_BYTES
            layout = layout_for(viewer)
            assert decode(data).size == (layout.width, layout.height)


def test_equal_views_give_identical_bytes() -> None:
    first, second = check_game(), check_game()
    assert board_png(first.view_for(None), INFO) == board_png(second.view_for(None), INFO)
    later = check_game()
    later.apply("e7d6")
    later.end_turn()
    assert board_png(later.view_for(None), INFO) != board_png(first.view_for(None), INFO)


def test_each_player_sees_the_board_from_their_side() -> None:
    game = ToriShogiGame()
    spectator = decode(board_png(game.view_for(None), INFO))
    challenger = decode(board_png(game.view_for(Side.CHALLENGER), INFO))
    opposition = decode(board_png(game.view_for(Side.OPPOSITION), INFO))
    assert spectator.tobytes() == challenger.tobytes()
    assert spectator.tobytes() != opposition.tobytes()
    bottom_left = layout_for(None).corner(SQUARE_OF["a1"])
    assert bottom_left == layout_for(Side.OPPOSITION).corner(SQUARE_OF["g7"])
    assert is_amber(centre_colour(spectator, None, "a1"))
    assert is_blue(centre_colour(opposition, Side.OPPOSITION, "g7"))
    assert is_blue(centre_colour(spectator, None, "g7"))


def test_the_preview_shows_the_staged_move_to_its_player_only() -> None:
    game = ToriShogiGame()
    before = board_png(game.view_for(Side.CHALLENGER), INFO)
    game.apply("d2c2")
    assert board_png(game.view_for(Side.CHALLENGER), INFO) != before
    assert board_png(game.view_for(None), INFO) == board_png(ToriShogiGame().view_for(None), INFO)


def test_the_check_and_the_last_move_are_marked() -> None:
    game = check_game()
    image = decode(board_png(game.view_for(None), INFO))
    x, y = layout_for(None).corner(SQUARE_OF["d7"])
    assert image.getpixel((x + 1, y + 1)) == (204, 24, 48)  # the red frame of the check
    x, y = layout_for(None).corner(SQUARE_OF["c5"])  # where the Falcon came from
    assert image.getpixel((x + INNER // 2, y + INNER // 2)) == (200, 214, 120)


def test_replay_gif_has_a_frame_per_view() -> None:
    game = ToriShogiGame()
    views = [game.view_for(None)]
    for move in ("e4e5", "c4c3", "d2c3"):
        game.apply(move)
        game.end_turn()
        views.append(game.view_for(None))
    data = replay_gif(views, INFO)
    gif = Image.open(io.BytesIO(data))
    assert gif.format == "GIF" and gif.n_frames == len(views)
    assert board_image(views[-1], INFO).mode == "P"


# The most a hand can hold: every piece of the set but the Phoenixes (SET_COUNT), captured by
# one side; only the Swallows reach two digits.
LARGEST_HAND = "S" * 16 + "FF" + "CCCC" + "PPPP" + "LL" + "RR"


def hand_strips(hand: str) -> tuple[Image.Image, Image.Image]:
    """The hand strips of the side holding ``hand`` (FEN letters: upper case the Challenger,
    lower case the Opposition), as seen from either side of the board."""
    game = ToriShogiGame(f"k6/7/7/7/7/7/6K[{hand}] w 0 1")
    side = Side.CHALLENGER if hand[0].isupper() else Side.OPPOSITION
    out = []
    for viewer in (Side.CHALLENGER, Side.OPPOSITION):
        view = game.view_for(viewer)
        out.append(hand_strip(layout_for(viewer), view, INFO, side).convert("RGB"))
    return out[0], out[1]


def test_every_kind_in_the_largest_hands_is_drawn_with_its_whole_count() -> None:
    """A count of two digits is not covered by the next kind, and the last kinds do not run
    off the strip: changing any one count (its last digit) changes the picture."""
    for hand in ("S" * 11 + "F", LARGEST_HAND, LARGEST_HAND.lower()):
        strips = hand_strips(hand)
        for letter in dict.fromkeys(hand):
            one_less = hand.replace(letter, "", 1)
            for before, after in zip(strips, hand_strips(one_less), strict=True):
                assert before.tobytes() != after.tobytes(), f"{letter} in {hand}"


def test_the_largest_hands_stay_inside_their_strips() -> None:
    layout = layout_for(None)
    for hand in (LARGEST_HAND, LARGEST_HAND.lower()):
        for strip in hand_strips(hand):
            outside = strip.crop((layout.width - MARGIN + 4, 0, layout.width, strip.height))
            assert {rgb for _n, rgb in outside.getcolors()} <= {pal.FRAME, pal.FRAME_LINE}, hand


@settings(max_examples=200, deadline=None)
@given(st.tuples(*(st.integers(0, SET_COUNT[kind]) for kind in HAND_KINDS)))
def test_any_hand_a_game_can_reach_fits_with_its_counts(counts: tuple[int, ...]) -> None:
    held = tuple((kind, n) for kind, n in zip(HAND_KINDS, counts, strict=True) if n)
    width = layout_for(None).width
    plan = hand_plan(width, held)
    drawn = [(slot.kind, slot.count) for slot in plan.slots]
    assert drawn == [(kind, f"\N{MULTIPLICATION SIGN}{n}") for kind, n in held]
    edges = [NAME_AT + plan.name_room] + [x for s in plan.slots for x in (s.x, s.end)]
    assert edges == sorted(edges) and edges[-1] <= width - MARGIN


HALF = 10  # half the side of the window around an edge label


def drawn_label(text: str) -> bytes:
    """``text`` as the board's edges show it, centred in a window of the frame's colour."""
    patch = Image.new("RGB", (2 * HALF, 2 * HALF), pal.FRAME)
    ImageDraw.Draw(patch).text((HALF, HALF), text, pal.MUTED, font(13, bold=True), anchor="mm")
    return to_palette(patch).convert("RGB").tobytes()


def test_ts1_the_board_shows_the_seed_coordinates() -> None:
    """Files 7..1 from the Challenger's left and ranks a..g from the top, as in the rule text's
    diagram; the Opposition sees them turned half round."""
    for viewer, files, ranks in (
        (None, "7654321", "abcdefg"),
        (Side.OPPOSITION, "1234567", "gfedcba"),
    ):
        layout = layout_for(viewer)
        image = decode(board_png(ToriShogiGame().view_for(viewer), INFO))
        edges = (MARGIN // 2, layout.left + layout.board_px + MARGIN // 2)
        for i in range(SIZE):
            middle = layout.left + i * CELL + CELL // 2
            for x, y, text in (
                (middle, layout.top - MARGIN // 2, files[i]),
                (middle, layout.top + layout.board_px + MARGIN // 2, files[i]),
                (edges[0], layout.top + i * CELL + CELL // 2, ranks[i]),
                (edges[1], layout.top + i * CELL + CELL // 2, ranks[i]),
            ):
                shown = image.crop((x - HALF, y - HALF, x + HALF, y + HALF)).tobytes()
                assert shown == drawn_label(text), (viewer, text, x, y)


def test_a_torishogi_empty_hand_is_worded_in_the_readers_language() -> None:
    """Every ToriShogi board starts with both hands empty: a German or Japanese board says
    so in its own language, where it said "nothing in hand" in English in every one."""
    view = ToriShogiGame().view_for(None)
    layout = layout_for(None)
    row = (0, layout.top_hand, layout.width, layout.top_hand + HAND_ROW)

    def hand(code: str) -> bytes:
        info = StatusInfo("Aiko", "Bram", "", words=Language(code))
        return Image.open(io.BytesIO(board_png(view, info))).convert("RGB").crop(row).tobytes()

    untranslated = [code for code in ("de", "ja") if hand(code) == hand("en")]
    assert not untranslated, f"the empty hand is drawn in English in {untranslated}"
