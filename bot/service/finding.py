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
    names. The words of a group are found once for all its actions, and an action's entry
    is made once for every state that offers it in the same words (the same choices come
    back in every state of a match: ``_entry``'s store)."""
    menu, choices = game.menu_and_choices()
    groups: dict[str, Group] = {
        group.key: (group.label, _spaced(group.label), _spaced(" ".join(group.aliases)))
        for group in menu
    }
    return [_entry(c.notation, c.label, c.path, groups.get(c.group, _NO_GROUP)) for c in choices]


# A group's label and the words of its label and of its aliases, each after a space.
Group = tuple[str | None, str, str]
_NO_GROUP: Group = (None, "", "")


@lru_cache(maxsize=16384)
def _entry(notation: str, label: str, path: tuple[str, ...], group: Group) -> Entry:
    """The entry of a choice written ``notation`` and ``label``, under ``path`` in its
    group's menu, of the group ``group`` (everything an entry reads of them)."""
    shown, before, after = group
    spaced = _spaced(notation) + before + _spaced(label)
    if len(path) > 1:
        spaced += _spaced(" ".join(path[:-1]))
    return Entry(notation, shown, label, spaced + after, notation.lower())


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
