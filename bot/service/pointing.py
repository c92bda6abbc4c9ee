"""The Play panel's picture of a picked piece: the piece framed and each square its actions go
to lettered (A, B, C...), the action menu's options starting with the same letters, so a
player sees where "B · move to v6h3" goes. The letters follow the order the menu lists the
actions in; actions that end on the same square share its letter."""

from __future__ import annotations

from collections.abc import Sequence
from string import ascii_uppercase

from rules.protocol import Choice, ChoiceGroup

from .ports import Pointing


def letter(index: int) -> str:
    """A, B, ... Z, then AA, AB, ... (a long-board Cavalry may go to some forty squares)."""
    if index < len(ascii_uppercase):
        return ascii_uppercase[index]
    high, low = divmod(index, len(ascii_uppercase))
    return letter(high - 1) + ascii_uppercase[low]


def lettering(choices: Sequence[Choice]) -> tuple[tuple[str, str], ...]:
    """(square, letter) for each square the choices point at, in the order listed."""
    spots: dict[str, str] = {}
    for choice in choices:
        spot = choice.spot
        if spot is not None and spot not in spots:
            spots[spot] = letter(len(spots))
    return tuple(spots.items())


def pointing(group: ChoiceGroup, choices: Sequence[Choice]) -> Pointing:
    return Pointing(group.origin, lettering(choices))
