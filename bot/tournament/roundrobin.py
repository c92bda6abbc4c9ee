"""Round robin schedules by the Berger tables (FIDE C.05, Annex 1).

Every player meets every other once (twice in a double round robin, the second cycle with
the colours reversed). With an odd number of players a ghost makes the count even and whoever
meets the ghost has the round's bye (the AI filling an odd slot takes the ghost's seat and
colours). In the arranged model every round's games start at once, so the schedule is the
whole event.
"""

from __future__ import annotations

from collections.abc import Sequence

from .records import Board, PairedRound


def berger_numbers(count: int) -> list[list[tuple[int, int]]]:
    """The Berger table for ``count`` (even, >= 2) pairing numbers: per round, per board,
    (first, second).

    In round r the number facing ``count`` is ``p = (r-1)·count/2 mod (count-1) + 1``; it
    moves first in odd rounds. The other boards pair ``p+k`` (first) with ``p-k``, counted
    round the circle 1..count-1 (the table FIDE publishes).
    """
    if count < 2 or count % 2:
        raise ValueError("a Berger table needs an even count of at least 2")
    circle = count - 1
    rounds = []
    for r in range(1, count):
        p = (r - 1) * (count // 2) % circle + 1
        boards = [(p, count) if r % 2 else (count, p)]
        for k in range(1, count // 2):
            boards.append(((p + k - 1) % circle + 1, (p - k - 1) % circle + 1))
        rounds.append(boards)
    return rounds


def schedule(players: Sequence[int], double: bool = False) -> list[PairedRound]:
    """The rounds of a round robin of ``players`` in seeding order (the first is number 1)."""
    if len(players) < 2 or len(set(players)) != len(players):
        raise ValueError("a round robin needs at least two distinct players")
    count = len(players) + len(players) % 2
    ghost = count if len(players) % 2 else None

    def player(number: int) -> int:
        return players[number - 1]

    cycle = []
    for table in berger_numbers(count):
        boards = tuple(
            Board(player(a), player(b)) for a, b in table if ghost is None or ghost not in (a, b)
        )
        seat = _ghost_seat(table, ghost)
        if seat is None:
            cycle.append(PairedRound(boards, None))
        else:
            cycle.append(PairedRound(boards, player(seat[0]), bye_first=seat[1]))
    if not double:
        return cycle
    reversed_cycle = [
        PairedRound(
            tuple(Board(b.second, b.first) for b in r.boards), r.bye, bye_first=not r.bye_first
        )
        for r in cycle
    ]
    return cycle + reversed_cycle


def _ghost_seat(table: list[tuple[int, int]], ghost: int | None) -> tuple[int, bool] | None:
    """Who meets the ghost in a round of the table (their bye), and whether they move
    first; None without a ghost."""
    for first, second in table:
        if second == ghost:
            return first, True
        if first == ghost:
            return second, False
    return None
