"""A match's save with its hosted match's new state: the job that writes one (``alone``), and
on PostgreSQL the one statement that writes many at once (``together``).

Most saves are a player's action in the middle of a turn: entries appended to a match and
its hosted match moved on, nothing posted. When several matches save at once, PostgreSQL's
writer groups such saves (``sql.Together``) and ``together`` writes all of them in one
statement of one transaction: ``BEGIN``, the statement, ``COMMIT``, however many saves, where
each alone costs those three round trips and, batched, two (a savepoint and its statement).
A save it does not write (refused: its match or hosted match moved on...) it leaves undone,
and the writer runs that one alone, which says why; should another process change a hosted
match while the statement waits for its row, the group is done again (``Disagreed``).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import cast

from rules import Side

from ..backends.sql import Connection, PostgresConnection, Raced, Statement
from ..matches import writes
from ..matches.models import ACTIVE
from ..matches.writes import Append, Saved
from . import drafts, outbox
from . import hosted as hosting
from .hosted import ENDED, Hosted
from .outbox import Post

Written = tuple[Saved, Hosted | None]


@dataclass(frozen=True)
class Save:
    """What one save writes: the match's ``request``, and with a hosted match its new state,
    the ``posts`` announcing it and each side's ``plans``; with ``forget``, both sides' plan
    drafts and looks at the board go (``drafts.forget_game``: a takeback, a reset).
    ``state_version``: the shape of the match's game (``GameType.state_version``), for its
    snapshot if one is due."""

    request: Append
    state_version: int
    hosted: Hosted | None = None
    posts: Sequence[Post] = ()
    plans: Mapping[Side, Sequence[str]] | None = None
    forget: bool = False

    @property
    def groupable(self) -> bool:
        """Whether ``together`` can write it: entries, the row, a snapshot and the hosted
        match's row; not a match's end, its closing, posts, plans or drafts."""
        request, hosted = self.request, self.hosted
        return (
            request.finish is None
            and request.close is None
            and not request.state.over
            and not self.posts
            and not self.plans
            and not self.forget
            and (hosted is None or hosted.phase != ENDED)
        )


def alone(save: Save, conn: Connection) -> Written:
    """Write ``save`` (on either backend): the match's entries and row, and the hosted
    match's with its posts, plans and drafts, in the writer's transaction."""
    now = time.time()
    request, hosted = save.request, save.hosted
    if hosted is None:
        return writes.append(conn, request, now), None
    if save.plans or save.forget:  # written before the hosted match, whose end deletes them
        saved = writes.append(conn, request, now)
        for side, lines in (save.plans or {}).items():
            hosting.put_plans(conn, hosted.id, side, lines)
        if save.forget:
            drafts.forget_game(conn, hosted.id)
        updated = hosting.update_hosted(conn, hosted, now)
    else:  # the hosted match written with the match (one statement on PostgreSQL)
        with hosting.channel_busy(hosted):
            saved = writes.append(conn, request, now, hosting.hosted_update(hosted, now))
        updated = hosting.hosted_updated(conn, hosted, saved.also == 1, now)
    outbox.insert_posts(conn, hosted.id, save.posts, now)
    return saved, updated


class Disagreed(Raced):
    """A match moved on without its hosted match (another process changed the hosted match
    while the statement ran): the group's transaction must not commit; the writer does the
    group again, in a new transaction whose statement reads the change."""


def together(conn: Connection, saves: Sequence[Save]) -> list[Written | None]:
    """PostgreSQL: the groupable ``saves`` (``Save.groupable``) written by one statement
    (``_GROUP``), each only if its match, and its hosted match if any, are still at the
    versions read, its match not closed and the hosted match's players known, as
    ``alone`` checks; what each wrote, or None for one left undone (refused, or a second
    save of a match or hosted match already in the group). Disagreed if the statement
    moved a match on without its hosted match."""
    now = time.time()
    chosen = _distinct(saves)
    rows = conn.execute(*statement([saves[n] for n in chosen], now)).fetchall()
    if rows:
        cast(PostgresConnection, conn).assigned(rows[0][3])
    written: dict[int, tuple[int, bool]] = {chosen[row[0] - 1]: (row[1], row[2]) for row in rows}
    answers: list[Written | None] = []
    for n, save in enumerate(saves):
        if n not in written:
            answers.append(None)
            continue
        last_seq, hosted_written = written[n]
        if hosted_written != (save.hosted is not None):
            raise Disagreed(f"match {save.request.match_id} moved on without its hosted match")
        answers.append(_written(save, last_seq, now))
    return answers


def _distinct(saves: Sequence[Save]) -> list[int]:
    """The indexes of the saves the statement writes: each save whose match and hosted match
    no save before it names. A save that one before it does name runs alone after the group
    (refused, or waiting for the first); so do the saves after it that name its match or
    hosted match, which must not be written before it."""
    matches: set[int] = set()
    hosts: set[int] = set()
    chosen = []
    for n, save in enumerate(saves):
        hosted_id = None if save.hosted is None else save.hosted.id
        named = save.request.match_id in matches or hosted_id in hosts
        matches.add(save.request.match_id)
        if hosted_id is not None:
            hosts.add(hosted_id)
        if not named:
            chosen.append(n)
    return chosen


def _written(save: Save, last_seq: int, now: float) -> Written:
    """What ``alone`` would have answered for ``save``, which the statement wrote."""
    request, hosted = save.request, save.hosted
    added = len(request.entries)
    saved = Saved(
        request.version + 1,
        list(range(last_seq - added + 1, last_seq + 1)),
        0 if hosted is None else 1,
    )
    if hosted is None:
        return saved, None
    return saved, replace(hosted, version=hosted.version + 1, updated_at=now)


# The columns of the saves' rows (``r``), each given as an array, with their types.
_SAVE_COLUMNS = (
    ("match_id", "bigint"),
    ("version", "bigint"),
    ("added", "bigint"),
    ("side_to_act", "text"),
    ("round", "bigint"),
    ("score_c", "bigint"),
    ("score_o", "bigint"),
    ("result", "text"),
    ("turn_deadline", "float8"),
    ("hosted_id", "bigint"),
    ("hosted_version", "bigint"),
    ("known", "bigint"),  # how many distinct players the hosted match names
)


def _unnest(columns: Sequence[tuple[str, str]], prefix: str = "") -> tuple[str, str]:
    """``unnest``'s arguments for ``columns`` and the names it gives them."""
    arrays = ", ".join(f"?::{kind}[]" for _name, kind in columns)
    names = ", ".join(prefix + name for name, _kind in columns)
    return arrays, names


