"""Pointing an unmodified discord.py 2.x at the emulator, by configuration only."""

from __future__ import annotations

from collections.abc import Callable

import discord.gateway
import discord.http
import yarl


def gateway_url_for(api_base: str) -> str:
    """``http://host:port/api/v10`` -> ``ws://host:port/gateway``."""
    url = yarl.URL(api_base)
    return str(url.with_scheme("wss" if url.scheme == "https" else "ws").with_path("/gateway"))


def point_discord_at(api_base: str, gateway_url: str | None = None) -> Callable[[], None]:
    """Sets the two class attributes discord.py takes its addresses from and returns a
    function that puts them back. They are process-wide: one emulator at a time.

    - ``discord.http.Route.BASE``: every REST call, interaction callbacks and
      follow-ups included (``discord.webhook.async_.Route`` is the same class);
    - ``DiscordWebSocket.DEFAULT_GATEWAY``: where ``Client.connect`` opens the
      gateway. A plain ``Client`` never asks ``GET /gateway/bot`` (only
      ``AutoShardedClient`` does), and falls back to this URL after an invalid
      session, so it must point at the emulator too.
    """
    socket = discord.gateway.DiscordWebSocket
    saved = (discord.http.Route.BASE, socket.DEFAULT_GATEWAY)
    discord.http.Route.BASE = api_base
    socket.DEFAULT_GATEWAY = yarl.URL(gateway_url or gateway_url_for(api_base))

    def restore() -> None:
        discord.http.Route.BASE, socket.DEFAULT_GATEWAY = saved

    return restore
