"""The bot's configuration, from environment variables (see the README's "Running the bot")."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

from storage import Config as StoreConfig

DISCORD_API = "https://discord.com/api/v10"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")

NO_TOKEN = """\
No Discord bot token: set DISCORD_TOKEN (or TORA_TOKEN) and run again.

To get one:
  1. Open https://discord.com/developers/applications and choose "New Application".
  2. Under "Bot", choose "Reset Token" and copy the token (keep it secret).
  3. Under "OAuth2 > URL Generator", tick "bot" and "applications.commands", then the
     permissions "Send Messages", "Send Messages in Threads", "Create Public Threads",
     "Attach Files"; open the URL to invite the bot to your server.
  4. DISCORD_TOKEN=... make run   (once: DISCORD_TOKEN=... .venv/bin/python -m bot sync)

To try the bot without a token, run `make demo`: it plays a match against a local Discord
emulator and writes the transcript to ./demo-out/."""


MOST_AI_PROCESSES = 16


class ConfigError(Exception):
    """The environment does not describe a usable configuration; the message says why."""


@dataclass(frozen=True)
class Config:
    token: str
    store: StoreConfig
    log_level: str = "INFO"
    sync_guild: int | None = None
    api_base: str = DISCORD_API
    gateway: str | None = None  # None: Discord's own (or, with another API, ws://host/gateway)
    ai_processes: int = 1  # worker processes searching the AI players' turns and hints

    @classmethod
    def from_env(cls, environ: Mapping[str, str] = os.environ) -> Config:
        """``DISCORD_TOKEN`` (or ``TORA_TOKEN``), ``TORA_DB`` (and storage's other
        ``TORA_DB_*``), ``TORA_LOG_LEVEL``, ``TORA_SYNC_GUILD``, ``TORA_DISCORD_API`` and
        ``TORA_DISCORD_GATEWAY``, ``TORA_AI_PROCESSES`` (0 to 16, default 1: the AI players'
        searches; 0 runs them in threads, which holds up every other channel meanwhile)."""
        token = (environ.get("DISCORD_TOKEN") or environ.get("TORA_TOKEN") or "").strip()
        if not token:
            raise ConfigError(NO_TOKEN)
        level = (environ.get("TORA_LOG_LEVEL") or "INFO").strip().upper()
        if level not in LOG_LEVELS:
            raise ConfigError(f"TORA_LOG_LEVEL is one of {', '.join(LOG_LEVELS)}, not {level!r}.")
        guild = (environ.get("TORA_SYNC_GUILD") or "").strip()
        if guild and not guild.isdigit():
            raise ConfigError(f"TORA_SYNC_GUILD is a server id (digits), not {guild!r}.")
        api = (environ.get("TORA_DISCORD_API") or DISCORD_API).strip().rstrip("/")
        if not api.startswith(("http://", "https://")):
            raise ConfigError(f"TORA_DISCORD_API is an http(s) URL, not {api!r}.")
        gateway = (environ.get("TORA_DISCORD_GATEWAY") or "").strip() or None
        if gateway is None and api != DISCORD_API:
            gateway = gateway_next_to(api)
        workers = (environ.get("TORA_AI_PROCESSES") or "1").strip()
        if not workers.isdigit() or int(workers) > MOST_AI_PROCESSES:
            raise ConfigError(
                f"TORA_AI_PROCESSES is a number of processes, 0 to {MOST_AI_PROCESSES}, "
                f"not {workers!r}."
            )
        try:
            store = StoreConfig.from_env(environ)
        except Exception as exc:  # storage's ConfigError names the variable
            raise ConfigError(str(exc)) from None
        sync = int(guild) if guild else None
        return cls(token, store, level, sync, api, gateway, int(workers))


def gateway_next_to(api_base: str) -> str:
    """``http://host:port/api/v10`` -> ``ws://host:port/gateway`` (a local emulator's)."""
    url = urlsplit(api_base)
    scheme = "wss" if url.scheme == "https" else "ws"
    return f"{scheme}://{url.netloc}/gateway"
