"""Storage integrity: damaged rows fail loudly and only for their match, the schema
migrates forward from the first one, and the backup and check commands."""

from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from storage_workload import GUILD, new_match, play_and_save

from rules.tora import Game, Options
from storage import Config, ConfigError, CorruptMatch, SchemaTooNew, Store
from storage.backends.migrations import LATEST, migrate
from storage.matches.log import ACT, END, Step, fingerprint, play

ROOT = Path(__file__).resolve().parents[1]


def sql(path: Path, *statements: str) -> None:
    conn = sqlite3.connect(path)
    try:
        with conn:
            for statement in statements:
                conn.execute(statement)
    finally:
        conn.close()


def storage_cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("TORA_DB", None)
    return subprocess.run(
        [sys.executable, "-m", "storage", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


async def two_matches(path: Path) -> tuple[int, int]:
    """Two played matches, without snapshots, so that every row is replayed on load."""
    async with await Store.open(Config(path=path, snapshot_every=10_000)) as store:
        first = await play_and_save(store, await new_match(store), random.Random(1), 12)
        second = await play_and_save(store, await new_match(store), random.Random(2), 12)
    return first.id, second.id


UNGUARDED = "DROP TRIGGER actions_no_update", "DROP TRIGGER actions_no_delete"
DAMAGE = {
    "illegal action": (
        "UPDATE actions SET arg = 'A v5h5-v1h1', public = 'A v5h5-v1h1' "
        "WHERE match_id = {m} AND seq = 1",
        r"log entry 1 \(act 'A v5h5-v1h1'\) is refused",
    ),
    "log gap": ("DELETE FROM actions WHERE match_id = {m} AND seq = 2", "jumps from entry 1 to 3"),
    "row disagrees": (
        "UPDATE actions SET side = 'O' WHERE match_id = {m} AND seq = 1",
        "is stored as .* but replays as",
    ),
    "lost tail": (
        "UPDATE matches SET last_seq = last_seq + 1 WHERE id = {m}",
        "log entries but its log ends at",
    ),
    "state": ("UPDATE matches SET round = 99 WHERE id = {m}", "stored state .* differs"),
    "options": (
        'UPDATE matches SET options = \'{{"board": "huge"}}\' WHERE id = {m}',
        "unreadable match options",
    ),
}


@pytest.mark.parametrize("damage", list(DAMAGE))
async def test_a_damaged_match_fails_loudly_and_alone(tmp_path: Path, damage: str) -> None:
    path = tmp_path / "tora.sqlite3"
    damaged, healthy = await two_matches(path)
    statement, message = DAMAGE[damage]
    sql(path, *UNGUARDED, statement.format(m=damaged))
    async with await Store.open(Config(path=path)) as store:
        with pytest.raises(CorruptMatch, match=rf"match {damaged} cannot be loaded: .*{message}"):
            await store.load(damaged)
        await store.load(healthy)  # the rest of the bot keeps working
        assert {info.id for info in await store.active_matches(GUILD)} >= {healthy}
        assert len(await store.public_log(damaged)) > 0


def test_the_action_log_is_append_only(tmp_path: Path) -> None:
    path = tmp_path / "tora.sqlite3"
    conn = sqlite3.connect(path, isolation_level=None)
    migrate(conn)
    conn.close()
    sql(
        path,
        "INSERT INTO players VALUES (1, 'ann', 0)",
        "INSERT INTO matches (id, guild_id, challenger_id, opposition_id, options, status,"
        " side_to_act, round, version, last_seq, created_at, updated_at)"
        " VALUES (1, 1, 1, 1, '{}', 'active', 'C', 1, 1, 1, 0, 0)",
        "INSERT INTO actions (match_id, seq, turn, side, kind, public, at)"
        " VALUES (1, 1, 1, 'C', 'end', 'end turn', 0)",
    )
    for statement in ("UPDATE actions SET arg = 'x'", "DELETE FROM actions"):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            sql(path, statement)


async def test_a_database_of_the_first_schema_migrates_forward(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(path, isolation_level=None)
    assert migrate(conn, upto=1) == [1]
    # a match as the first release wrote it: two actions and a turn end
    game = Game(Options(board="short"))
    entries = []
    for _ in range(2):
        entries.append(play(game, Step(ACT, game.notation(game.legal_actions()[-1])))[0])
    entries.append(play(game, Step(END))[0])
    with conn:
        conn.execute("BEGIN")
        conn.execute("INSERT INTO players VALUES (1, 'ann', 0), (2, 'bob', 0)")
        conn.execute(
            "INSERT INTO matches (id, guild_id, challenger_id, opposition_id, options, status,"
            " side_to_act, round, version, last_seq, created_at, updated_at) VALUES"
            " (1, 1, 1, 2, ?, 'active', 'O', 1, 2, 3, 0, 0)",
            ('{"board": "short", "challenger_setup": "aggressive"}',),
        )
        for seq, entry in enumerate(entries, start=1):
            conn.execute(
                "INSERT INTO actions (match_id, seq, turn, side, kind, arg, public, hidden, at)"
                " VALUES (1, ?, ?, ?, ?, ?, ?, 0, 0)",
                (seq, entry.turn, entry.side.letter, entry.kind, entry.arg, entry.public),
            )
    conn.close()
    async with await Store.open(Config(path=path)) as store:
        match = await store.load(1)
        assert fingerprint(match.game) == fingerprint(game)
        match.resign(match.game.side)
        await store.save(match)  # finishing writes a table the first schema did not have
        assert len(await store.finished_matches(1)) == 1
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == LATEST
    conn.close()


async def test_a_database_from_a_newer_bot_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    sql(path, f"PRAGMA user_version = {LATEST + 1}")
    with pytest.raises(SchemaTooNew, match=f"schema version {LATEST + 1}"):
        await Store.open(Config(path=path))


async def test_the_database_path_comes_from_tora_db_and_is_created(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "er" / "bot.sqlite3"
    config = Config.from_env({"TORA_DB": str(path)})
    async with await Store.open(config):
        pass
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()
    default = Config.from_env({})
    assert (default.path, default.journal_mode, default.synchronous) == (
        Path("data/tora.sqlite3"),
        "WAL",
        "FULL",
    )
    assert Config.from_env({"TORA_DB_SYNCHRONOUS": "normal"}).synchronous == "NORMAL"
    with pytest.raises(ConfigError, match="TORA_DB_"):
        Config.from_env({"TORA_DB_SYNCHRONOUS": "sometimes"})


async def test_check_passes_a_healthy_database_and_names_a_broken_match(tmp_path: Path) -> None:
    path = tmp_path / "tora.sqlite3"
    damaged, _healthy = await two_matches(path)
    ok = storage_cli("--db", str(path), "check")
    assert ok.returncode == 0, ok.stderr
    assert "integrity_check: ok" in ok.stdout
    assert "matches: 2 checked, 2 replay, 0 failed" in ok.stdout
    sql(path, f"UPDATE matches SET round = 99 WHERE id = {damaged}")
    broken = storage_cli("--db", str(path), "check")
    assert broken.returncode == 1
    assert f"match {damaged} cannot be loaded" in broken.stderr
    assert "matches: 2 checked, 1 replay, 1 failed" in broken.stdout
    missing = storage_cli("--db", str(tmp_path / "nothing.sqlite3"), "check")
    assert missing.returncode == 2 and "no database at" in missing.stderr


async def test_backup_copies_a_consistent_database(tmp_path: Path) -> None:
    path = tmp_path / "tora.sqlite3"
    first, second = await two_matches(path)
    copy = tmp_path / "backups" / "copy.sqlite3"
    done = storage_cli("--db", str(path), "backup", str(copy))
    assert done.returncode == 0, done.stderr
    assert "2 matches" in done.stdout and "integrity ok" in done.stdout
    async with (
        await Store.open(Config(path=path)) as live,
        await Store.open(Config(path=copy)) as restored,
    ):
        for match_id in (first, second):
            original, backed_up = await live.load(match_id), await restored.load(match_id)
            assert fingerprint(original.game) == fingerprint(backed_up.game)
    assert storage_cli("--db", str(copy), "check").returncode == 0
    again = storage_cli("--db", str(path), "backup", str(copy))
    assert again.returncode == 2 and "exists" in again.stderr


async def test_a_backup_to_a_path_that_cannot_be_made_is_refused_without_a_traceback(
    tmp_path: Path,
) -> None:
    """A file stands where the backup's directory is named: the path is unusable, said in
    one line, exit status 2. Regression: mkdir's FileExistsError traceback, exit 1."""
    path = tmp_path / "tora.sqlite3"
    await two_matches(path)
    (tmp_path / "backups").write_text("not a directory\n")
    for dest in (tmp_path / "backups" / "copy.sqlite3", tmp_path / "backups" / "a" / "b"):
        refused = storage_cli("--db", str(path), "backup", str(dest))
        assert refused.returncode == 2, refused.stderr
        assert "Traceback" not in refused.stderr and "backups" in refused.stderr


async def test_check_of_a_database_of_a_newer_bot_exits_as_unusable_not_as_damaged(
    tmp_path: Path,
) -> None:
    """A database a newer bot migrated (an admin who rolled the bot back) is not read by
    ``check``: exit status 2, unusable here, as an older schema is; 1 would tell a cron job
    or monitoring that the database is damaged."""
    path = tmp_path / "tora.sqlite3"
    await two_matches(path)
    sql(path, f"PRAGMA user_version = {LATEST + 1}")
    newer = storage_cli("--db", str(path), "check")
    assert "newer bot" in newer.stderr
    assert newer.returncode == 2, newer.stderr


async def test_check_and_backup_take_db_after_their_name_as_the_readme_writes_it(
    tmp_path: Path,
) -> None:
    """README: "`backup` and `check` take `--db`"; an admin writes `check --db FILE`.
    Regression: argparse refused it (`unrecognized arguments: --db`, exit 2): only
    `--db FILE check` worked."""
    path = tmp_path / "tora.sqlite3"
    await two_matches(path)
    checked = storage_cli("check", "--db", str(path))
    assert checked.returncode == 0, checked.stderr
    assert "matches: 2 checked, 2 replay, 0 failed" in checked.stdout
    copy = tmp_path / "copy.sqlite3"
    backed_up = storage_cli("backup", str(copy), "--db", str(path))
    assert backed_up.returncode == 0, backed_up.stderr
    assert "2 matches" in backed_up.stdout
    schema = storage_cli("check", "--db", str(path), "--schema", "tora")
    assert schema.returncode == 2 and "schema is for a postgresql:// URL" in schema.stderr
