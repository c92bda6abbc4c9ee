"""``python -m bot``: run the Discord bot; ``python -m bot sync [--guild ID]``: register its
slash commands with Discord (only on demand: never at start). Configuration comes from
the environment (see the README); without a token it says how to get one and exits."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sys

from bot import collector
from bot.build import build
from bot.config import MOST_SNOWFLAKE, Config, ConfigError
from bot.discord.client import (
    DiscordUnreachable,
    ServerRefused,
    TokenRefused,
    point_at,
    sync_commands,
)
from bot.logs import setup_logging
from bot.web.server import CannotListen
from rules.digits import whole_number
from storage import CannotOpen, SchemaTooNew

log = logging.getLogger("bot")


async def serve(config: Config) -> int:
    """Run until SIGTERM or SIGINT, then stop the service, the connection and the store."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    try:
        bot = await build(config)
    except CannotOpen as exc:  # refused as the settings are: the admin fixes TORA_DB
        log.error(f"{exc} (check TORA_DB)")
        return 2
    except SchemaTooNew as exc:  # a deploy rolled back: a newer bot migrated the database
        log.error(f"{config.store.where()}: {exc}")
        return 2
    except Exception:
        log.exception("the bot stopped on an error")
        return 1
    collector.tune()  # what start-up made is kept for good: never walked again
    collecting = asyncio.create_task(collector.collect_when_idle(bot.service.busy), name="gc")
    runner = asyncio.create_task(bot.run(), name="discord")
    stopper = asyncio.create_task(stop.wait(), name="signals")
    await asyncio.wait((runner, stopper), return_when=asyncio.FIRST_COMPLETED)
    if stop.is_set():
        log.info("stopping on a signal")
    stopper.cancel()
    collecting.cancel()
    await bot.close()
    if not runner.done():
        runner.cancel()
    try:
        await runner
    except asyncio.CancelledError:
        pass
    except TokenRefused:
        log.error("Discord refused the token: check DISCORD_TOKEN")
        return 1
    except CannotListen as exc:  # its message says which setting to change
        log.error(str(exc))
        return 1
    except DiscordUnreachable as exc:
        return unreachable(config, exc)
    except Exception:
        log.exception("the bot stopped on an error")
        return 1
    return 0


def unreachable(config: Config, exc: DiscordUnreachable) -> int:
    """One line naming where the bot looked for Discord (TORA_DISCORD_API), and why not."""
    log.error(f"cannot reach Discord at {config.api_base}: {exc}")
    return 1


def server_id(text: str) -> int:
    """``--guild``: ASCII digits, as TORA_SYNC_GUILD (``int`` alone reads "٣" as 3)."""
    found = whole_number(text, MOST_SNOWFLAKE)
    if found is None:
        raise argparse.ArgumentTypeError(f"a server id is digits, not {text!r}")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__)
    commands = parser.add_subparsers(dest="command")
    running = commands.add_parser("run", help="run the bot (the default)")
    for taking, default in ((parser, None), (running, argparse.SUPPRESS)):
        # run's copies leave the namespace alone unless given: shards written before `run`
        # are kept, not overwritten by its defaults
        taking.add_argument(
            "--shards",
            default=default,
            help="the shard ids this process holds, e.g. 0,2 (default: all)",
        )
        taking.add_argument(  # checked as TORA_SHARD_COUNT is: ASCII digits
            "--shard-count", default=default, help="how many shards there are in all"
        )
    syncing = commands.add_parser("sync", help="register the slash commands with Discord")
    syncing.add_argument("--guild", type=server_id, help="a server id (default TORA_SYNC_GUILD)")
    args = parser.parse_args(argv)
    environ = dict(os.environ)  # the command line's shards over the environment's
    if getattr(args, "shards", None) is not None:
        environ["TORA_SHARDS"] = args.shards
    if getattr(args, "shard_count", None) is not None:
        environ["TORA_SHARD_COUNT"] = args.shard_count
    try:
        config = Config.from_env(environ)
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 2
    setup_logging(config.log_level)
    point_at(config.api_base, config.gateway)
    if args.command == "sync":
        guild, entry_point = args.guild or config.sync_guild, config.activity.enabled
        try:
            synced, where = asyncio.run(sync_commands(config.token, guild, entry_point))
        except TokenRefused:
            log.error("Discord refused the token: check DISCORD_TOKEN")
            return 1
        except ServerRefused as exc:  # its message names the server and what to do
            log.error(str(exc))
            return 1
        except DiscordUnreachable as exc:
            return unreachable(config, exc)
        log.info(f"synced {synced} command(s) {where}")
        return 0
    return asyncio.run(serve(config))


if __name__ == "__main__":
    sys.exit(main())
