"""The actions of a turn: a whole move (TI5-TI17), a pass (TI8), a Monkey decision (TI15).

A normal turn is one ``Move``: power uses, tile, landing squares and build choices together.
The Monkey's owner answers each Torii the opponent built with one ``Decision``.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.sides import Side


@dataclass(frozen=True, slots=True)
class Build:
    """One Torii: the Follower it covers (``square``) on formed line ``line`` (an index of
    ``board.LINES``), and the builder's own Monkey flip after it (TI15): the side whose tile
    1 is flipped, or None."""

    square: int
    line: int
    flip: Side | None = None


@dataclass(frozen=True, slots=True)
class Move:
    """A whole turn. ``fly``: the Crane's flight (TI14); ``push``: where the Kitsune sends
    the opponent's Spirit (TI13); ``torii``: the Boar's Torii move, from and to (TI17)."""

    tile: int
    landings: tuple[int, ...]
    fly: int | None = None
    push: int | None = None
    torii: tuple[int, int] | None = None
    builds: tuple[Build, ...] = ()


@dataclass(frozen=True, slots=True)
class Pass:
    """TI8: no unused tile has a path; also what a turn left to its deadline becomes."""


@dataclass(frozen=True, slots=True)
class Decision:
    """TI15: the Monkey's owner flips the tile 1 of ``flip`` (a side), or of nobody (None)."""

    flip: Side | None


Action = Move | Pass | Decision

PASS = Pass()
PASS_TEXT = "pass"
DECISIONS = (Decision(Side.CHALLENGER), Decision(Side.OPPOSITION), Decision(None))


def flip_text(target: Side | None) -> str:
    return f"flip {'none' if target is None else target.letter}"
