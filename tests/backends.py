"""The storage backends the tests run on: SQLite in a temporary file, always; PostgreSQL when
a server is reachable at ``TORA_TEST_POSTGRES`` (each test in a schema of its own, dropped
afterwards). Tests that take the ``db`` fixture run once per backend; the PostgreSQL runs are
marked ``postgres`` (``pytest -m postgres`` runs only them)."""

from __future__ import annotations

import asyncio
import functools
import os
import sqlite3
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import asyncpg
import pytest

from storage import Config
from storage.backends.postgres import translate
from storage.backends.postgres_writer import Writer

POSTGRES_URL = os.environ.get("TORA_TEST_POSTGRES", "")
BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


@functools.cache
def postgres_missing() -> str | None:
    """Why the PostgreSQL half cannot run here, or None when it can."""
    if not POSTGRES_URL:
        return (
            "PostgreSQL tests skipped: set TORA_TEST_POSTGRES to a server's URL"
            " (e.g. postgresql://postgres@127.0.0.1:5432/test) to run them"
        )

    async def probe() -> None:
        conn = await asyncpg.connect(POSTGRES_URL, timeout=5)
        await conn.close()

    try:  # in a thread of its own: the caller may be inside a running event loop
        with ThreadPoolExecutor(1) as thread:
            thread.submit(asyncio.run, probe()).result()
    except (OSError, asyncpg.PostgresError, TimeoutError) as exc:
        return f"PostgreSQL tests skipped: no server answers at TORA_TEST_POSTGRES ({exc})"
    return None


def config(backend: str, tmp_path: Path, **settings: object) -> Config:
    """A fresh, empty database of ``backend``."""
    if backend == "sqlite":
        return Config(path=tmp_path / "tora.sqlite3", **settings)  # type: ignore[arg-type]
    schema = f"test_{uuid.uuid4().hex[:20]}"
    return Config(url=POSTGRES_URL, schema=schema, **settings)  # type: ignore[arg-type]


async def drop(config: Config) -> None:
    """Remove a test's PostgreSQL schema (nothing to do for a SQLite file)."""
    if config.postgres:
        conn = await asyncpg.connect(config.url)
        try:
            await conn.execute(f'DROP SCHEMA IF EXISTS "{config.schema}" CASCADE')
        finally:
            await conn.close()


async def raw_sql(config: Config, query: str, *params: object) -> list[tuple]:
    """Run ``query`` on the database behind the store's back (to look at it, or damage it as
    a crash or a disk would), committed at once."""
    if not config.postgres:
        conn = sqlite3.connect(config.path)
        try:
            with conn:
                return conn.execute(query, params).fetchall()
        finally:
            conn.close()
    conn = await asyncpg.connect(config.url, server_settings={"search_path": config.schema or ""})
    try:
        return [tuple(row) for row in await conn.fetch(translate(query), *params)]
    finally:
        await conn.close()


class AnswerLost:
    """An asyncpg connection whose COMMIT, while ``log`` reads ``when`` (empty: the first
    COMMIT), goes through on the server but whose answer is lost with the connection (as
    when it is cut right after the server committed); ``"cut"`` is then added to ``log``."""

    def __init__(
        self, conn: asyncpg.Connection, log: list[str], when: tuple[str, ...] = ()
    ) -> None:
        self._conn = conn
        self._log = log
        self._when = list(when)

    def __getattr__(self, name: str) -> object:
        return getattr(self._conn, name)

    async def execute(self, sql: str, *args: object) -> str:
        status: str = await self._conn.execute(sql, *args)
        if sql == "COMMIT" and self._log == self._when:
            self._log.append("cut")
            self._conn.terminate()
            raise asyncpg.ConnectionDoesNotExistError("connection was closed (simulated)")
        return status


def lose_commit_answers(
    monkeypatch: pytest.MonkeyPatch, log: list[str], when: tuple[str, ...] = ()
) -> None:
    """From now on the PostgreSQL writers' connections are ``AnswerLost``'s: the COMMIT
    made while ``log`` reads ``when`` goes through unheard."""
    connect = Writer._connect

    async def answer_lost(self: Writer) -> AnswerLost:
        return AnswerLost(await connect(self), log, when)

    monkeypatch.setattr(Writer, "_connect", answer_lost)


# The server ends the connection inside the first COMMIT that inserted into ``marks`` (a
# deferred trigger): a COMMIT cut off before it went through.
DIE_IN_FIRST_COMMIT = (
    "CREATE SEQUENCE once",
    "CREATE FUNCTION die_once() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
    " IF nextval('once') = 1 THEN PERFORM pg_terminate_backend(pg_backend_pid()); END IF;"
    " RETURN NULL; END $$",
    "CREATE CONSTRAINT TRIGGER die AFTER INSERT ON marks DEFERRABLE INITIALLY DEFERRED"
    " FOR EACH ROW EXECUTE FUNCTION die_once()",
)
