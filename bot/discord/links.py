"""The application layer's and the service's links (``Link``: the web board's pages) as
Discord link buttons: they open the address in the browser and never reach the bot."""

from __future__ import annotations

from typing import Any

import discord

from bot.service import Link

LINK_ROW = 4  # the last row, beside a panel's buttons


def with_links(
    view: discord.ui.View | None, links: tuple[Link, ...], row: int | None = None
) -> discord.ui.View | None:
    """``view`` (a new one if None) with a link button for each of ``links``."""
    if not links:
        return view
    view = view or discord.ui.View(timeout=None)
    for link in links:
        button: discord.ui.Button[Any] = discord.ui.Button(
            style=discord.ButtonStyle.link, label=link.label, url=link.url, row=row
        )
        view.add_item(button)
    return view
