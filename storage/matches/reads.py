"""The matches' read queries, each a function of a read connection (either backend's).

Public reads select only public columns: ``actions.public``, never ``actions.arg`` of a hidden
row; ``match_secrets`` and ``snapshots`` are read only by ``private_*`` functions, which take
the side whose data they return, and by ``stored_match``, the loader's read.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules import Side, game_type

from ..backends.sql import ReadConnection, Row, can_be_id
from ..errors import MatchNotFound
from .codec import headers_from_json
from .games import spec_from_json
from .log import CLOSING, REWIND, Entry
from .models import FinishedMatch, LogLine, MatchInfo

_MATCH_COLUMNS = (
    "id, guild_id, channel_id, challenger_id, opposition_id, options, status, side_to_act,"
    " round, score_c, score_o, result, version, last_seq, turn_deadline, created_at, updated_at,"
    " game, closed"
)
_CLOSING = ", ".join(f"'{kind}'" for kind in sorted(CLOSING))


def _info(row: Row) -> MatchInfo:
    try:
        options = spec_from_json(row["game"], row["options"])
    except ValueError:
        options = None
    return MatchInfo(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        challenger_id=row["challenger_id"],
        opposition_id=row["opposition_id"],
        options=options,
        status=row["status"],
        side_to_act=Side.from_letter(row["side_to_act"]),
        round=row["round"],
        score=(row["score_c"], row["score_o"]),
        result=row["result"],
        version=row["version"],
        actions=row["last_seq"],
        turn_deadline=row["turn_deadline"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        game=row["game"],
        closed=row["closed"],
    )


async def match_info(db: ReadConnection, match_id: int) -> MatchInfo:
    if not can_be_id(match_id):
        raise MatchNotFound(match_id)
    rows = await db.execute_fetchall(
        f"SELECT {_MATCH_COLUMNS} FROM matches WHERE id = ?", (match_id,)
    )
    for row in rows:
        return _info(row)
    raise MatchNotFound(match_id)


async def matches(db: ReadConnection, where: str, params: tuple[object, ...]) -> list[MatchInfo]:
    rows = await db.execute_fetchall(
        f"SELECT {_MATCH_COLUMNS} FROM matches WHERE {where} ORDER BY id", params
    )
    return [_info(row) for row in rows]


async def match_ids(db: ReadConnection) -> list[int]:
    return [row[0] for row in await db.execute_fetchall("SELECT id FROM matches ORDER BY id")]


async def log_lines(db: ReadConnection, match_id: int, viewer: Side | None) -> list[LogLine]:
    """The log up to the last turn end, in public form; for a player (``viewer``), also their
    own entries of the running turn, and their own hidden actions in full."""
    await match_info(db, match_id)
    boundary = await db.execute_fetchall(
        f"SELECT coalesce(max(seq), 0) FROM actions WHERE match_id = ? AND kind IN ({_CLOSING})",
        (match_id,),
    )
    last_closed = next(iter(boundary))[0]
    if viewer is None:
        sql = (
            "SELECT seq, turn, side, kind, public AS text, hidden, at FROM actions"
            " WHERE match_id = ? AND seq <= ? ORDER BY seq"
        )
        params: tuple[object, ...] = (match_id, last_closed)
    else:
        sql = (
            "SELECT seq, turn, side, kind,"
            " CASE WHEN hidden = 1 AND side = ? THEN arg ELSE public END AS text, hidden, at"
            " FROM actions WHERE match_id = ? AND (seq <= ? OR side = ?) ORDER BY seq"
        )
        params = (viewer.letter, match_id, last_closed, viewer.letter)
    rows = await db.execute_fetchall(sql, params)
    return [
        LogLine(
            row["seq"],
            row["turn"],
            Side.from_letter(row["side"]),
            row["kind"],
            row["text"],
            bool(row["hidden"]),
            row["at"],
        )
        for row in rows
    ]


async def last_closing(db: ReadConnection, match_id: int) -> str | None:
    """The kind of the log's last entry that closed a turn (``end``, ``deadline``...), or
    None before any."""
    rows = await db.execute_fetchall(
        f"SELECT kind FROM actions WHERE match_id = ? AND kind IN ({_CLOSING})"
        " ORDER BY seq DESC LIMIT 1",
        (match_id,),
    )
    return next((str(row[0]) for row in rows), None)


async def private_secrets(db: ReadConnection, match_id: int, side: Side) -> dict[str, str]:
    """``side``'s secret setup answers by question (TORA's Assassin square, R41)."""
    await match_info(db, match_id)
    rows = await db.execute_fetchall(
        "SELECT question, answer FROM match_secrets WHERE match_id = ? AND side = ?",
        (match_id, side.letter),
    )
    return {str(question): str(answer) for question, answer in rows}


# ---- the loader's read ---------------------------------------------------------------------


@dataclass(frozen=True)
class Snapshot:
    seq: int
    state_version: int
    data: bytes


@dataclass(frozen=True)
class Stored:
    """Everything the loader needs, read in one transaction. ``entries`` are the log entries
    after ``snapshot`` (all of them when it is None), as (seq, raw row)."""

    info: MatchInfo
    options: str
    secrets: tuple[dict[str, str], dict[str, str]]  # each side's secret answers
    snapshot: Snapshot | None
    entries: list[tuple[int, tuple[object, ...]]]
    rewinds: int = 0  # the log's rewinds, however far back (public: turns taken back)


ENTRY_COLUMNS = "seq, turn, side, kind, arg, public, hidden"
# the turns taken back, counted in the match's row's statement (no round trip of its own)
_REWINDS = "(SELECT count(*) FROM actions WHERE match_id = matches.id AND kind = ?) AS rewinds"


async def stored_match(db: ReadConnection, match_id: int, whole_log: bool = False) -> Stored:
    """Read a match for the loader: its snapshot if it has its game type's current state
    version and is not ahead of the log, and the log entries after it (all of them
    with ``whole_log``, for checks that replay both ways)."""
    if not can_be_id(match_id):
        raise MatchNotFound(match_id)
    await db.execute("BEGIN")
    try:
        rows = await db.execute_fetchall(
            f"SELECT {_MATCH_COLUMNS}, {_REWINDS} FROM matches WHERE id = ?", (REWIND, match_id)
        )
        row = next(iter(rows), None)
        if row is None:
            raise MatchNotFound(match_id)
        info = _info(row)
        secret_rows = await db.execute_fetchall(
            "SELECT side, question, answer FROM match_secrets WHERE match_id = ?", (match_id,)
        )
        snapshot = await _snapshot(db, match_id, info)
        after = snapshot.seq if snapshot and not whole_log else 0
        entries = await entry_rows(db, match_id, after)
    finally:
        await db.execute("COMMIT")
    secrets: tuple[dict[str, str], dict[str, str]] = ({}, {})
    for side, question, answer in secret_rows:
        secrets[Side.from_letter(side)][str(question)] = str(answer)
    return Stored(info, row["options"], secrets, snapshot, entries, int(row["rewinds"]))


async def _snapshot(db: ReadConnection, match_id: int, info: MatchInfo) -> Snapshot | None:
    try:
        version = game_type(info.game).state_version
    except ValueError:  # a game this bot does not know: the loader says so
        return None
    rows = await db.execute_fetchall(
        "SELECT seq, state_version, data FROM snapshots WHERE match_id = ?"
        " AND state_version = ? AND seq <= ?",
        (match_id, version, info.actions),
    )
    return next((Snapshot(r[0], r[1], bytes(r[2])) for r in rows), None)


async def entry_rows(
    db: ReadConnection, match_id: int, after: int, upto: int | None = None
) -> list[tuple[int, tuple[object, ...]]]:
    rows = await db.execute_fetchall(
        f"SELECT {ENTRY_COLUMNS} FROM actions WHERE match_id = ? AND seq > ? AND seq <= ?"
        " ORDER BY seq",
        (match_id, after, upto if upto is not None else 1 << 62),
    )
    return [(row[0], tuple(row)) for row in rows]


def entry_of(row: tuple[object, ...]) -> Entry:
    """A stored row as a log entry; ValueError if it cannot be one."""
    _seq, turn, side, kind, arg, public, hidden = row
    if not isinstance(turn, int) or hidden not in (0, 1):
        raise ValueError("malformed turn or hidden flag")
    return Entry(str(kind), Side.from_letter(str(side)), turn, str(arg), str(public), bool(hidden))


# ---- players, guilds, results, ladders -----------------------------------------------------


async def finished_matches(
    db: ReadConnection, guild_id: int, player_id: int | None
) -> list[FinishedMatch]:
    rows = await db.execute_fetchall(
        "SELECT f.match_id, m.guild_id, m.challenger_id, m.opposition_id, f.winner, f.reason,"
        " f.score_c, f.score_o, f.record, f.finished_at FROM finished_matches f"
        " JOIN matches m ON m.id = f.match_id WHERE m.guild_id = ?"
        " AND (CAST(? AS BIGINT) IS NULL OR ? IN (m.challenger_id, m.opposition_id))"
        " ORDER BY f.finished_at, f.match_id",
        (guild_id, player_id, player_id),
    )
    return [
        FinishedMatch(
            r[0],
            r[1],
            r[2],
            r[3],
            None if r[4] is None else Side.from_letter(r[4]),
            r[5],
            (r[6], r[7]),
            r[8],
            r[9],
        )
        for r in rows
    ]


async def match_headers(db: ReadConnection, match_id: int) -> dict[str, str]:
    """The extra record headers a match was created or imported with."""
    rows = await db.execute_fetchall("SELECT headers FROM matches WHERE id = ?", (match_id,))
    for row in rows:
        return headers_from_json(row[0])
    raise MatchNotFound(match_id)
