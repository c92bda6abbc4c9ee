"""``python -m storage backup PATH`` and ``python -m storage check``: the operator's tools.

Both print what they did on standard output and problems on standard error. Exit status: 0
all good, 1 problems found (or the backup failed), 2 the database or a path is unusable.
"""

from __future__ import annotations

import os
import sqlite3
import sys
from dataclasses import replace
from pathlib import Path
from typing import TextIO

import asyncpg

from ..backends import postgres_reads
from ..backends.migrations import LATEST
from ..backends.sql import ReadConnection
from ..backends.sqlite import connect_reader
from ..config import Config
from ..errors import CorruptMatch
from ..matches.loader import SnapshotUnusable, rebuild
from ..matches.log import fingerprint
from ..matches.reads import Stored, match_ids, stored_match

OK, PROBLEMS, UNUSABLE = 0, 1, 2


def backup(config: Config, dest: Path, out: TextIO = sys.stdout, err: TextIO = sys.stderr) -> int:
    """Copy the database to ``dest`` with SQLite's online backup API: a consistent copy even
    while the bot writes, as one self-contained file (rollback journal, no -wal). A
    PostgreSQL database is backed up with the server's own tools (docs/DEPLOY.md)."""
    if config.postgres:
        print(
            f"{config.where()} is PostgreSQL: back it up with pg_dump, or copy it to a SQLite"
            " file with `python -m storage copy URL FILE`",
            file=err,
        )
        return UNUSABLE
    source = config.path
    if not source.is_file():
        print(f"no database at {source} (set TORA_DB or --db)", file=err)
        return UNUSABLE
    if dest.exists():
        print(f"{dest} exists; give the backup a new name", file=err)
        return UNUSABLE
    if (unusable := _unwritable(dest.parent)) is not None:
        print(f"cannot write the backup in {dest.parent}: {unusable}", file=err)
        return UNUSABLE
    partial = dest.with_name(dest.name + ".partial")
    partial.unlink(missing_ok=True)
    try:
        matches = _copy(config, partial)
    except sqlite3.Error as exc:
        partial.unlink(missing_ok=True)
        print(f"backup failed: {exc}", file=err)
        return PROBLEMS
    os.replace(partial, dest)
    _sync_directory(dest.parent)
    size = dest.stat().st_size
    counted = f"{matches} match" + ("" if matches == 1 else "es")
    print(f"backed up {source} to {dest}: {counted}, {size} bytes, integrity ok", file=out)
    return OK


