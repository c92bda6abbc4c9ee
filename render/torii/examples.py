"""The example images of docs/TORII.md, from a fixed record (so they stay the same whatever
the order the rules core lists turns in): ``python -m render.torii.examples [DIR]``."""

from __future__ import annotations

import sys
from pathlib import Path

from render.showcase import PLAYERS, write_images
from render.status import StatusInfo
from render.words import ENGLISH, Words
from rules.torii import TORII, View

from .board import board_png, replay_gif, views_from_record

MID_GAME = """\
[Game "torii"]
[ChallengerSpirit "Kitsune"]
[OppositionSpirit "Tatsu"]
[Powers "on"]

C: 1 push d4 c3
O: 3 b4 b2 a2
C: 3 c4 c5 c6 build c4
O: 2 a3 b3
C: 1 push b2 a6
O: 1 b1 build b4
C: 3 a5 a4 a3 build a6
O: 3 b2 c2 d2 build a2
C: 2 b3 b4
O: 1 d3
C: 3 c4 e4 f4
O: 2 c3 c5
C: 2 e4 d4 build d4
O: 3 b5 b3 b2 build b2
"""
REPLAY_TURNS = 8


def start_view() -> View:
    return TORII.new_game({}, ({"spirit": "Kitsune"}, {"spirit": "Tatsu"})).view_for(None)


def coordinates_png(words: Words = ENGLISH) -> bytes:
    """The quick start's picture: the start position (files a-f, ranks 1-6 on the edges),
    its own words in ``words``' language."""
    return board_png(start_view(), StatusInfo(words=words))


def examples() -> dict[str, bytes]:
    """File name -> image bytes."""
    views = views_from_record(MID_GAME)
    return {
        "torii-start.png": board_png(start_view(), PLAYERS),
        "torii-mid.png": board_png(views[-1], PLAYERS),
        "torii-replay.gif": replay_gif(views[: REPLAY_TURNS + 1], PLAYERS),
    }


def main(argv: list[str]) -> int:
    directory = Path(argv[0]) if argv else Path("docs/images")
    for path in write_images(directory, examples()):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
