"""The images in the reader's language (issue 30): a board, a private preview, a score card
and a ladder page drawn in every shipped language match their goldens
(``tests/golden/languages``, ``make goldens``); the language travels with a drawing job as a
``Language`` (it pickles, it keys the image caches); the service draws a public board in its
server's language and a player's own board sent by DM in that player's."""

from __future__ import annotations

import io
import pickle
from pathlib import Path

import pytest
from PIL import Image

from bot import goldens
from bot.app.pictures import PillowRenderer
from bot.i18n import LOCALES
from bot.i18n.words import Language
from bot.service import Place, Pointing, Status, Terms, User
from bot.service.testing import PRIVATE, DigestRenderer, Harness
from render import (
    BracketMatch,
    ChartPoint,
    StatusInfo,
    bracket_png,
    ladder_png,
    rating_chart_png,
    score_card_png,
)
from render.eval_chart import evaluation_chart_png
from render.event_table import EventTable, event_table_png
from render.tora import goldens as tora_goldens
from render.tora.board import board_png
from render.tora.examples import LADDER
from render.tora.samples import mid_game, short_start
from rules import GameView
from rules.tora import Game

LANGUAGE_DIR = Path(__file__).parent / "golden" / "languages"
STORED = sorted(str(p.relative_to(LANGUAGE_DIR)) for p in LANGUAGE_DIR.glob("*/*.png"))
HERE = Place(guild_id=1, channel_id=100)
ANN, BOB = User(1, "ann"), User(2, "bob")


@pytest.fixture(scope="module")
def rendered() -> dict[str, bytes]:
    return goldens.rendered()


def test_every_language_has_its_four_golden_images(rendered):
    assert sorted(rendered) == STORED, "run python -m bot.goldens --refresh (make goldens)"
    assert {name.split("/")[0] for name in STORED} == set(LOCALES)


@pytest.mark.parametrize("name", STORED)
def test_each_language_matches_its_golden_image(rendered, name):
    difference = tora_goldens.compare((LANGUAGE_DIR / name).read_bytes(), rendered[name])
    assert difference.same_size, f"{name} changed size"
    assert difference.ok, f"{name}: {difference.differing:.2%} of pixels differ"


def strip(png: bytes) -> Image.Image:
    """The status strip atop a board image (its words), as RGB."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    return image.crop((0, 0, image.width, 60))


@pytest.mark.parametrize("code", [c for c in LOCALES if c != "en"])
def test_each_language_draws_its_own_words_and_the_board_stays_the_same(rendered, code):
    """Only the words change: the board under the strip is the English one, pixel for pixel."""
    english = Image.open(io.BytesIO(rendered["en/board.png"])).convert("RGB")
    mine = Image.open(io.BytesIO(rendered[f"{code}/board.png"])).convert("RGB")
    assert (
        strip(rendered[f"{code}/board.png"]).tobytes() != strip(rendered["en/board.png"]).tobytes()
    )
    below = (0, 62, english.width, english.height)
    assert mine.crop(below).tobytes() == english.crop(below).tobytes()
    for kind in ("score-card", "ladder"):
        assert rendered[f"{code}/{kind}.png"] != rendered[f"en/{kind}.png"]


def test_english_is_what_render_draws_without_words():
    """An image drawn without a language is the English one, byte for byte (the goldens of
    ``render`` stay as they were)."""
    info = StatusInfo("Aiko", "Bram", "due in 11 h")
    worded = StatusInfo("Aiko", "Bram", "due in 11 h", words=Language("en"))
    assert board_png(mid_game(), info) == board_png(mid_game(), worded)
    assert score_card_png(short_start(), info) == score_card_png(short_start(), worded)
    assert ladder_png(LADDER) == ladder_png(LADDER, None, Language("en"))
    assert ladder_png([], "Ladder") == ladder_png([], None, Language("en"))


def test_a_language_pickles_as_its_code_and_keys_a_cache():
    german = Language("de")
    assert pickle.loads(pickle.dumps(german)) == german
    assert hash(Language("de")) == hash(german) and Language("ja") != german
    assert Language("xx") == Language("en")  # a language not shipped: English
    assert german._("Round {round}", round=4) == "Runde 4"
    assert Language("ja").ngettext("{n} point", "{n} points", 3) == "3点"


def test_the_renderer_draws_and_caches_each_language_apart():
    renderer = PillowRenderer()
    view, status = mid_game(), Status("Aiko", "Bram", "due in 11 h")
    english = renderer.board(view, status)
    japanese = renderer.board(view, status, "ja")
    assert japanese != english
    assert renderer.board(view, status, "en") == english
    assert renderer.board(view, status, "ja") == japanese
    # the drawing worker gets the renderer pickled, and draws the same
    copy = pickle.loads(pickle.dumps(renderer))
    assert copy.board(view, status, "ja") == japanese


class Drawn(DigestRenderer):
    """The digest renderer, keeping what each image was drawn with."""

    def __init__(self) -> None:
        self.drawn: list[tuple[str, Status, str]] = []

    def board(self, view: GameView, status: Status, language: str = "en") -> bytes:
        self.drawn.append(("board", status, language))
        return super().board(view, status, language)

    def private(
        self, view: GameView, status: Status, marks: Pointing | None = None, language: str = "en"
    ) -> bytes:
        self.drawn.append((f"private {view.viewer}", status, language))
        return super().private(view, status, marks, language)


async def test_the_public_board_speaks_the_servers_language_and_a_dm_its_readers(db):
    """Ann (German) challenges Bob (Japanese) on a Spanish server: the game's start posts
    its board in Spanish, each player's own board comes by DM in their language, whoever
    accepted; the deadline beside each is worded in the image's language too."""
    renderer = Drawn()
    h = Harness(db, renderer=renderer)
    await h.open()
    try:
        await h.running.records.choose_server_language(HERE.guild_id, "es")
        await h.running.records.choose_player_language(ANN, "de")
        await h.running.records.choose_player_language(BOB, "ja")
        await h.running.challenge(HERE, ANN, BOB, Terms(game="torishogi"))
        await h.running.accept(HERE, BOB)
        await h.settle()
    finally:
        await h.close()
    public = [f.data for message in h.delivery.channel(HERE.channel_id) for f in message.files]
    assert public and all(data.startswith(b"board@es:") for data in public)
    for user, code in ((ANN, "de"), (BOB, "ja")):
        own = [
            f.data for d in h.delivery.user(user.id) if d.kind == PRIVATE for f in d.message.files
        ]
        assert own and all(data.startswith(f"private@{code}:".encode()) for data in own), own
    starts = {"es": "vence en ", "de": "fällig in ", "ja": "期限まで"}
    assert {language for _kind, _status, language in renderer.drawn} == set(starts)
    for kind, status, language in renderer.drawn:
        assert status.deadline.startswith(starts[language]), (kind, status, language)


