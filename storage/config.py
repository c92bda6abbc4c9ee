"""Where the database lives and how hard it tries to keep every write (environment first)."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from .errors import ConfigError

DEFAULT_PATH = Path("data") / "tora.sqlite3"
JOURNAL_MODES = ("WAL", "DELETE", "TRUNCATE", "PERSIST")
SYNCHRONOUS = ("OFF", "NORMAL", "FULL", "EXTRA")
POSTGRES_SCHEMES = ("postgresql://", "postgres://")
A_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")  # any scheme: no file's path starts so
PASSWORD_PARAMETER = re.compile(r"([?&](?:ssl)?password=)[^&#]*", re.IGNORECASE)
SCHEMA_NAME = re.compile(r"[a-z_][a-z0-9_]{0,62}")


@dataclass(frozen=True)
class Config:
    """Storage settings.

    ``snapshot_every``: a snapshot of the game is written once this many log entries have
    accumulated since the last one (and, on the long board, at every turn end, since
    replaying one long-board turn end costs the rules core a tenth of a second or more).
    Loading then replays at most that many entries; see docs/STORAGE.md for the figures.

    ``url`` (``postgresql://...``) selects PostgreSQL instead of the SQLite file at ``path``:
    ``schema`` is the schema its tables live in (the connection's default when None),
    ``writers`` and ``readers`` how many connections write and read at once.
    """

    path: Path = DEFAULT_PATH
    journal_mode: str = "WAL"
    synchronous: str = "FULL"
    busy_timeout_ms: int = 5000
    snapshot_every: int = 32
    url: str | None = None
    schema: str | None = None
    writers: int = 4
    readers: int = 8

    def __post_init__(self) -> None:
        if self.journal_mode not in JOURNAL_MODES:
            raise ConfigError(
                f"journal mode must be one of {', '.join(JOURNAL_MODES)}, not {self.journal_mode!r}"
            )
        if self.synchronous not in SYNCHRONOUS:
            raise ConfigError(
                f"synchronous must be one of {', '.join(SYNCHRONOUS)}, not {self.synchronous!r}"
            )
        if self.busy_timeout_ms < 0 or self.snapshot_every < 1:
            raise ConfigError("busy timeout must be >= 0 and snapshot_every >= 1")
        if self.url is not None and not self.url.startswith(POSTGRES_SCHEMES):
            raise ConfigError(f"a database URL must start with postgresql://, not {self.url!r}")
        if self.url is not None and not _ports_read(self.url):
            raise ConfigError(
                f"the database URL {self.where()} cannot be read (a host's port is not a number):"
                " a '/', '?' or '#' in its user name or password must be percent-encoded"
                " (as %2F, %3F, %23)"
            )
        if self.schema is not None and not SCHEMA_NAME.fullmatch(self.schema):
            raise ConfigError(
                f"a schema name is 1-63 lower-case letters, digits and _, not {self.schema!r}"
            )
        if not 1 <= self.writers <= 64 or not 1 <= self.readers <= 64:
            raise ConfigError("writers and readers must each be 1-64 connections")

    @property
    def postgres(self) -> bool:
        return self.url is not None

    def where(self) -> str:
        """The database, for messages (a URL without its passwords: the user's, written
        ``user:password@`` or as the ``password`` parameter, and the ``sslpassword`` of the
        client's key), and its schema when one is set: two bots may share one database."""
        if self.url is None:
            return str(self.path)
        # Up to the last '@': a password may hold an unencoded '/' or '@', which the URL
        # refused for it (``_ports_read``) still names, masked.
        url = re.sub(r"://([^:@/]*):.*@", r"://\1:***@", self.url)
        url = PASSWORD_PARAMETER.sub(r"\1***", url)
        return url + (f" (schema {self.schema})" if self.schema else "")

    @classmethod
    def from_env(cls, environ: Mapping[str, str] = os.environ, **overrides: object) -> Config:
        """``TORA_DB`` (a path, or a ``postgresql://`` URL), ``TORA_DB_SCHEMA``,
        ``TORA_DB_JOURNAL_MODE`` and ``TORA_DB_SYNCHRONOUS``."""
        where = environ.get("TORA_DB", "").strip() or str(DEFAULT_PATH)
        settings: dict[str, object] = located(where, "TORA_DB")
        if schema := environ.get("TORA_DB_SCHEMA", "").strip():
            if "url" not in settings:  # never ignored: two bots would share one file's tables
                raise ConfigError(
                    f"TORA_DB_SCHEMA is a PostgreSQL schema, but TORA_DB is a SQLite file "
                    f"({where}): unset TORA_DB_SCHEMA, or set TORA_DB to a postgresql:// URL"
                )
            settings["schema"] = schema
        for key, name in (
            ("journal_mode", "TORA_DB_JOURNAL_MODE"),
            ("synchronous", "TORA_DB_SYNCHRONOUS"),
        ):
            if environ.get(name):
                settings[key] = environ[name].strip().upper()
        settings.update(overrides)
        try:
            return cls(**settings)  # type: ignore[arg-type]
        except ConfigError as exc:
            raise ConfigError(f"{exc} (check TORA_DB_* environment variables)") from None


def _ports_read(url: str) -> bool:
    """Whether every host of ``url`` (``host[:port]``, comma-separated, an IPv6 address in
    brackets) has a port of digits or none, as asyncpg reads them: an unencoded '/', '?' or
    '#' in the password ends the host part early, and what follows the user name is then
    read as a port (asyncpg raises a ValueError quoting that piece of the password)."""
    try:
        hosts = urlsplit(url).netloc.rpartition("@")[2]
    except ValueError:  # an unbalanced '[': an IPv6 host that is not one
        return False
    for host in hosts.split(","):
        port = host.rpartition("]")[2] if host.startswith("[") else host
        _, _, port = port.partition(":")
        if port and not (port.isascii() and port.isdigit()):
            return False
    return True


def located(where: str, setting: str) -> dict[str, object]:
    """``where`` as ``Config``'s settings: a ``postgresql://`` (or ``postgres://``) URL, else
    a SQLite file's path; a URL of any other kind (``sqlite:///...``,
    ``postgresql+asyncpg://...``, a typo) is refused naming ``setting``, never taken for a
    file's path (a new empty database in a directory named ``sqlite:``)."""
    if where.startswith(POSTGRES_SCHEMES):
        return {"url": where}
    if (url := A_URL.match(where)) is not None:
        raise ConfigError(
            f"{setting} is a SQLite file's path or a postgresql:// (or postgres://) URL, "
            f"not a {url.group()} URL"
        )
    return {"path": Path(where)}
