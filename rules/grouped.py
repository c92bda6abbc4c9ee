"""Menu groups built whole: for games whose every legal action is cheap to describe.

A game that works out all its choices at once (ToriShogi, Torii) builds ``Grouped`` values and
answers the seam's ``menu()`` and ``choices(key)`` from them; TORA builds its groups lazily
instead (a Cavalry's 90 actions are only spelled out when its group is opened)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .protocol import Choice, ChoiceGroup


@dataclass(frozen=True)
class Grouped:
    """A group with its choices (each ``Choice.group`` is ``key``)."""

    key: str
    label: str
    description: str
    category: str
    choices: tuple[Choice, ...]
    origin: str = ""  # as ``ChoiceGroup.origin``
    aliases: tuple[str, ...] = ()  # as ``ChoiceGroup.aliases``

    def header(self) -> ChoiceGroup:
        return ChoiceGroup(
            self.key,
            self.label,
            self.description,
            self.category,
            len(self.choices),
            self.origin,
            self.aliases,
        )


def headers(groups: Sequence[Grouped]) -> tuple[ChoiceGroup, ...]:
    return tuple(group.header() for group in groups)


def choices_of(groups: Sequence[Grouped], key: str | None) -> tuple[Choice, ...]:
    """The choices of group ``key`` (empty for an unknown key), or of every group (None)."""
    return tuple(
        choice for group in groups if key is None or group.key == key for choice in group.choices
    )


def menu_and_choices_of(
    groups: Sequence[Grouped],
) -> tuple[tuple[ChoiceGroup, ...], tuple[Choice, ...]]:
    """The seam's ``menu_and_choices`` of ``groups``: their headers and every choice."""
    return headers(groups), choices_of(groups, None)
