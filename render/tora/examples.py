"""The example images of the README (docs/images), made from the samples and the example
record in docs/examples."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from rules.tora import Game

from ..ladder import LadderRow, ladder_png
from ..replays import record_status
from ..showcase import PLAYERS, write_images
from ..status import StatusInfo
from ..words import ENGLISH, Words
from .board import board_png, private_png
from .replay import replay_gif, views_from_record
from .samples import long_start, mid_game, private_preview
from .scorecard import score_card_png

EXAMPLE_RECORD = Path("docs/examples/short-game.tora")
REPLAY_TURNS = 16  # enough to show a replay without a megabyte in the repository
LADDER = (
    LadderRow(1, "Aiko", 1642, 31, 24),
    LadderRow(2, "Bram", 1588, 40, -12),
    LadderRow(3, "Chidi Okonkwo-Lindqvist", 1531, 12, 7),
    LadderRow(4, "Dunja", 1497, 25, 0),
    LadderRow(5, "Émile", 1460, 8, -5),
)


def examples(record: Path = EXAMPLE_RECORD) -> dict[str, bytes]:
    """File name -> image bytes."""
    text = record.read_text()
    views = views_from_record(text)
    players = replace(record_status(text), deadline="due in 23 h")
    short = views[3]
    long_mid = mid_game()
    return {
        "board-short.png": board_png(short, players),
        "board-long.png": board_png(long_mid, PLAYERS),
        "board-long-start.png": board_png(long_start(), PLAYERS),
        "private-preview.png": private_png(private_preview(), PLAYERS),
        "score-card-short.png": score_card_png(replace(short, score=(14, 9)), players),
        "score-card-long.png": score_card_png(replace(long_mid, score=(47, 38)), PLAYERS),
        "ladder.png": ladder_png(LADDER, "Ladder · TORA club"),
        "replay-short.gif": replay_gif(views[: REPLAY_TURNS + 1], players),
    }


def coordinates_png(words: Words = ENGLISH) -> bytes:
    """The quick start's picture: the short board at the start, its coordinates on every
    edge (v bottom to top, h left to right), its own words in ``words``' language."""
    game = Game(board="short", challenger_setup="aggressive", opposition_setup="aggressive")
    return board_png(game.view_for(None), StatusInfo(words=words))


def write(directory: Path) -> list[Path]:
    return write_images(directory, examples())