_SAVE_ARRAYS, _SAVE_NAMES = _unnest(_SAVE_COLUMNS)
_HOSTED_ARRAYS, _HOSTED_NAMES = _unnest(hosting.WRITTEN, "h_")
_HOSTED_SET = ", ".join(f"{name} = r.h_{name}" for name, _kind in hosting.WRITTEN)
# ``hosted.hosted_update``'s check that the store knows the hosted match's players
_PLAYERS_KNOWN = (
    "(SELECT count(*) FROM players WHERE user_id IN"
    " (r.h_issuer_id, r.h_invitee_id, r.h_challenger_id, r.h_opposition_id)) = r.known"
)

# The saves (``r``, numbered ``n`` in their order) that fit: their match at the version read
# and not closed, their hosted match at its version with its players known (players are
# never deleted), read in the statement's snapshot. Their matches moved on as
# ``writes._MOVE_WITH_ENTRIES`` does (the match stays active: a save that ends it is not
# grouped), then their hosted matches as ``hosted.hosted_update`` does: each UPDATE checks
# its version again when it has its row's lock (a concurrent change waits for it, then finds
# the version moved on and leaves the row); matches are locked in the order of their ids
# (as the plan reads ``fit``: two groups meeting at the same matches rarely deadlock), and
# every match before any hosted match (a save alone locks its match first too). The moved matches'
# entries and snapshots written (the snapshot's state version is that of the match's game
# in memory: the game its row names, which its loader checked). One row per save whose
# match moved, with whether its hosted match did and the transaction's id. ``r`` is
# materialized: inlined, its ``unnest`` of every array would run again for each match row
# the join to ``fit`` tries (about a tenth of the statement's time for ten saves).
_GROUP = f"""
WITH r AS MATERIALIZED (
    SELECT * FROM unnest({_SAVE_ARRAYS}, {_HOSTED_ARRAYS})
    WITH ORDINALITY AS r ({_SAVE_NAMES}, {_HOSTED_NAMES}, n)
), fit AS (
    SELECT r.* FROM r JOIN matches m
    ON m.id = r.match_id AND m.version = r.version AND m.closed IS NULL
    WHERE r.hosted_id IS NULL OR EXISTS (
        SELECT 1 FROM hosted_matches h
        WHERE h.id = r.hosted_id AND h.version = r.hosted_version AND {_PLAYERS_KNOWN})
    ORDER BY r.match_id
), moved AS (
    UPDATE matches m SET version = m.version + 1, last_seq = m.last_seq + r.added,
        side_to_act = r.side_to_act, round = r.round, score_c = r.score_c,
        score_o = r.score_o, result = r.result, updated_at = ?, status = ?,
        turn_deadline = r.turn_deadline
    FROM fit r WHERE m.id = r.match_id AND m.version = r.version AND m.closed IS NULL
    RETURNING r.n, r.added, m.id, m.last_seq
), hosted AS (
    UPDATE hosted_matches h SET {_HOSTED_SET}, version = h.version + 1, updated_at = ?
    FROM moved JOIN fit r USING (n)
    WHERE h.id = r.hosted_id AND h.version = r.hosted_version
    RETURNING r.n
), logged AS (
    INSERT INTO actions (match_id, seq, turn, side, kind, arg, public, hidden, at)
    SELECT moved.id, moved.last_seq - moved.added + e.k, e.turn, e.side, e.kind, e.arg,
        e.public, e.hidden, ?
    FROM moved JOIN unnest(?::bigint[], ?::bigint[], ?::bigint[], ?::text[], ?::text[],
        ?::text[], ?::text[], ?::bigint[]) AS e (n, k, turn, side, kind, arg, public, hidden)
    ON e.n = moved.n
), snapped AS (
    INSERT INTO snapshots (match_id, seq, state_version, data, at)
    SELECT moved.id, moved.last_seq, s.state_version, s.data, ?
    FROM moved JOIN unnest(?::bigint[], ?::bigint[], ?::bytea[]) AS s (n, state_version, data)
    ON s.n = moved.n
    {writes.SNAPSHOT_KEPT}
)
SELECT n, moved.last_seq, hosted.n IS NOT NULL, pg_current_xact_id()
FROM moved LEFT JOIN hosted USING (n)
"""


