"""ToriShogi figures: legal moves in the middle game, perft from the start, board images.

    python -m benchmarks.torishogi_bench

Middle games are random games (captures preferred, so both hands fill up as they do in real
ToriShogi) stopped after 20 to 40 plies; every figure is a median over many positions.
"""

from __future__ import annotations

import random
import sys
import time
from functools import partial

import chess

from render.status import StatusInfo
from render.torishogi import board_png, replay_gif
from rules.torishogi import START_FEN, Position, ToriShogiGame, legal_moves, parse_fen, perft

from .common import Figure, median, p95, samples

INFO = StatusInfo(challenger="Aiko", opposition="Bram", deadline="due in 11 h")
FSF_PERFT = (17, 288, 5430, 103857)
KIB = 1024


def middle_games(count: int = 40, seed: int = 1) -> list[ToriShogiGame]:
    """Games 20 to 40 plies in, not over, from random play that prefers captures."""
    games: list[ToriShogiGame] = []
    rng = random.Random(seed)
    while len(games) < count:
        game = ToriShogiGame()
        for _ in range(rng.randrange(20, 41)):
            if game.is_over():
                break
            moves = game.legal_actions()
            captures = [m for m in moves if m.captured]
            game.apply(rng.choice(captures if captures and rng.random() < 0.5 else moves))
            game.end_turn()
        if not game.is_over():
            games.append(game)
    return games


def legal_moves_figures(games: list[ToriShogiGame]) -> list[Figure]:
    engine = [t for g in games for t in samples(partial(legal_moves, g.pos), 20)]
    objects: list[float] = []
    for game in games:
        for _ in range(5):
            game._legal = None  # measure the generation, not the cache
            objects += samples(game.legal_actions, 1)
    counts = [len(g.legal_actions()) for g in games]
    return [
        Figure("ToriShogi legal moves, middle game (p50)", median(engine), "ms", 0.3),
        Figure("ToriShogi legal moves, middle game (p95)", p95(engine), "ms"),
        Figure("ToriShogi legal actions as Move objects (p50)", median(objects), "ms"),
        Figure("ToriShogi legal moves per middle-game position (p50)", median(counts), "moves"),
    ]


def turn_figure(games: list[ToriShogiGame]) -> Figure:
    """Parse, stage and confirm one move (TS10 and TS9 judged), from notation."""
    times: list[float] = []
    rng = random.Random(2)
    for game in games:
        moves = game.legal_actions()
        for move in rng.sample(moves, min(3, len(moves))):
            trial = game.copy()

            def turn(trial: ToriShogiGame = trial, text: str = move.uci) -> None:
                trial.apply(text)
                trial.end_turn()

            times += samples(turn, 1)
    return Figure("ToriShogi apply + end_turn from notation (p50)", median(times), "ms")


def perft_figures(depth: int = 4) -> list[Figure]:
    figures = []
    for d in range(1, depth + 1):
        pos = parse_fen(START_FEN)
        start = time.perf_counter()
        nodes = perft(pos, d)
        seconds = time.perf_counter() - start
        if nodes != FSF_PERFT[d - 1]:
            raise AssertionError(f"perft {d} is {nodes}, Fairy-Stockfish says {FSF_PERFT[d - 1]}")
        figures.append(Figure(f"ToriShogi perft {d} from the start = {nodes}", seconds, "s"))
    figures[-1].target = 20.0
    figures.append(
        Figure(
            f"ToriShogi perft {depth} leaf nodes per second (last ply counted)",
            FSF_PERFT[depth - 1] / figures[-1].value,
            "nodes/s",
        )
    )
    pos = parse_fen(START_FEN)
    start = time.perf_counter()
    made = perft_made(pos, depth)
    seconds = time.perf_counter() - start
    figures.append(Figure(f"ToriShogi perft {depth}, every leaf move made too", seconds, "s"))
    figures.append(Figure("ToriShogi moves made and unmade per second", made / seconds, "nodes/s"))
    start = time.perf_counter()
    nodes = perft(parse_fen(START_FEN), depth + 1)
    figures.append(
        Figure(
            f"ToriShogi perft {depth + 1} from the start = {nodes}",
            time.perf_counter() - start,
            "s",
        )
    )
    figures.append(chess_perft_figure(depth))
    return figures


def chess_perft_figure(depth: int) -> Figure:
    """python-chess on chess, counted the same way (the last ply by counting legal moves)."""
    board = chess.Board()
    start = time.perf_counter()
    nodes = chess_perft(board, depth)
    return Figure(
        f"python-chess perft {depth} on chess ({nodes:,}) leaf nodes per second",
        nodes / (time.perf_counter() - start),
        "nodes/s",
    )


def chess_perft(board: chess.Board, depth: int) -> int:
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += chess_perft(board, depth - 1)
        board.pop()
    return total


def perft_made(pos: Position, depth: int) -> int:
    """Perft without counting the last ply in bulk: every leaf move is made and unmade, the
    honest measure of make/unmake plus generation."""
    if depth == 0:
        return 1
    total = 0
    for move in legal_moves(pos):
        token = pos.make(move)
        total += perft_made(pos, depth - 1)
        pos.unmake(move, token)
    return total


def image_figures(games: list[ToriShogiGame]) -> list[Figure]:
    views = [g.view_for(None) for g in games]
    board_png(views[0], INFO)  # the base board and tiles are cached in a running bot
    times = [t for view in views for t in samples(partial(board_png, view, INFO), 3)]
    sizes = [len(board_png(view, INFO)) / KIB for view in views]
    replay = samples(lambda: replay_gif(views[:20], INFO), 1)[0]
    return [
        Figure("ToriShogi board image (p50)", median(times), "ms", 4),
        Figure("ToriShogi board image (p95)", p95(times), "ms"),
        Figure("ToriShogi board image size (max)", max(sizes), "KiB", 16),
        Figure("ToriShogi replay GIF of 20 positions", replay, "ms"),
    ]


def run() -> list[Figure]:
    games = middle_games()
    return [
        *legal_moves_figures(games),
        turn_figure(games),
        *perft_figures(),
        *image_figures(games),
    ]


def main() -> int:
    print("ToriShogi benchmarks (median of repeated runs unless marked p95 or max)")
    for figure in run():
        print(figure.line(), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
