"""How long a loop waits after failures in a row (the database away, say): briefly at first,
longer while they go on."""

from __future__ import annotations


class Backoff:
    """How long a loop waits after failures in a row: ``first`` seconds, doubling up to
    ``most``; back to ``first`` after a success."""

    def __init__(self, first: float = 0.5, most: float = 8.0) -> None:
        self.first, self.most = first, most
        self.failures = 0

    def failed(self) -> float:
        seconds = min(self.most, self.first * 2.0 ** min(self.failures, 16))
        self.failures += 1
        return seconds

    def reset(self) -> None:
        self.failures = 0