def statement(saves: Sequence[Save], now: float) -> Statement:
    """The one statement ``together`` runs for ``saves`` (of distinct matches and hosted
    matches, numbered from 1 in this order), as of ``now``: ``_GROUP`` and its parameters.
    Its rows: each save whose match moved on, its match's last entry's number, whether its
    hosted match moved on, the transaction's id."""
    return _GROUP, _parameters(saves, now)


def _parameters(saves: Sequence[Save], now: float) -> tuple[object, ...]:
    """``_GROUP``'s parameters for ``saves`` (numbered from 1 in this order)."""
    rows = [_save_row(save) for save in saves]
    entries = [
        (n, k, *writes.entry_values(entry))
        for n, save in enumerate(saves, 1)
        for k, entry in enumerate(save.request.entries, 1)
    ]
    snapshots = [
        (n, save.state_version, save.request.snapshot)
        for n, save in enumerate(saves, 1)
        if save.request.snapshot is not None
    ]
    return (
        *_columns(rows, len(_SAVE_COLUMNS) + len(hosting.WRITTEN)),
        now,
        ACTIVE,
        now,
        now,
        *_columns(entries, 8),
        now,
        *_columns(snapshots, 3),
    )


def _save_row(save: Save) -> tuple[object, ...]:
    """A groupable save's row (its match stays active: its deadline as given)."""
    request, hosted = save.request, save.hosted
    head = (request.match_id, request.version, *writes.move_values(request), request.deadline)
    if hosted is None:
        return (*head, None, None, 0, *(None,) * len(hosting.WRITTEN))
    known = len(hosting.players_of(hosted))
    return (*head, hosted.id, hosted.version, known, *hosting.values_of(hosted))


def _columns(rows: Sequence[tuple[object, ...]], width: int) -> list[list[object]]:
    """``rows`` as the ``width`` arrays ``unnest`` reads (every row ``width`` long)."""
    if any(len(row) != width for row in rows):
        raise ValueError(f"rows of {width} values expected")
    return [[row[column] for row in rows] for column in range(width)]
