"""The web board (docs/WEB.md): a match page anyone may open and a player's page reached by
a private link, served by ``aiohttp`` on the bot's own event loop, and inside Discord as an
Activity (``activity``: the sign-in, ``discord_api``: what it asks Discord). It stands on the
application layer alone (the boards' states and pictures, the seats' actions, the links)
and the match service's reads and change hook: never on storage, discord.py or a game."""

from .guard import Limits
from .server import WebBoard

__all__ = ["Limits", "WebBoard"]
