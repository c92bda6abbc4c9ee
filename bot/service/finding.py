"""Finding legal actions from what a player typed, for autocomplete: any part of an action
matches (a destination square, ``x``, ``fire``, a piece's name or letter, a word of its
plain description, another name of its piece), ranked by how well it matches. Built from
the seam's menus, so it serves every game; a list shows each action in the menus' words (its
group's label and its own), which speak the coordinates players read, and stands for its
notation."""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from bot.i18n import word
from rules.protocol import GameState


class Entry(NamedTuple):
    """One legal action: its notation, how a list shows it ("Falcon (Fa) 4f: to 5f"), and
    the words it can be found by (lower case), laid out for a quick search. A named tuple:
    one is made for every legal action of every state, several times faster than a frozen
    dataclass."""

    notation: str
    group: str | None  # the menu's label of the action's piece (rules texts: worded shown)
    label: str
    # the words it is found by, each after a space: a typed word (which holds no space)
    # starts one of them where " " + it is found, and is inside one where it is found at all
    spaced: str
    lowered: str  # the notation in lower case


def shown(entry: Entry) -> str:
    """How a list shows ``entry``, in the current language: "Falcon (Fa) 4f: to 5f"."""
    label = word(entry.label)
    return label if entry.group is None else f"{word(entry.group)}: {label}"


def entries(game: GameState) -> list[Entry]:
    """Every legal action of ``game`` with the words it is found by: its notation, its
    group's label, its own label, the first steps of its menu path, its piece's other
    names. The words of a group are found once for all its actions, and an action's once
    for every state that offers it in the same words (the same choices come back in every
    state of a match: ``_found_by``'s store)."""
    menu, choices = game.menu_and_choices()
    groups: dict[str, tuple[str | None, str, str]] = {
        group.key: (group.label, _spaced(group.label), _spaced(" ".join(group.aliases)))
        for group in menu
    }
    found = []
    for choice in choices:
        shown, before, after = groups.get(choice.group, _NO_GROUP)
        notation, label = choice.notation, choice.label
        spaced = _found_by(notation, label, choice.path, before, after)
        found.append(Entry(notation, shown, label, spaced, notation.lower()))
    return found


_NO_GROUP = (None, "", "")


@lru_cache(maxsize=16384)
def _found_by(notation: str, label: str, path: tuple[str, ...], before: str, after: str) -> str:
    """``Entry.spaced`` of a choice written ``notation`` and ``label`` under ``path`` in its
    group's menu, ``before`` and ``after`` the words of its group's label and aliases. Only
    their English is read: the entry itself keeps the choice's texts, which a reader of
    another language sees worded from their messages (two messages may say the same in
    English)."""
    spaced = _spaced(notation) + before + _spaced(label)
    if len(path) > 1:
        spaced += _spaced(" ".join(path[:-1]))
    return spaced + after


@lru_cache(maxsize=16384)
def _spaced(text: str) -> str:
    """The words of ``text``, each after a space (" v5h7 v4h6")."""
    return "".join([f" {w}" for w in _words(text)])


def best(typed: str, candidates: list[Entry], limit: int) -> list[Entry]:
    """Up to ``limit`` entries matching every typed word, best first: the notation
    starting with what was typed, then every word at a word's start, then anywhere; ties in
    the engine's order (each rank filled in that order: no sort)."""
    query = typed.lower().strip()
    if not query:
        return candidates[:limit]
    words = _words(query)
    starts = [f" {w}" for w in words]
    first: list[Entry] = []
    second: list[Entry] = []
    third: list[Entry] = []
    for entry in candidates:  # a generator for each test would cost as much as the tests
        _notation, _group, _label, spaced, lowered = entry
        if lowered.startswith(query):
            first.append(entry)
        elif all(map(spaced.__contains__, starts)):
            second.append(entry)
        elif all(map(spaced.__contains__, words)):
            third.append(entry)
    return (first + second + third)[:limit]


_MARKS = str.maketrans("-,():", "     ")  # what separates words besides spaces


def _words(text: str) -> list[str]:
    """Lower-case words, squares split from their dashes: ``v5h7-v4h6`` is two words, and
    ``(Fa)`` or ``4f:`` are found as ``fa`` and ``4f``."""
    return text.translate(_MARKS).lower().split()
