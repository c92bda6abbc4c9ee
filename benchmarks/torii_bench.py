"""Torii figures: whole-turn generation, perft, board images (``python -m benchmarks.torii_bench``).

Images are measured as a running bot makes them: the empty board, pieces and names already
cached, a new position each time.
"""

from __future__ import annotations

import random
import sys
import time

from render.status import StatusInfo
from render.torii import board_png, views_from_record
from render.torii.examples import MID_GAME
from rules.torii import TORII, ToriiGame, View

from .common import Figure, image_figures, median, samples

INFO = StatusInfo(challenger="Aiko", opposition="Bram", deadline="due in 11 h")
KIB = 1024
SPIRIT_PAIRS = (("Deer", "Kitsune"), ("Crane", "Boar"), ("Monkey", "Tatsu"), ("Deer", "Crane"))


def middle_games(count: int = 12, turns: int = 10, seed: int = 0) -> list[ToriiGame]:
    """Games after ``turns`` random turns, powers on, various Spirits (seeded)."""
    games: list[ToriiGame] = []
    while len(games) < count:
        rng = random.Random(seed)
        pair = SPIRIT_PAIRS[seed % len(SPIRIT_PAIRS)]
        game = TORII.new_game({}, ({"spirit": pair[0]}, {"spirit": pair[1]}))
        for _ in range(turns):
            if game.is_over():
                break
            while game.actions_left:
                game.apply(rng.choice(game.legal_actions()))
            game.end_turn()
        if not game.is_over() and not game.deciding:
            games.append(game)
        seed += 1
    return games


def _legal_ms(game: ToriiGame, repeat: int) -> list[float]:
    """Every legal whole turn with its notation, from a fresh object (no cached table)."""
    fen = game.fen()
    return samples(lambda: TORII.from_fen(fen, {}).legal_actions(), repeat)


def legal_start() -> Figure:
    game = TORII.new_game({}, ({"spirit": "Deer"}, {"spirit": "Kitsune"}))
    return Figure("all legal turns, start, Deer v Kitsune (p50)", median(_legal_ms(game, 50)), "ms")


def legal_middle(games: list[ToriiGame]) -> Figure:
    times = [t for game in games for t in _legal_ms(game, 5)]
    return Figure("all legal turns, middle games with powers (p50)", median(times), "ms")


def perft_3() -> Figure:
    game = TORII.new_game({"powers": False}, ({"spirit": "Deer"}, {"spirit": "Kitsune"}))
    start = time.perf_counter()
    TORII.perft(game, 3)
    return Figure("perft 3 from the start, no powers (7,440)", time.perf_counter() - start, "s")


def images(views: list[View], warm: list[View]) -> list[Figure]:
    """``warm``: other positions drawn first, so the pieces are cached as in a running bot."""

    def draw(view: View) -> bytes:
        return board_png(view, INFO)

    label = "board image, new positions, pieces cached"
    return image_figures(draw, views, warm, label, 3, 12)


def run() -> list[Figure]:
    games = middle_games()
    views = views_from_record(MID_GAME) + [game.view_for(None) for game in games]
    warm = [game.view_for(None) for game in middle_games(seed=1000)]
    return [legal_start(), legal_middle(games), perft_3(), *images(views, warm)]


def main() -> int:
    print("Torii benchmarks (median of repeated runs)")
    for figure in run():
        print(figure.line(), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
