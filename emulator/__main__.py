"""``python -m emulator``: the emulator on its own, for a bot run in another process.

It makes one server with its channels and users, prints one JSON line with the addresses,
the token and the ids, then one line per message the bot posts or edits, until SIGINT or
SIGTERM."""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
from collections.abc import Sequence

from .driver import Emulator
from .models import Msg


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m emulator", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8765, help="0: any free port")
    parser.add_argument("--guild", default="Test server")
    parser.add_argument("--channels", default="general", help="comma-separated names")
    parser.add_argument("--users", default="ann,bob", help="comma-separated names")
    parser.add_argument("--admins", default="", help="which of the users are admins")
    parser.add_argument("--heartbeat", type=float, default=41.25, help="seconds")
    args = parser.parse_args(argv)
    strangers = sorted(set(_names(args.admins)) - set(_names(args.users)))
    if strangers:  # else it would start with no admin, the name dropped without a word
        parser.error(f"--admins names users of --users, not: {', '.join(strangers)}")
    return args


def _names(listed: str) -> list[str]:
    """A comma-separated list of names, the empty ones left out."""
    return [name for name in listed.split(",") if name]


def describe(emu: Emulator, guild: int, channels: dict[str, int], users: dict[str, int]) -> str:
    return json.dumps(
        {
            "api_base": emu.api_base,
            "gateway_url": emu.gateway_url,
            "token": emu.token,
            "application_id": emu.application_id,
            "guild": guild,
            "channels": channels,
            "users": users,
        }
    )


def transcript_line(emu: Emulator, msg: Msg) -> str:
    channel = emu.world.channels[msg.channel_id]
    where = (
        f"DM {emu.world.users[channel.recipient_id].name}"
        if channel.recipient_id
        else f"#{channel.name}"
    )
    private = (
        "" if msg.ephemeral_to is None else f" (only {emu.world.users[msg.ephemeral_to].name})"
    )
    files = "".join(f" [{f.name}]" for f in msg.files)
    return f"[{where}]{private} {msg.text()}{files}"


async def print_transcript(emu: Emulator) -> None:
    """Prints each message when it appears and again whenever it changes."""
    shown: dict[int, str] = {}
    while True:
        for msg in list(emu.world.messages.values()):
            line = transcript_line(emu, msg)
            if not msg.loading and shown.get(msg.id) != line:
                shown[msg.id] = line
                print(line, flush=True)
        await emu.world.changes.next()


async def serve(args: argparse.Namespace) -> None:
    emu = Emulator(heartbeat_interval=args.heartbeat)
    await emu.start(args.host, args.port)
    guild = emu.add_guild(args.guild)
    channels = {name: emu.add_channel(guild, name) for name in _names(args.channels)}
    admins = set(_names(args.admins))
    users = {name: emu.add_user(name, admin=name in admins) for name in _names(args.users)}
    print(describe(emu, guild, channels, users), flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    printer = asyncio.create_task(print_transcript(emu))
    await stop.wait()
    printer.cancel()
    await emu.stop()


if __name__ == "__main__":
    asyncio.run(serve(parse_args()))
