"""Review rX: storage and deployment, a second look. One failing test per bug found."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import sys
from pathlib import Path

import pytest

from storage.backends.migrations import LATEST

ROOT = Path(__file__).resolve().parent.parent


async def _python_m_bot(*args: str, **env: str) -> tuple[int, str]:
    environ = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests")]),
        "TORA_RULES": "pure",
        **env,
    }
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        *args,
        env=environ,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    return proc.returncode or 0, (out + err).decode()


async def test_a_database_of_a_newer_bot_is_refused_at_start_without_a_traceback(
    tmp_path: Path,
) -> None:
    """An admin rolls a deploy back to the previous image (DEPLOY.md: a new version migrates
    the database when it starts). ``python -m bot`` then meets a database of a newer schema
    and stops with one JSON log line "the bot stopped on an error" holding a Python
    traceback (exit 1), where a database it cannot open is refused in one line naming
    TORA_DB, without a traceback, exit 2 (as ``python -m storage`` does: "the schema is newer
    than this bot"). The admin should see one line: the schema is newer, run a newer bot."""
    db = tmp_path / "tora.sqlite3"
    conn = sqlite3.connect(db)
    conn.execute(f"PRAGMA user_version = {LATEST + 1}")
    conn.commit()
    conn.close()
    status, output = await _python_m_bot(
        DISCORD_TOKEN="t",
        TORA_DB=str(db),
        TORA_AI_PROCESSES="0",
        TORA_WEB_PORT="0",
        TORA_DISCORD_API="http://127.0.0.1:9/api/v10",
    )
    assert "Traceback" not in output, output[-600:]
    assert status == 2, output[-600:]
    assert f"schema version {LATEST + 1}" in output


def test_a_password_given_in_the_urls_query_is_not_written_to_the_log() -> None:
    """TORA_DB=postgresql://tora@db:5432/tora?password=s3cret (libpq's and asyncpg's way to
    give the password as a parameter, which they accept) connects, and the bot logs
    "service started" at every start with ``db`` = ``Config.where()``, as do "cannot open
    ..." and ``python -m storage``'s messages: ``where()`` masks only a password written
    as user:password@, so this one is written in clear into the logs. It should be masked
    (``password=***``) as the other form is."""
    from storage import Config

    config = Config(url="postgresql://tora@db:5432/tora?sslmode=require&password=s3cret")
    assert "s3cret" not in config.where()


def test_a_backup_to_a_path_that_cannot_be_made_is_refused_without_a_traceback(
    tmp_path: Path,
) -> None:
    """``python -m storage backup PATH`` whose directory cannot be made (a file stands where
    a directory is named; or, in the Docker image, a directory the bot's user may not write)
    dies with a Python traceback (``FileExistsError`` from ``mkdir``) and exit status 1,
    where STORAGE.md promises exit status 2 for an unusable path, and every other refusal of
    the tool is one line. It should say the path cannot be written, exit status 2."""
    import io

    from storage import Config
    from storage.tools.maintenance import UNUSABLE, backup

    db = tmp_path / "tora.sqlite3"
    asyncio.run(_made(db))
    (tmp_path / "backups").write_text("not a directory\n")
    out, err = io.StringIO(), io.StringIO()
    try:
        status = backup(Config(path=db), tmp_path / "backups" / "tora.sqlite3", out, err)
    except OSError as exc:
        pytest.fail(f"backup raised {exc!r} (a traceback) instead of refusing the path")
    assert status == UNUSABLE
    assert "backups" in err.getvalue()


async def _made(path: Path) -> None:
    from storage import Config, Store

    store = await Store.open(Config(path=path))
    await store.close()


@pytest.mark.postgres
async def test_check_of_a_mistyped_schema_names_the_schema_it_looked_in() -> None:
    """``python -m storage --db postgresql://.../tora --schema tenant_b check`` with the schema
    mistyped (or TORA_DB_SCHEMA unset in the admin's shell while the bot uses one) answers
    "no tora-bot schema at postgresql://.../tora": the whole database named, as if it held no
    tora-bot data at all, where the bot's data sits in another schema of it; the schema it
    looked in is not said (``copy`` says "(schema S)" in the same refusal). It should name
    the schema it looked in."""
    import io

    import backends

    from storage import Config
    from storage.tools.maintenance import UNUSABLE, check

    if reason := backends.postgres_missing():
        pytest.skip(reason)
    out, err = io.StringIO(), io.StringIO()
    config = Config(url=backends.POSTGRES_URL, schema="rx_no_such_schema")
    assert await check(config, out, err) == UNUSABLE
    assert "no tora-bot schema" in err.getvalue()
    assert "rx_no_such_schema" in err.getvalue()


def test_check_of_a_database_of_a_newer_bot_exits_as_unusable_not_as_damaged(
    tmp_path: Path,
) -> None:
    """``python -m storage check`` on a database a newer bot migrated (an admin who rolled
    the bot back, or checks with an old checkout) replays nothing and says "check it with a
    newer bot", but exits with status 1, which STORAGE.md defines as "problems found": a
    cron job or monitoring that runs ``check`` reports the database as damaged. An older
    schema, equally unreadable by this bot's queries, exits 2 ("the database or path is
    unusable"); so should a newer one."""
    import io

    from storage import Config
    from storage.tools.maintenance import UNUSABLE, check

    db = tmp_path / "tora.sqlite3"
    asyncio.run(_made(db))
    conn = sqlite3.connect(db)
    conn.execute(f"PRAGMA user_version = {LATEST + 1}")
    conn.commit()
    conn.close()
    out, err = io.StringIO(), io.StringIO()
    status = asyncio.run(check(Config(path=db), out, err))
    assert "newer" in err.getvalue()
    assert status == UNUSABLE, err.getvalue()


async def test_a_servers_settings_cut_off_by_a_failure_are_saved_whole_or_not_at_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``/tora-admin settings deadline:1h clock:bank bank:7d`` saves the server's settings as
    nine transactions, one a key (``bot/service/guild.py`` ``save_guild``), after checking
    the combination (``server_terms(settings).check()``). A failure in between (the
    database away for a moment on PostgreSQL, a crash) leaves some keys new and the rest old:
    the admin is told the database did not answer and to look whether it was kept, and
    finds the new deadline with the old clock, a combination nobody chose or checked. They
    should be saved in one transaction: all or none."""
    from bot.service.guild import ClockChoice, GuildSettings, load_guild, save_guild
    from storage import Config, DatabaseUnavailable, Store

    store = await Store.open(Config(path=tmp_path / "tora.sqlite3"))
    try:
        before = GuildSettings(turn_seconds=86400.0, threads=False)
        await save_guild(store, 7, before)
        after = GuildSettings(
            turn_seconds=3600.0, threads=True, clock=ClockChoice("bank", bank_seconds=7 * 86400.0)
        )
        real = store.set_guild_setting
        calls = 0

        async def failing_on_the_fifth(guild_id: int, key: str, value: str | None) -> None:
            nonlocal calls
            calls += 1
            if calls == 5:
                raise DatabaseUnavailable("lost its connection (simulated)")
            await real(guild_id, key, value)

        monkeypatch.setattr(store, "set_guild_setting", failing_on_the_fifth)
        with pytest.raises(DatabaseUnavailable):
            await save_guild(store, 7, after)
        monkeypatch.setattr(store, "set_guild_setting", real)
        kept = await load_guild(store, 7)
        assert kept in (before, after), kept
    finally:
        await store.close()


def test_a_password_holding_a_slash_is_masked_in_messages() -> None:
    """Generated passwords often hold a '/' (base64). ``Config.where()``, which every
    message naming the database uses ("service started" at each start, "cannot open ...",
    ``python -m storage``), masks a password only when it holds neither '/' nor '@':
    ``python -m storage copy postgresql://tora:s3/cret@db/tora ...`` prints "cannot open
    postgresql://tora:s3/cret@db/tora: ..." with the password in clear. It should be
    masked whatever it holds."""
    from storage import Config

    config = Config(url="postgresql://tora:s3/cret@127.0.0.1/tora")
    assert "cret" not in config.where(), config.where()


async def test_a_malformed_database_url_is_refused_at_start_without_a_traceback(
    tmp_path: Path,
) -> None:
    """TORA_DB=postgresql://tora:s3/cret@db/tora (a password with an unencoded '/', so
    that the URL's port reads "s3"): ``python -m bot`` stops with "the bot stopped on an
    error" and a traceback ending in "ValueError: invalid literal for int() with base 10:
    's3'" (exit 1), a piece of the password in the log and TORA_DB not named, where an
    unreachable server or a bad ``sslmode`` is refused in one line "cannot open ... (check
    TORA_DB)", exit 2 (``open_backend`` lets the ValueError of asyncpg's URL parsing
    through; ``python -m storage check`` shows the same traceback). It should be refused as
    those are, without the password."""
    status, output = await _python_m_bot(
        DISCORD_TOKEN="t",
        TORA_DB="postgresql://tora:s3/cret@127.0.0.1/tora",
        TORA_AI_PROCESSES="0",
        TORA_WEB_PORT="0",
        TORA_DISCORD_API="http://127.0.0.1:9/api/v10",
    )
    assert "Traceback" not in output, output[-600:]
    assert status == 2 and "TORA_DB" in output, output[-600:]
    assert "s3" not in output and "cret" not in output, output[-600:]
