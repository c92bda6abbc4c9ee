"""``python -m storage backup PATH`` | ``python -m storage check`` (see storage/maintenance.py)."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from .config import Config
from .errors import ConfigError
from .maintenance import UNUSABLE, backup, check


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m storage",
        description="Maintain the tora-bot database (by default $TORA_DB or ./data/tora.sqlite3).",
    )
    parser.add_argument("--db", type=Path, help="the database file (overrides TORA_DB)")
    commands = parser.add_subparsers(dest="command", required=True)
    saving = commands.add_parser("backup", help="copy the database with the online backup API")
    saving.add_argument("path", type=Path, help="where to write the copy (must not exist)")
    commands.add_parser("check", help="integrity check, then replay every match")
    args = parser.parse_args(argv)
    try:
        config = Config.from_env(**({"path": args.db} if args.db else {}))
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return UNUSABLE
    if args.command == "backup":
        return backup(config, args.path)
    return asyncio.run(check(config))


if __name__ == "__main__":
    sys.exit(main())
