"""Where the database lives and how hard it tries to keep every write (environment first)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from .errors import ConfigError

DEFAULT_PATH = Path("data") / "tora.sqlite3"
JOURNAL_MODES = ("WAL", "DELETE", "TRUNCATE", "PERSIST")
SYNCHRONOUS = ("OFF", "NORMAL", "FULL", "EXTRA")


@dataclass(frozen=True)
class Config:
    """Storage settings.

    ``snapshot_every``: a snapshot of the game is written once this many log entries have
    accumulated since the last one (and, on the long board, at every turn end, since
    replaying one long-board turn end costs the rules core a tenth of a second or more).
    Loading then replays at most that many entries; see docs/STORAGE.md for the figures.
    """

    path: Path = DEFAULT_PATH
    journal_mode: str = "WAL"
    synchronous: str = "FULL"
    busy_timeout_ms: int = 5000
    snapshot_every: int = 32

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

    @classmethod
    def from_env(cls, environ: Mapping[str, str] = os.environ, **overrides: object) -> Config:
        """``TORA_DB`` (path), ``TORA_DB_JOURNAL_MODE`` and ``TORA_DB_SYNCHRONOUS``."""
        settings: dict[str, object] = {"path": Path(environ.get("TORA_DB") or DEFAULT_PATH)}
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
