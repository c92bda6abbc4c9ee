"""Finding legal actions from what a player typed, for autocomplete: any part of an action
matches (a destination square, ``x``, ``fire``, a piece's name or letter, a word of its
plain description, another name of its piece), ranked by how well it matches. Built from
the seam's menus, so it serves every game; a list shows each action in the menus' words (its
group's label and its own), which speak the coordinates players read, and stands for its
notation."""

from __future__ import annotations

import contextlib
from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache

from bot.i18n import word
from rules.protocol import Choice, GameState


@dataclass(frozen=True)
class Entry:
    """One legal action: its notation, how a list shows it ("Falcon (Fa) 4f: to 5f"), and
    the words it can be found by (lower case), laid out for a quick search."""

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
    names. The words of the whole are those of its parts in turn, and each part's are
    found once: a group's for all its actions, a text seen before (the same labels and
    notations come back in every state of a match) from ``_spaced``'s store, and a whole
    entry from ``_known`` where the game gives the very same choice again (TORA keeps a
    piece's choices while what they read stays the same)."""
    groups: dict[str, tuple[str, str, str]] = {
        group.key: (group.label, _spaced(group.label), _spaced(" ".join(group.aliases)))
        for group in game.menu()
    }
    found = []
    known = _known
    for choice in game.choices():
        group = groups.get(choice.group)
        kept = known.get(id(choice))
        if kept is not None and kept[0] is choice and _same(kept[1], group):
            found.append(kept[2])
            continue
        entry = _entry(choice, group)
        with contextlib.suppress(KeyError):  # another thread emptied it meanwhile
            while len(known) >= _KNOWN:
                known.popitem(last=False)
        known[id(choice)] = (choice, group, entry)
        found.append(entry)
    return found


def _same(kept: tuple[str, str, str] | None, group: tuple[str, str, str] | None) -> bool:
    """Whether an entry made for ``kept``'s group is the one for ``group``: the same words
    and the same label (a ``Text`` equal in English may word otherwise: only itself is)."""
    if kept is None or group is None:
        return kept is group
    label, other = kept[0], group[0]
    same_label = label is other or (type(label) is str and type(other) is str and label == other)
    return same_label and kept[1:] == group[1:]


def _entry(choice: Choice, group: tuple[str, str, str] | None) -> Entry:
    """The entry of ``choice``, its group's label and words ``group`` (None: none)."""
    label, before, after = (None, "", "") if group is None else group
    where = _spaced(" ".join(choice.path[:-1])) if len(choice.path) > 1 else ""
    notation = choice.notation
    spaced = _spaced(notation) + before + _spaced(choice.label) + where + after
    return Entry(notation, label, choice.label, spaced, notation.lower())


# Entries by the id of their choice, which each holds (so the id stays its choice's); the
# oldest go first when full. A few states' worth of every match being played.
_KNOWN = 8192
_known: OrderedDict[int, tuple[Choice, tuple[str, str, str] | None, Entry]] = OrderedDict()


@lru_cache(maxsize=16384)
def _spaced(text: str) -> str:
    """The words of ``text``, each after a space (" v5h7 v4h6")."""
    return "".join([f" {w}" for w in _words(text)])


def best(typed: str, candidates: list[Entry], limit: int) -> list[Entry]:
    """Up to ``limit`` entries matching every typed word, best first: the notation
    starting with what was typed, then every word at a word's start, then anywhere; ties in
    the engine's order."""
    query = typed.lower().strip()
    wanted = _words(query)
    ranked = []
    for order, entry in enumerate(candidates):
        score = _score(query, wanted, entry)
        if score is not None:
            ranked.append((score, order, entry))
    ranked.sort(key=lambda row: row[:2])
    return [entry for _score, _order, entry in ranked[:limit]]


def _score(query: str, wanted: list[str], entry: Entry) -> int | None:
    if not query:
        return 0
    if entry.lowered.startswith(query):
        return 0
    spaced = entry.spaced
    if all(f" {w}" in spaced for w in wanted):
        return 1
    if all(w in spaced for w in wanted):
        return 2
    return None


_MARKS = str.maketrans("-,():", "     ")  # what separates words besides spaces


def _words(text: str) -> list[str]:
    """Lower-case words, squares split from their dashes: ``v5h7-v4h6`` is two words, and
    ``(Fa)`` or ``4f:`` are found as ``fa`` and ``4f``."""
    return text.translate(_MARKS).lower().split()
