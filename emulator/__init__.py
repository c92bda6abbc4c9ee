"""A local emulator of Discord's gateway and REST API that the unmodified discord.py
2.x client connects to, with a driver to act as users and read transcripts.
See docs/EMULATOR.md."""

from .discordpy import gateway_url_for, point_discord_at
from .driver import Emulator
from .interactions import Interaction
from .models import Channel, File, Msg
from .rest import RequestRecord

__all__ = [
    "Channel",
    "Emulator",
    "File",
    "Interaction",
    "Msg",
    "RequestRecord",
    "gateway_url_for",
    "point_discord_at",
]
