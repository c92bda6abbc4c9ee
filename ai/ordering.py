"""Move ordering for the principal-variation search (``ai.pvs``), best-looking first so the
window narrows early: the table's move, then captures and promotions by what they win (the
game's ``Board.tactical``: the most valuable victim, by the least valuable attacker), then
the two killer moves of the ply (quiet moves that caused a cut there), then the rest by their
history (how often and how deep each move caused a cut anywhere, by its low 13 bits)."""

from __future__ import annotations

from collections.abc import Callable

HASH_MOVE = 1 << 30
GOOD = 1 << 24  # a capture or promotion
KILLER = (1 << 23, (1 << 23) - 1)
MAX_PLY = 128
HISTORY_SIZE = 1 << 13
HISTORY_CAP = 1 << 20


class Ordering:
    def __init__(self) -> None:
        self.killers = [[0, 0] for _ in range(MAX_PLY)]
        self.history = [[0] * HISTORY_SIZE, [0] * HISTORY_SIZE]

    def ordered(
        self,
        tactical: Callable[[int], int],
        side: int,
        moves: list[int],
        best: int,
        ply: int,
    ) -> list[int]:
        killers = self.killers[ply] if ply < MAX_PLY else (0, 0)
        history = self.history[side]
        scored = []
        for move in moves:
            if move == best:
                score = HASH_MOVE
            else:
                score = tactical(move)
                if score:
                    score += GOOD
                elif move == killers[0]:
                    score = KILLER[0]
                elif move == killers[1]:
                    score = KILLER[1]
                else:
                    score = history[move & (HISTORY_SIZE - 1)]
            scored.append((score, move))
        scored.sort(reverse=True)
        return [move for _score, move in scored]

    def cut(self, side: int, move: int, depth: int, ply: int) -> None:
        """A quiet ``move`` caused a cut-off at ``ply``, ``depth`` plies from the horizon."""
        if ply < MAX_PLY:
            killers = self.killers[ply]
            if killers[0] != move:
                killers[1], killers[0] = killers[0], move
        history = self.history[side]
        index = move & (HISTORY_SIZE - 1)
        history[index] += depth * depth
        if history[index] > HISTORY_CAP:
            for table in self.history:
                for i, value in enumerate(table):
                    table[i] = value // 2
