"""Tournament figures: pairing each round of a 9-round Swiss of 500 players by the Dutch system
(the first built directly, the rest through py4swiss), and the standings of 500 players after
seven rounds with every tiebreak, and their image."""

from __future__ import annotations

import os
import random
import time

from bot.tournament.records import Colour, Outcome, PairedRound, RoundRecord
from bot.tournament.roundrobin import schedule
from bot.tournament.swiss import SwissPlayer, pair_round
from bot.tournament.tiebreaks import Tiebreak, standings
from render.event_table import EventTable, event_table_png

from .common import Figure, median, samples

PLAYERS = 500
ALL = tuple(Tiebreak)
OUTCOMES = (Outcome.WIN, Outcome.DRAW, Outcome.LOSS)
# the Swiss's games are decisive: the heavier case for the pairing (two score groups of 250
# in round 2, instead of three of about 167), and the likelier in our games
DECISIVE = (Outcome.WIN, Outcome.LOSS)


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


def swiss_rounds(rounds: int, seed: int) -> list[tuple[float, float]]:
    """Seconds to pair each round of a ``rounds``-round Swiss of 500 players, elapsed and of
    this process's CPU, the event paired round after round with random decisive results (one
    run a round: a round of 500 takes about a second; on a machine other work loads, the CPU
    seconds are the steadier)."""
    rng = random.Random(seed)
    players = [SwissPlayer(p, rng.randrange(1200, 2700)) for p in range(1, PLAYERS + 1)]
    played: dict[int, list[RoundRecord]] = {p: [] for p in range(1, PLAYERS + 1)}
    out = []
    for _ in range(rounds):
        start, cpu = time.perf_counter(), time.process_time()
        paired = pair_round(players, played, rounds)
        out.append((time.perf_counter() - start, time.process_time() - cpu))
        play(paired, played, rng)
    return out


def play(paired: PairedRound, played: dict[int, list[RoundRecord]], rng: random.Random) -> None:
    for board in paired.boards:
        outcome = rng.choice(DECISIVE)
        played[board.first].append(RoundRecord(outcome, board.second, Colour.FIRST))
        played[board.second].append(RoundRecord(outcome.opposite, board.first, Colour.SECOND))


def pairing_figures() -> list[Figure]:
    """Each round's elapsed seconds against the target, its CPU seconds in the name, and the
    load average while the event was paired (the elapsed figures mean little under load)."""
    rounds = swiss_rounds(9, 5)
    figures = [
        Figure(f"pair a Swiss round of 500 players: round {n} of 9 (CPU {cpu:.2f} s)", wall, "s", 2)
        for n, (wall, cpu) in enumerate(rounds, start=1)
    ]
    load = os.getloadavg()[0]
    return [*figures, Figure("load average (1 minute) after pairing those rounds", load, "")]


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
        *pairing_figures(),
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
