"""How tournament and event names are told apart on a server: by a key folded in Python, the
same on both backends (SQLite's NOCASE folds ASCII letters only, PostgreSQL's lower() every
letter but not as Python does: "Straße" and "STRASSE"), stored beside the name (migration 19)."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

# A competition as the migration reads it: its table, id, server and name.
Named = tuple[str, int, int, str]
# What the migration writes back: its table, id, name (with a suffix if renamed) and key.
Keyed = tuple[str, int, str, str]


def name_key(name: str) -> str:
    """The key a name is unique by on its server: its words joined by one space, casefolded."""
    return " ".join(name.split()).casefold()


def has_control_characters(name: str) -> bool:
    """Whether ``name`` holds a control character (NUL, BEL, ...): the desks refuse such a
    name (and the ladder such a removal's reason), since PostgreSQL's text cannot hold a NUL
    (SQLite's can), and so it names none."""
    return any(unicodedata.category(char) == "Cc" for char in name)


def keyed(oldest_first: Iterable[Named]) -> list[Keyed]:
    """Every competition with its key. Names that fold to the same key (possible before the
    keys, on SQLite) keep the oldest as it is; each later one gets the first free suffix of
    " (2)", " (3)", ... so that its key is distinct and its players see which it is."""
    taken: set[tuple[int, str]] = set()
    found: list[Keyed] = []
    for table, row_id, guild_id, name in oldest_first:
        shown, n = name, 1
        while (guild_id, name_key(shown)) in taken:
            n += 1
            shown = f"{name} ({n})"
        taken.add((guild_id, name_key(shown)))
        found.append((table, row_id, shown, name_key(shown)))
    return found
