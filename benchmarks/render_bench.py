"""Board image figures, with python-chess + cairosvg as the yardstick.

Each board figure renders many different positions once each (as a bot does: a new turn is a
new status line and new arrows), with the base board, sprites and names already cached, as
they are in a running bot.

The turn figures (issue 26) draw what the match service draws as one random match of each
game is played, in its order: at each turn's end the public board and the next player's own
board, and the acting player's preview after each action they stage; CPU time
(``time.process_time``, which other work on the machine changes little), and the PNGs' sizes
(what is uploaded to Discord).
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from render import StatusInfo, board_png, picture_of, replay_gif, views_from_record
from rules import GameState, IllegalAction, game_type
from rules.tora import Game, PieceView, Side, View, squares, write_record

from .common import Figure, image_figures, median, play_random_turn

INFO = StatusInfo(challenger="Aiko", opposition="Bram", deadline="due in 11 h")
KIB, MIB = 1024, 1024 * 1024


@dataclass
class Unavailable(Figure):
    """A figure that could not be measured here, with the reason instead of a value."""

    reason: str = ""

    def line(self) -> str:
        return f"{self.name:<58} unavailable: {self.reason}"


def played_views(board: str, seed: int, turns: int) -> list[View]:
    """The public view after each of ``turns`` random turns (fewer if the game ends)."""
    rng = random.Random(seed)
    game = Game(board=board, terrain="river")
    views = []
    for _ in range(turns):
        if game.is_over():
            break
        play_random_turn(game, rng)
        views.append(game.view_for(None))
    return views


def with_pieces(view: View, count: int, rng: random.Random) -> View:
    """``view`` with Soldiers and Archers added on empty squares up to ``count`` pieces."""
    taken = {p.sq for p in view.pieces}
    free = [sq for sq in squares(view.size) if sq not in taken]
    extra = [
        PieceView(Side(i % 2), kind, kind, sq)
        for i, (kind, sq) in enumerate(
            zip("SA" * count, rng.sample(free, count - len(view.pieces)), strict=False)
        )
    ]
    return replace(view, pieces=(*view.pieces, *extra))


def boards(views: list[View], label: str, ms_target: float, kib_target: float) -> list[Figure]:
    def draw(view: View) -> bytes:
        return board_png(view, INFO)

    return image_figures(draw, views, views[:3], label, ms_target, kib_target)


def long_views() -> list[View]:
    rng = random.Random(7)
    views = [v for seed in range(3) for v in played_views("long", seed, 15) if _moved(v)]
    return [with_pieces(v, 60, rng) for v in views if len(v.pieces) <= 60]


def short_views() -> list[View]:
    return [v for seed in range(8) for v in played_views("short", seed, 8) if _moved(v)]


def _moved(view: View) -> bool:
    return any(event.path for event in view.last_turn)


def long_replay() -> list[Figure]:
    seed = 0
    while True:
        game = Game(board="long", terrain="river")
        rng = random.Random(seed)
        views = [game.view_for(None)]
        while len(views) < 61 and not game.is_over():
            play_random_turn(game, rng)
            views.append(game.view_for(None))
        if len(views) == 61:
            break
        seed += 1
    start = time.perf_counter()
    data = replay_gif(views, INFO)
    seconds = time.perf_counter() - start
    record = write_record(game)
    start = time.perf_counter()
    views_from_record(record)
    replaying = time.perf_counter() - start
    return [
        Figure("replay GIF of a 60-turn long game (61 frames)", seconds, "s", 3),
        Figure("  its size", len(data) / MIB, "MiB", 4),
        Figure("  views_from_record of that game (rules core replay)", replaying, "s"),
    ]


def chess_reference(ours: float) -> list[Figure]:
    """python-chess's SVG board turned into a PNG by cairosvg, the way chess bots do it."""
    name = "python-chess SVG + cairosvg PNG, one board (p50)"
    try:
        import cairosvg
        import chess
        import chess.svg
    except (ImportError, OSError) as exc:  # cairosvg raises OSError without libcairo
        return [Unavailable(name, 0.0, "ms", reason=f"{type(exc).__name__}: {exc}")]
    board = chess.Board()
    for move in ("e4", "e5", "Nf3", "Nc6", "Bb5"):
        last = board.push_san(move)
    arrows = [chess.svg.Arrow(last.from_square, last.to_square)]
    times = []
    for _ in range(30):
        start = time.perf_counter()
        svg = chess.svg.board(board, size=480, lastmove=last, arrows=arrows)
        cairosvg.svg2png(bytestring=svg.encode())
        times.append((time.perf_counter() - start) * 1000)
    reference = median(times)
    return [
        Figure(name, reference, "ms"),
        Figure(
            "ratio: chess SVG+cairosvg time / our short board time", reference / ours, "x", 10, True
        ),
    ]


