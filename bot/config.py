"""The bot process's configuration, from environment variables (see the README's "Running the
bot"): where its database is, how it reaches Discord and which shards it holds, its AI
workers, its web board. It belongs to the process, not to one front end: ``bot.build`` makes
the bot from it."""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import NamedTuple
from urllib.parse import urlsplit

from rules.digits import whole_number
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
     "Manage Threads" (to delete a thread it opened for a challenge that then failed),
     "Attach Files", "Read Message History" (to turn off its posts' buttons once they stop
     applying); open the URL to invite the bot to your server.
  4. DISCORD_TOKEN=... make run   (once: DISCORD_TOKEN=... .venv/bin/python -m bot sync)

To try the bot without a token, run `make demo`: it plays a match against a local Discord
emulator and writes the transcript to ./demo-out/."""


MOST_AI_PROCESSES = 16
MOST_PROXIES = 64  # entries of TORA_WEB_TRUSTED_PROXIES
WEB_HOST, WEB_PORT = "127.0.0.1", 8080


@dataclass(frozen=True)
class WebConfig:
    """The web board (docs/WEB.md): served on ``host``:``port`` (port 0: any free one, for
    tests) unless not ``enabled``; ``url`` the public address its links give (None: the
    address it is served on); ``secret`` the links' HMAC key ("": one kept in the database);
    ``trusted_proxies`` the reverse proxies (addresses, networks) whose ``X-Forwarded-For``
    names the client."""

    enabled: bool = True
    host: str = WEB_HOST
    port: int = WEB_PORT
    url: str | None = None
    secret: str = ""
    trusted_proxies: tuple[str, ...] = ()

    @classmethod
    def from_env(cls, environ: Mapping[str, str]) -> WebConfig:
        """``TORA_WEB`` (``off`` disables it), ``TORA_WEB_HOST``, ``TORA_WEB_PORT``,
        ``TORA_WEB_URL``, ``TORA_WEB_SECRET``, ``TORA_WEB_TRUSTED_PROXIES``."""
        switch = (environ.get("TORA_WEB") or "on").strip().lower()
        if switch not in ("on", "off"):
            raise ConfigError(f"TORA_WEB is on or off, not {switch!r}.")
        host = (environ.get("TORA_WEB_HOST") or WEB_HOST).strip()
        if not host or len(host) > 255 or any(c.isspace() or c in "/@" for c in host):
            raise ConfigError(f"TORA_WEB_HOST is a host name or address, not {host!r}.")
        port = (environ.get("TORA_WEB_PORT") or str(WEB_PORT)).strip()
        number = whole_number(port, 5)
        if number is None or number > 65535:
            raise ConfigError(f"TORA_WEB_PORT is a port number, 0 to 65535, not {port!r}.")
        url = (environ.get("TORA_WEB_URL") or "").strip().rstrip("/") or None
        if url is not None and not url.startswith(("http://", "https://")):
            raise ConfigError(f"TORA_WEB_URL is an http(s) URL, not {url!r}.")
        secret = (environ.get("TORA_WEB_SECRET") or "").strip()
        if secret and len(secret) < 16:
            raise ConfigError("TORA_WEB_SECRET is at least 16 characters (or unset).")
        proxies = trusted_proxies(environ.get("TORA_WEB_TRUSTED_PROXIES") or "")
        return cls(switch == "on", host, int(port), url, secret, proxies)


def trusted_proxies(text: str) -> tuple[str, ...]:
    """``TORA_WEB_TRUSTED_PROXIES``: comma-separated addresses or networks, each written
    as a network (``10.0.0.1`` -> ``10.0.0.1/32``)."""
    entries = [entry.strip() for entry in text.split(",") if entry.strip()]
    if len(entries) > MOST_PROXIES:
        raise ConfigError(f"TORA_WEB_TRUSTED_PROXIES names at most {MOST_PROXIES} proxies.")
    networks = []
    for entry in entries:
        try:
            networks.append(str(ipaddress.ip_network(entry, strict=False)))
        except ValueError:
            raise ConfigError(
                "TORA_WEB_TRUSTED_PROXIES is addresses or networks separated by commas "
                f"(10.0.0.1, 172.16.0.0/12, ::1), not {entry[:60]!r}."
            ) from None
    return tuple(networks)


MOST_SNOWFLAKE = 20  # digits of a Discord id


@dataclass(frozen=True)
class ActivityConfig:
    """The web board as a Discord Activity (docs/WEB.md, "In Discord"): with ``enabled``
    the Play button and ``/tora play`` launch it, and ``sync`` registers its Entry Point
    command; ``client_id`` and ``client_secret`` are the application's OAuth2 credentials,
    with which the web board exchanges the code the Activity is given for the user's
    identity."""

    enabled: bool = False
    client_id: int = 0
    client_secret: str = ""

    @classmethod
    def from_env(cls, environ: Mapping[str, str], web: WebConfig) -> ActivityConfig:
        """``TORA_ACTIVITY`` (``on``: needs the web board, ``TORA_CLIENT_ID`` and
        ``TORA_CLIENT_SECRET``; default ``off``)."""
        switch = (environ.get("TORA_ACTIVITY") or "off").strip().lower()
        if switch not in ("on", "off"):
            raise ConfigError(f"TORA_ACTIVITY is on or off, not {switch!r}.")
        client = (environ.get("TORA_CLIENT_ID") or "").strip()
        if client and whole_number(client, MOST_SNOWFLAKE) is None:
            raise ConfigError(f"TORA_CLIENT_ID is the application's id (digits), not {client!r}.")
        secret = (environ.get("TORA_CLIENT_SECRET") or "").strip()
        if secret and not (8 <= len(secret) <= 200 and secret.isprintable()):
            raise ConfigError(
                "TORA_CLIENT_SECRET is the application's OAuth2 secret, 8 to 200 "
                "characters (Developer Portal, OAuth2, Client Secret)."
            )
        if switch == "off":
            return cls(False, int(client or 0), secret)
        if not web.enabled:
            raise ConfigError(
                "TORA_ACTIVITY=on serves the web board in Discord: it needs TORA_WEB on."
            )
        if not client or not secret:
            raise ConfigError(
                "TORA_ACTIVITY=on needs TORA_CLIENT_ID and TORA_CLIENT_SECRET "
                "(Developer Portal, OAuth2: Client ID and Client Secret)."
            )
        return cls(True, int(client), secret)


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
    ai_processes: int | None = None  # AI search workers (None: one per core but one, >= 2)
    shards: tuple[int, ...] | None = None  # this process's shard ids (None: all of them)
    shard_count: int = 1
    claim_seconds: float = 60.0  # how long a process holds a clock or outbox rows it claimed
    web: WebConfig = WebConfig()
    activity: ActivityConfig = ActivityConfig()
    fairy_stockfish: str | None = None  # a Fairy-Stockfish binary for ToriShogi's master

    @property
    def shared(self) -> bool:
        """Whether other processes may share the database: on PostgreSQL, or holding only
        some of the shards. The service then polls for the work others left."""
        return self.store.postgres or self.shards is not None

    @classmethod
    def from_env(cls, environ: Mapping[str, str] = os.environ) -> Config:
        """``DISCORD_TOKEN`` (or ``TORA_TOKEN``), ``TORA_DB`` (and storage's other
        ``TORA_DB_*``), ``TORA_LOG_LEVEL``, ``TORA_SYNC_GUILD``, ``TORA_DISCORD_API`` and
        ``TORA_DISCORD_GATEWAY``, ``TORA_AI_PROCESSES`` (0 to 16; by default one per core but one,
        at least two: the AI players' searches; 0 runs them in threads, one at a time, which
        holds up every other channel meanwhile),
        ``TORA_SHARDS`` and ``TORA_SHARD_COUNT`` (as ``--shards`` and ``--shard-count``),
        ``TORA_ACTIVITY``, ``TORA_CLIENT_ID``, ``TORA_CLIENT_SECRET`` (ActivityConfig),
        ``TORA_CLAIM_SECONDS`` (1 to 3600, default 60: how soon the others take over the
        clocks and posts of a process that died), ``TORA_FAIRY_STOCKFISH`` (the path of a
        Fairy-Stockfish binary that knows ``torishogi``: it plays ToriShogi's ``master``), and
        the web board's (``WebConfig``)."""
        token = (environ.get("DISCORD_TOKEN") or environ.get("TORA_TOKEN") or "").strip()
        if not token:
            raise ConfigError(NO_TOKEN)
        level = (environ.get("TORA_LOG_LEVEL") or "INFO").strip().upper()
        if level not in LOG_LEVELS:
            raise ConfigError(f"TORA_LOG_LEVEL is one of {', '.join(LOG_LEVELS)}, not {level!r}.")
        guild = (environ.get("TORA_SYNC_GUILD") or "").strip()
        sync = whole_number(guild, MOST_SNOWFLAKE)
        if guild and sync is None:
            raise ConfigError(f"TORA_SYNC_GUILD is a server id (digits), not {guild!r}.")
        api = (environ.get("TORA_DISCORD_API") or DISCORD_API).strip().rstrip("/")
        if not api.startswith(("http://", "https://")):
            raise ConfigError(f"TORA_DISCORD_API is an http(s) URL, not {api!r}.")
        gateway = (environ.get("TORA_DISCORD_GATEWAY") or "").strip() or None
        if gateway is None and api != DISCORD_API:
            gateway = gateway_next_to(api)
        workers = (environ.get("TORA_AI_PROCESSES") or "").strip()
        processes = whole_number(workers, 5)
        if workers and (processes is None or processes > MOST_AI_PROCESSES):
            raise ConfigError(
                f"TORA_AI_PROCESSES is a number of processes, 0 to {MOST_AI_PROCESSES}, "
                f"not {workers!r}."
            )
        try:
            store = StoreConfig.from_env(environ)
        except Exception as exc:  # storage's ConfigError names the variable
            raise ConfigError(str(exc)) from None
        count = (environ.get("TORA_SHARD_COUNT") or "").strip()
        shard_count = whole_number(count, 5)
        if count and shard_count is None:
            raise ConfigError(f"{SHARD_COUNT} is a number of shards, not {count!r}.")
        sharding = parse_shards(environ.get("TORA_SHARDS"), shard_count)
        claim = (environ.get("TORA_CLAIM_SECONDS") or "60").strip()
        seconds = whole_number(claim, 9)
        if seconds is None or not MOST_CLAIM >= seconds >= 1:
            raise ConfigError(f"TORA_CLAIM_SECONDS is 1 to {MOST_CLAIM} seconds, not {claim!r}.")
        web = WebConfig.from_env(environ)
        return cls(
            token,
            store,
            level,
            sync,
            api,
            gateway,
            processes,
            sharding.shards,
            sharding.shard_count,
            claim_seconds=seconds,
            web=web,
            activity=ActivityConfig.from_env(environ, web),
            fairy_stockfish=fairy_stockfish(environ.get("TORA_FAIRY_STOCKFISH") or ""),
        )


def fairy_stockfish(text: str) -> str | None:
    """``TORA_FAIRY_STOCKFISH``: the path of an executable file (unset or empty: none).
    Whether it knows ``torishogi`` is found when it first plays (``bot.service.fairy``)."""
    path = text.strip()
    if not path:
        return None
    if len(path) > MOST_PATH or not (os.path.isfile(path) and os.access(path, os.X_OK)):
        raise ConfigError(
            f"TORA_FAIRY_STOCKFISH is the path of the Fairy-Stockfish program, an executable "
            f"file, not {path[:80]!r}."
        )
    return path


MOST_PATH = 4096
MOST_SHARDS = 4096
MOST_CLAIM = 3600
# Each set in the environment or on the command line: refusals name both spellings
SHARDS, SHARD_COUNT = "TORA_SHARDS / --shards", "TORA_SHARD_COUNT / --shard-count"


class Sharding(NamedTuple):
    shards: tuple[int, ...] | None  # this process's shard ids (None: all of them)
    shard_count: int


def parse_shards(shards: str | None, count: int | None) -> Sharding:
    """``--shards 0,2 --shard-count 4`` (or ``TORA_SHARDS``, ``TORA_SHARD_COUNT``), checked:
    the ids are distinct and each below the count. A count alone: this process holds every
    one of that many shards."""
    if count is not None and not 1 <= count <= MOST_SHARDS:
        raise ConfigError(f"{SHARD_COUNT} is 1 to {MOST_SHARDS}, not {count}")
    if shards is None or not shards.strip():
        return Sharding(None, 1 if count is None else count)
    if count is None:
        raise ConfigError(f"{SHARDS} needs {SHARD_COUNT}: how many shards there are in all")
    parts = [part.strip() for part in shards.split(",", MOST_SHARDS)]
    read = [whole_number(part, 4) for part in parts]
    ids = tuple(number for number in read if number is not None)
    if len(ids) != len(parts):
        raise ConfigError(f"{SHARDS} is shard ids separated by commas (0,2), not {shards!r}")
    if len(set(ids)) != len(ids) or max(ids) >= count:
        raise ConfigError(
            f"{SHARDS} must be distinct ids from 0 to {count - 1} ({SHARD_COUNT} is {count})"
        )
    return Sharding(ids, count)


def gateway_next_to(api_base: str) -> str:
    """``http://host:port/api/v10`` -> ``ws://host:port/gateway`` (a local emulator's)."""
    url = urlsplit(api_base)
    scheme = "wss" if url.scheme == "https" else "ws"
    return f"{scheme}://{url.netloc}/gateway"
