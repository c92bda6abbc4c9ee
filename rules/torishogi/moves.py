"""Moves as small integers (for the engine) and as ``Move`` objects (for the host).

An encoded move is ``to | origin << 6 | promotes << 12``: ``origin`` is the square moved
from, or ``DROP + kind`` for a drop from the hand. Promotion is compulsory (TS5), so the flag
only spares the engine a look-up; it never distinguishes two moves.
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import name, shown
from .pieces import LETTER, NAME

DROP = 56  # origins from here on are drops: DROP + kind
PROMOTES = 1 << 12


def encode(origin: int, to: int, promotes: bool = False) -> int:
    return to | origin << 6 | (PROMOTES if promotes else 0)


def encode_drop(kind: int, to: int) -> int:
    return to | (DROP + kind) << 6


@dataclass(frozen=True, slots=True)
class Move:
    """One legal move as the host sees it: ``origin`` is None for a drop; ``kind`` is the
    piece moved or dropped (before promotion); ``captured`` the kind taken, 0 for none."""

    code: int
    origin: int | None
    target: int
    kind: int
    promotes: bool = False
    captured: int = 0

    @property
    def uci(self) -> str:
        """Fairy-Stockfish's notation (TS12): ``c3c4``, ``d5d6+``, ``S@d4``."""
        if self.origin is None:
            return f"{LETTER[self.kind]}@{name(self.target)}"
        return name(self.origin) + name(self.target) + ("+" if self.promotes else "")

    @property
    def readable(self) -> str:
        return readable(self.kind, self.origin, self.target, self.captured, self.promotes)


def readable(kind: int, origin: int | None, target: int, captured: int, promoted: bool) -> str:
    """The form shown to players, in the board's coordinates (TS1): ``Falcon 4f-5f``,
    ``Swallow 4ex4d``, ``Swallow drop 4d``, and ``Swallow 4c-4b+`` for a promotion."""
    piece = NAME[kind]
    if origin is None:
        return f"{piece} drop {shown(target)}"
    joint = "x" if captured else "-"
    return f"{piece} {shown(origin)}{joint}{shown(target)}" + "+" * promoted


def describe(board: list[int], move: int) -> Move:
    """The ``Move`` of an encoded ``move`` on ``board`` (before it is played)."""
    to = move & 63
    origin = move >> 6 & 63
    if origin >= DROP:
        return Move(move, None, to, origin - DROP)
    return Move(move, origin, to, board[origin] & 15, bool(move & PROMOTES), board[to] & 15)
