"""Tournament figures: pairing a Swiss round of 500 players through the Dutch system's
library (py4swiss), its first round, one mid-event and one late, and the standings of 500 players
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


def pairing_seconds(rounds_played: int) -> tuple[float, float]:
    """Seconds to pair the next round, elapsed and of this process's CPU (one run: a round of
    500 takes seconds; on a machine other work loads, the CPU seconds are the steadier)."""
    players = [SwissPlayer(p, 2400 - p) for p in range(1, PLAYERS + 1)]
    played = history(rounds_played, 5)
    start, cpu = time.perf_counter(), time.process_time()
    pair_round(players, played, 9)
    return time.perf_counter() - start, time.process_time() - cpu


def pairing_figures(rounds_played: int) -> list[Figure]:
    name = f"pair a Swiss round of 500 players: round {rounds_played + 1}"
    elapsed, cpu = pairing_seconds(rounds_played)
    return [Figure(name, elapsed, "s", 2), Figure(f"{name}, CPU", cpu, "s", 2)]


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
        *pairing_figures(0),
        *pairing_figures(3),
        *pairing_figures(6),
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
