"""The transposition table of the principal-variation search (``ai.pvs``): what a search
has learnt of a position, by its Zobrist key, in a fixed number of slots (the key's low bits
pick the slot).

A slot is replaced by a search of the same depth or deeper, or by anything once its entry
is from an earlier iteration of the deepening (older entries are worth less). Mate scores
are stored as distances from the position, not from the root, so an entry is right
wherever in the tree the position comes back.
"""

from __future__ import annotations

from dataclasses import dataclass

EXACT, LOWER, UPPER = 0, 1, 2  # the score is exact, at least it, at most it
MATE = 30_000
MATE_BOUND = MATE - 1_000  # scores beyond are mates in so many plies
SLOTS_BITS = 18  # 262,144 slots


@dataclass(slots=True)
class Entry:
    key: int
    depth: int
    bound: int
    score: int
    move: int
    age: int


def to_table(score: int, ply: int) -> int:
    """A score as stored: a mate counted from this position."""
    if score > MATE_BOUND:
        return score + ply
    if score < -MATE_BOUND:
        return score - ply
    return score


def from_table(score: int, ply: int) -> int:
    """A stored score as seen from ``ply`` plies below the root."""
    if score > MATE_BOUND:
        return score - ply
    if score < -MATE_BOUND:
        return score + ply
    return score


class Table:
    def __init__(self, bits: int = SLOTS_BITS) -> None:
        self.mask = (1 << bits) - 1
        self.slots: list[Entry | None] = [None] * (1 << bits)
        self.age = 0

    def probe(self, key: int) -> Entry | None:
        entry = self.slots[key & self.mask]
        return entry if entry is not None and entry.key == key else None

    def store(self, key: int, depth: int, bound: int, score: int, move: int, ply: int) -> None:
        index = key & self.mask
        old = self.slots[index]
        if old is not None and old.age == self.age and old.depth > depth and old.key != key:
            return
        if old is not None and old.key == key and not move:
            move = old.move  # keep the best move known when this search found none
        self.slots[index] = Entry(key, depth, bound, to_table(score, ply), move, self.age)

    def filled(self) -> int:
        """How many slots hold an entry (for tests and benchmarks)."""
        return sum(entry is not None for entry in self.slots)