@dataclass(frozen=True)
class Match:
    """A random match to draw: its game, options, each side's setup answers and turns."""

    label: str
    game: str
    options: Mapping[str, Any]
    answers: tuple[Mapping[str, str], Mapping[str, str]]
    turns: int


MATCHES = (
    Match(
        "TORA short",
        "tora",
        {"board": "short"},
        ({"strategy": "aggressive"}, {"strategy": "defensive"}),
        40,
    ),
    Match(
        "TORA long, Assassins",
        "tora",
        {"board": "long", "terrain": "river", "assassins": True},
        (
            {"strategy": "aggressive", "ruler": "K", "assassin": "v1h17"},
            {"strategy": "defensive", "ruler": "Q", "assassin": "v17h1"},
        ),
        12,
    ),
    Match("ToriShogi", "torishogi", {}, ({}, {}), 60),
    Match("Torii", "torii", {}, ({"spirit": "Deer"}, {"spirit": "Kitsune"}), 40),
)


@dataclass
class Drawn:
    """What the service draws in one match, in order: (kind, the view to draw)."""

    jobs: list[tuple[str, Any]] = field(default_factory=list)


def played(match: Match) -> Drawn:
    """The views the service would draw as random matches of ``match`` are played (seeded,
    one after another until ``match.turns`` turns are drawn): after each action the acting
    player's preview ("preview"), after each turn the public board ("board") and the next
    player's own ("own")."""
    kind = game_type(match.game)
    options = kind.check_options(match.options)
    drawn, seed, turns = Drawn(), 0, 0
    while turns < match.turns:
        game: GameState[Any, Any, Any, Any] = kind.new_game(options, match.answers)
        rng = random.Random(seed)
        while turns < match.turns and not game.is_over():
            _random_turn(game, rng, drawn)
            turns += 1
            drawn.jobs.append(("board", game.view_for(None)))
            if not game.is_over():
                drawn.jobs.append(("own", game.view_for(game.side)))
        seed += 1
    return drawn


def _random_turn(game: GameState[Any, Any, Any, Any], rng: random.Random, drawn: Drawn) -> None:
    for _ in range(game.actions_left):
        actions = game.legal_actions()
        if not actions:
            break
        try:
            game.apply(rng.choice(actions))
        except IllegalAction:  # TORA: a command piece's search refused (R43)
            continue
        drawn.jobs.append(("preview", game.view_for(game.side)))
    while True:
        try:
            game.end_turn()
            return
        except IllegalAction:  # TORA: R30 refuses it, take back the last action
            game.undo()


def turn_figures(match: Match) -> list[Figure]:
    """CPU a turn end's two images and an action's preview take, and their sizes. A turn
    end's own picture equal to its public one (``render.picture_of``: Torii's, ToriShogi's
    with the Challenger next) is drawn once for both, as the service draws it."""
    jobs = played(match).jobs
    cpu: dict[str, float] = dict.fromkeys(("board", "own", "preview"), 0.0)
    sizes: dict[str, list[int]] = {kind: [] for kind in cpu}
    for kind, view in jobs[:4]:  # the base board, pieces and names, cached in a running bot
        picture_of(view, INFO, own=kind != "board").png()
    public, shared = (picture_of(jobs[0][1], INFO), b""), 0
    for kind, view in jobs:
        start = time.process_time()
        picture = picture_of(view, INFO, own=kind != "board")
        if kind == "own" and picture == public[0]:
            data, shared = public[1], shared + 1
        else:
            data = picture.png()
        cpu[kind] += time.process_time() - start
        sizes[kind].append(len(data))
        if kind == "board":
            public = (picture, data)
    ends = len(sizes["board"])
    each = sizes["board"] + sizes["own"]
    figures = [
        Figure(
            f"{match.label}: a turn end's board + own image, CPU",
            (cpu["board"] + cpu["own"]) * 1000 / ends,
            "ms",
        ),
        Figure(
            f"  their PNGs, mean of {len(each)}",
            sum(each) / len(each) / KIB,
            "KiB",
        ),
        Figure("  their PNGs, largest", max(each) / KIB, "KiB"),
        Figure("  turn ends whose two images are one", shared * 100 / len(sizes["own"]), "%"),
    ]
    if sizes["preview"]:
        previews = len(sizes["preview"])
        figures.append(
            Figure(
                f"  a staged action's preview, CPU ({previews})",
                cpu["preview"] * 1000 / previews,
                "ms",
            )
        )
    return figures


def run() -> Iterator[Figure]:
    for match in MATCHES:
        yield from turn_figures(match)
    yield from boards(long_views(), "long board image, 60 pieces + last-turn arrows", 6, 24)
    short = boards(short_views(), "short board image with last-turn arrows", 2.5, 10)
    yield from short
    yield from long_replay()
    yield from chess_reference(short[0].value)
