"""Shared builders for the tournament tests."""

from __future__ import annotations

from bot.tournament import Captures


def short(points: int) -> Captures:
    """Short-board captures worth ``points`` (0-16) at the plain R27 values."""
    command = int(points >= 8)
    rest = points - 8 * command
    cannons = int(rest >= 3)
    minors = rest - 3 * cannons
    return Captures(
        archers=min(minors, 3), soldiers=max(minors - 3, 0), command=command, cannons=cannons
    )