def _unwritable(directory: Path) -> str | None:
    """Why the backup cannot be written in ``directory`` (made if missing), else None."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        return "a file, not a directory, stands in its path"
    except OSError as exc:  # not allowed, a read-only file system...
        return exc.strerror or str(exc)
    if not os.access(directory, os.W_OK | os.X_OK):
        return "this user may not write there"
    return None


def _copy(config: Config, partial: Path) -> int:
    src = sqlite3.connect(config.path, timeout=config.busy_timeout_ms / 1000)
    dst = sqlite3.connect(partial, isolation_level=None)
    try:
        src.execute("PRAGMA query_only = ON")
        src.backup(dst)
        dst.execute("PRAGMA journal_mode = DELETE")
        verdict = dst.execute("PRAGMA integrity_check").fetchone()[0]
        if verdict != "ok":
            raise sqlite3.DatabaseError(f"the copy fails its integrity check: {verdict}")
        return int(dst.execute("SELECT count(*) FROM matches").fetchone()[0])
    finally:
        dst.close()
        src.close()


def _sync_directory(directory: Path) -> None:
    """Make the rename itself durable."""
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


async def check(config: Config, out: TextIO = sys.stdout, err: TextIO = sys.stderr) -> int:
    """SQLite's integrity check, foreign keys, then every match replayed from its whole log
    and, where it has a snapshot, from the snapshot too: both must give the same game.
    PostgreSQL enforces its constraints itself: there, only the matches are replayed."""
    if config.postgres:
        return await _check_postgres(config, out, err)
    if not config.path.is_file():
        print(f"no database at {config.path} (set TORA_DB or --db)", file=err)
        return UNUSABLE
    try:
        db = await connect_reader(config)
    except sqlite3.Error as exc:
        print(f"cannot open {config.path}: {exc}", file=err)
        return UNUSABLE
    try:
        return await _check(db, config.path, out, err)
    finally:
        await db.close()


async def _check(db: ReadConnection, path: Path, out: TextIO, err: TextIO) -> int:
    version = next(iter(await db.execute_fetchall("PRAGMA user_version")))[0]
    print(f"database: {path} (schema version {version}, this bot's is {LATEST})", file=out)
    if (refused := _unfit(version, err)) is not None:
        return refused
    problems = 0
    verdicts = [row[0] for row in await db.execute_fetchall("PRAGMA integrity_check")]
    if verdicts == ["ok"]:
        print("integrity_check: ok", file=out)
    else:
        problems += 1
        for verdict in verdicts:
            print(f"integrity_check: {verdict}", file=err)
    dangling = list(await db.execute_fetchall("PRAGMA foreign_key_check"))
    if dangling:
        problems += 1
        for table, rowid, parent, _fk in dangling:
            print(f"foreign key: {table} row {rowid} points to a missing {parent}", file=err)
    else:
        print("foreign keys: ok", file=out)
    return await _replay_all(db, problems, out, err)


async def _check_postgres(config: Config, out: TextIO, err: TextIO) -> int:
    try:
        readers = await postgres_reads.Readers.open(config)
    except (OSError, asyncpg.PostgresError) as exc:
        print(f"cannot open {config.where()}: {exc}", file=err)
        return UNUSABLE
    try:
        async with readers.borrow() as db:
            try:
                [(version,)] = await db.execute_fetchall("SELECT version FROM schema_version")
            except asyncpg.UndefinedTableError:
                print(f"no tora-bot schema at {config.where()}", file=err)
                return UNUSABLE
            print(
                f"database: {config.where()} (schema version {version}, this bot's is {LATEST})",
                file=out,
            )
            if (refused := _unfit(version, err)) is not None:
                return refused
            print("constraints and foreign keys: enforced by PostgreSQL", file=out)
            return await _replay_all(db, 0, out, err)
    finally:
        await readers.close()


def _unfit(version: int, err: TextIO) -> int | None:
    """The exit status when this bot's queries cannot read a schema of ``version``, else None:
    unusable here, not damaged. An older schema is not migrated here: a check only reads (and
    may read a backup)."""
    if version > LATEST:
        print("the schema is newer than this bot: check it with a newer bot", file=err)
        return UNUSABLE
    if version < LATEST:
        print(
            f"schema version {version} is older than this bot's ({LATEST}): migrate it first."
            " The bot migrates its database when it starts, and `python -m storage copy`"
            " migrates its source and its destination before copying (check the copy then)",
            file=err,
        )
        return UNUSABLE
    return None


async def _replay_all(db: ReadConnection, problems: int, out: TextIO, err: TextIO) -> int:
    ids = await match_ids(db)
    failed = 0
    for match_id in ids:
        detail = _replays(await stored_match(db, match_id, whole_log=True))
        if detail is not None:
            failed += 1
            print(detail, file=err)
    print(f"matches: {len(ids)} checked, {len(ids) - failed} replay, {failed} failed", file=out)
    return OK if problems == 0 and failed == 0 else PROBLEMS


def _replays(stored: Stored) -> str | None:
    """None if the match replays, else why not."""
    try:
        game = rebuild(replace(stored, snapshot=None))
    except CorruptMatch as exc:
        return str(exc)
    snapshot = stored.snapshot
    if snapshot is None:
        return None
    tail = [(seq, row) for seq, row in stored.entries if seq > snapshot.seq]
    try:
        from_snapshot = rebuild(replace(stored, entries=tail))
    except SnapshotUnusable:
        return None  # ignored by the loader too, and rebuilt at the next load
    except CorruptMatch as exc:
        return f"{exc} (from its snapshot; the whole log replays)"
    if fingerprint(from_snapshot) != fingerprint(game):
        return (
            f"match {stored.info.id}: its snapshot at log entry {snapshot.seq} plus the log "
            "after it gives another game than the whole log"
        )
    return None
