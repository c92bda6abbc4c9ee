"""``python -m storage backup PATH`` | ``check`` (see ``tools.maintenance``) |
``copy SRC DST`` (see ``tools.transfer``)."""

from __future__ import annotations

import argparse
import asyncio
import sys
from dataclasses import replace
from pathlib import Path

from .config import Config, located
from .errors import ConfigError
from .tools.maintenance import UNUSABLE, backup, check
from .tools.transfer import copy

COPY_HELP = """\
Copy a whole database into a new, empty one: SQLite to PostgreSQL, back, or either to its
own kind. SRC and DST are each a SQLite file's path or a postgresql:// URL; a PostgreSQL
database's schema is given with --source-schema / --dest-schema (the connection's default
schema, usually public, without). The source must hold a tora-bot database (a missing file
or schema is refused, never created); both are migrated to this bot's schema first, the
destination created if it does not exist. The destination must be empty; the copy is one
transaction there (all rows or none), ids included, and ids are never handed out twice
afterwards. Stop the bot while copying: its later writes would not be copied. Then every
table's rows are counted on both sides and the destination is checked as `check` does (every
match replayed from its whole log).
Exit status: 0 copied and checked, 1 the copy failed or differs, 2 a database is unusable."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m storage",
        description="Maintain the tora-bot database (by default $TORA_DB or ./data/tora.sqlite3).",
        parents=[_database_options(None)],
    )
    commands = parser.add_subparsers(dest="command", required=True)
    # `check --db FILE` as well as `--db FILE check` (the README says they take --db);
    # SUPPRESS: unset after the command, the value given before it stands
    named = [_database_options(argparse.SUPPRESS)]
    saving = commands.add_parser(
        "backup", help="copy the database with the online backup API", parents=named
    )
    saving.add_argument("path", type=Path, help="where to write the copy (must not exist)")
    commands.add_parser("check", help="integrity check, then replay every match", parents=named)
    copying = commands.add_parser(
        "copy",
        help="copy a whole database into an empty one (SQLite or PostgreSQL, either way)",
        description=COPY_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    copying.add_argument("source", metavar="SRC", help="a SQLite file or a postgresql:// URL")
    copying.add_argument("dest", metavar="DST", help="a SQLite file or a postgresql:// URL (empty)")
    copying.add_argument("--source-schema", help="the PostgreSQL schema of SRC")
    copying.add_argument("--dest-schema", help="the PostgreSQL schema of DST")
    args = parser.parse_args(argv)
    try:
        if args.command == "copy":
            source = _config(args.source, args.source_schema)
            dest = _config(args.dest, args.dest_schema)
        else:
            config = _config(args.db, args.schema) if args.db else _from_env(args.schema)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return UNUSABLE
    if args.command == "copy":
        return asyncio.run(copy(source, dest, sys.stdout, sys.stderr))
    if args.command == "backup":
        return backup(config, args.path)
    return asyncio.run(check(config))


def _database_options(default: str | None) -> argparse.ArgumentParser:
    """``--db`` and ``--schema``, for the top level and for the commands that take them."""
    options = argparse.ArgumentParser(add_help=False)
    options.add_argument(
        "--db",
        default=default,
        help="the database: a SQLite file or a postgresql:// URL (overrides TORA_DB)",
    )
    options.add_argument(
        "--schema", default=default, help="its PostgreSQL schema (overrides TORA_DB_SCHEMA)"
    )
    return options


def _config(where: str, schema: str | None) -> Config:
    """A database named on the command line: a postgresql:// URL, else a SQLite file (a URL
    of another kind refused)."""
    settings = located(where, "a database")
    if "url" in settings:
        return Config(url=where, schema=schema)
    if schema is not None:
        raise ConfigError(f"{where} is a SQLite file: a schema is for a postgresql:// URL")
    return Config(path=Path(where))


def _from_env(schema: str | None) -> Config:
    """The database of TORA_DB, with ``--schema`` (when given) over TORA_DB_SCHEMA."""
    config = Config.from_env()
    if schema is None:
        return config
    if not config.postgres:
        return _config(str(config.path), schema)  # refused, as for --db
    return replace(config, schema=schema)


if __name__ == "__main__":
    sys.exit(main())