def charts(words: Language) -> dict[str, bytes]:
    """The shared charts, their own words in ``words``' language."""
    points = [ChartPoint(1500 + 7 * i, 80 - i) for i in range(12)]
    tiers = [
        [
            BracketMatch("Aiko", "Bram", (3, 1), 0, 4),
            BracketMatch("Chidi", "Dunja", (2, 2), None, 1),
        ],
        [BracketMatch("Aiko", "?", (0, 0), None, 0)],
    ]
    table = EventTable("Swiss", ("#", "Player", "Points"), ())
    return {
        "rating": rating_chart_png(points, "Aiko", words),
        "no rating": rating_chart_png([], "Aiko", words),
        "bracket": bracket_png("Cup", tiers, None, words),
        "evaluation": evaluation_chart_png([0.1 * i for i in range(20)], [3], "Match 4", words),
        "event table": event_table_png(table, words),
    }


def test_the_charts_draw_their_own_words_in_each_language_and_english_as_before():
    english = charts(Language("en"))
    points = [ChartPoint(1500 + 7 * i, 80 - i) for i in range(12)]
    assert english["rating"] == rating_chart_png(points, "Aiko")
    assert english["event table"] == event_table_png(
        EventTable("Swiss", ("#", "Player", "Points"), ())
    )
    for code in LOCALES[1:]:
        theirs = charts(Language(code))
        assert [kind for kind in english if theirs[kind] == english[kind]] == [], code


def test_a_japanese_board_shows_who_is_to_act_when_the_name_is_cyrillic() -> None:
    """A server speaking Japanese, a player named "Иван": the status sentence
    "{name}(Challenger)の手番" is drawn in runs, the name in DejaVu and the rest in Noto
    (Noto lacks Cyrillic, Greek, ł ś ż š ž č ř ş ğ...): two names give two sentences,
    where one face for the whole line left the name out."""
    view = Game(board="short").view_for(None)

    def sentence(name: str) -> bytes:
        info = StatusInfo(challenger=name, opposition="Bram", words=Language("ja"))
        image = Image.open(io.BytesIO(board_png(view, info))).convert("RGB")
        return image.crop((0, 31, image.width, 62)).tobytes()  # the strip's second line

    assert sentence("Иван") != sentence("Олег")
