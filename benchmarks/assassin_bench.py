"""What hidden information costs: actions, views and records of long
games played with Assassins, beside the rules core's own figures."""

from __future__ import annotations

import random
from functools import partial

from rules.tora import Game, Side, write_record

from .common import Figure, median, middle_game, p95, samples


def apply_one(games: list[Game]) -> Figure:
    times: list[float] = []
    for game in games:
        rng = random.Random(1)
        texts = [game.notation(a) for a in game.legal_actions() if a.kind != "search"]
        for text in rng.sample(texts, min(20, len(texts))):
            trial = game.copy()
            times += samples(partial(trial.apply, text), 1)
    return Figure(
        "apply + validate one action, long with Assassins (p50)", median(times), "ms", 0.5
    )


def legal(games: list[Game]) -> Figure:
    times = [t for game in games for t in samples(game.legal_actions, 3)]
    return Figure("all legal actions, long with Assassins (p50)", median(times), "ms", 10)


def views(games: list[Game]) -> list[Figure]:
    public = [t for g in games for t in samples(partial(g.view_for, None), 20)]
    own = [t for g in games for t in samples(partial(g.view_for, Side.CHALLENGER), 20)]
    return [
        Figure("view_for(None), long with Assassins (p50)", median(public), "ms", 1),
        Figure("view_for(player), long with Assassins (p50)", median(own), "ms", 1),
    ]


def menus(games: list[Game]) -> list[Figure]:
    """The Play panel's content: the menu of pieces, and the largest piece's actions in
    words (a long-board Cavalry or Ruler has up to 90)."""
    pieces = [t for g in games for t in samples(g.menu, 5)]
    largest = []
    for game in games:
        biggest = max(game.menu(), key=lambda group: group.size)
        largest += samples(partial(game.choices, biggest.key), 5)
    return [
        Figure("menu of pieces, long with Assassins (p95)", p95(pieces), "ms", 20),
        Figure("a piece's actions in words, the largest (p95)", p95(largest), "ms"),
    ]


def records(games: list[Game]) -> list[Figure]:
    full = [t for g in games for t in samples(partial(write_record, g), 5)]
    public = [t for g in games for t in samples(partial(write_record, g, audience=None), 5)]
    return [
        Figure("full record of a 12-turn game (p50)", median(full), "ms"),
        Figure("public record of a 12-turn game (p50)", median(public), "ms"),
    ]


def run() -> list[Figure]:
    games = [middle_game("long", seed, 12, assassins=True) for seed in range(4)]
    return [apply_one(games), legal(games), *views(games), *menus(games), *records(games)]
