"""How tournament and event names are told apart on a server: by a key folded in Python, the
same on both backends (SQLite's NOCASE folds ASCII letters only, PostgreSQL's lower() every
letter but not as Python does: "Straße" and "STRASSE"), stored beside the name (migration 19)."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from ..backends.sql import ReadConnection

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


# A server's tournament and event names whose key starts with a prefix (compared as text of
# its length: no LIKE wildcards to escape, the same on both backends), open or running ones
# first, then the newest; ties as the desk lists them (events, then tournaments, newest id).
STARTING_SQL = """
SELECT name FROM (
    SELECT name, status, created_at, 0 AS kind, id FROM events
        WHERE guild_id = ? AND substr(name_key, 1, length(CAST(? AS TEXT))) = ?
    UNION ALL
    SELECT name, status, created_at, 1 AS kind, id FROM tournaments
        WHERE guild_id = ? AND substr(name_key, 1, length(CAST(? AS TEXT))) = ?
) AS named
ORDER BY CASE WHEN status IN (?, ?) THEN 0 ELSE 1 END, created_at DESC, kind, id DESC
LIMIT ?
"""


async def starting(
    db: ReadConnection, guild_id: int, typed: str, live: tuple[str, str], limit: int
) -> list[str]:
    """The first ``limit`` names of the server's tournaments and events whose name starts
    with ``typed`` in any case (``live``: the two statuses listed first), in one read of
    those alone. None starts with a control character (``has_control_characters``), which
    PostgreSQL could not even be asked about."""
    if has_control_characters(typed):
        return []
    prefix = typed.casefold()  # a stored name is spaced as its key: only its case differs
    rows = await db.execute_fetchall(
        STARTING_SQL, (guild_id, prefix, prefix, guild_id, prefix, prefix, *live, limit)
    )
    return [str(name) for (name,) in rows]


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
