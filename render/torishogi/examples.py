"""The documentation's example images (docs/images): the start position, and a middle game
in check, drawn from a short game played through the rules engine.

    python -m render.torishogi.examples [DIR]
"""

from __future__ import annotations

import sys
from pathlib import Path

from render.status import StatusInfo
from render.words import ENGLISH, Words
from rules.torishogi import ToriShogiGame

from .board import board_png

PLAYERS = StatusInfo(challenger="Aiko", opposition="Bram", deadline="due in 23 h")
# Both sides trade Swallows, and the Challenger's Falcon walks up to promote with check.
CHECK_GAME = (
    *("e4e5", "d6e5", "S@c6", "S@d6", "e1e2", "c4c3", "d2c3", "S@f6", "c3b4", "g5g4"),
    *("S@b2", "c7b6", "f3f4", "g4g3", "c1d2", "e5f4", "b4c5", "b6c7", "c5d6+"),
)


def check_game() -> ToriShogiGame:
    game = ToriShogiGame()
    for move in CHECK_GAME:
        game.apply(move)
        game.end_turn()
    return game


def coordinates_png(words: Words = ENGLISH) -> bytes:
    """The quick start's picture: the start position, its coordinates on every edge, its
    own words in ``words``' language."""
    return board_png(ToriShogiGame().view_for(None), StatusInfo(words=words))


def write(directory: Path) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    images = {
        "torishogi-start.png": ToriShogiGame().view_for(None),
        "torishogi-check.png": check_game().view_for(None),
    }
    paths = []
    for name, view in images.items():
        path = directory / name
        path.write_bytes(board_png(view, PLAYERS))
        paths.append(path)
    return paths


if __name__ == "__main__":
    for written in write(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/images")):
        print(f"wrote {written}")
