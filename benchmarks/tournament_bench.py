"""Tournament figures: pairing a Swiss round of 500 players through the Dutch system's
library (py4swiss), its first round and one mid-event, and the standings of 500 players
after seven rounds with every tiebreak, and their image."""

from __future__ import annotations

import random
import time

from bot.tournament.records import Colour, Outcome, RoundRecord
from bot.tournament.roundrobin import schedule
from bot.tournament.swiss import SwissPlayer, pair_round
from bot.tournament.tiebreaks import Tiebreak, standings
from render.event_table import EventTable, event_table_png

from .common import Figure, median, samples

PLAYERS = 500
ALL = tuple(Tiebreak)
OUTCOMES = (Outcome.WIN, Outcome.DRAW, Outcome.LOSS)


def history(rounds: int, seed: int) -> dict[int, list[RoundRecord]]:
    """``rounds`` rounds of random results between 500 players, no rematch (the first
    rounds of a Berger table): an event's history as the pairing and standings read it."""
    rng = random.Random(seed)
    out: dict[int, list[RoundRecord]] = {p: [] for p in range(1, PLAYERS + 1)}
    for round_ in schedule(list(range(1, PLAYERS + 1)))[:rounds]:
        for board in round_.boards:
            outcome = rng.choice(OUTCOMES)
            out[board.first].append(RoundRecord(outcome, board.second, Colour.FIRST))
            out[board.second].append(RoundRecord(outcome.opposite, board.first, Colour.SECOND))
    return out


def pairing_seconds(rounds_played: int) -> float:
    """Seconds to pair the next round (one run: a round of 500 takes seconds)."""
    players = [SwissPlayer(p, 2400 - p) for p in range(1, PLAYERS + 1)]
    played = history(rounds_played, 5)
    start = time.perf_counter()
    pair_round(players, played, 9)
    return time.perf_counter() - start


def run() -> list[Figure]:
    played = history(7, 7)
    players = list(range(1, PLAYERS + 1))
    standings(players, played, ALL)  # warm up
    lines = standings(players, played, ALL)
    table = EventTable(
        "Big Open - Swiss, round 7 of 7",
        ("#", "Player", "Pts", *(t.label for t in ALL)),
        tuple((str(s.rank), f"player {s.player_id}", str(s.score), *map(str, s.tiebreaks))
              for s in lines),
    )  # fmt: skip
    event_table_png(table)  # warm the font and label caches
    return [
        Figure("pair a Swiss round of 500 players: round 1", pairing_seconds(0), "s", 2),
        Figure("pair a Swiss round of 500 players: round 4", pairing_seconds(3), "s", 2),
        Figure(
            "standings of 500 players, 7 rounds, every tiebreak",
            median(samples(lambda: standings(players, played, ALL), 10)),
            "ms",
            200,
        ),
        Figure(
            "standings image (the first 100 of 500)",
            median(samples(lambda: event_table_png(table), 10)),
            "ms",
        ),
    ]
