"""The application layer's and the service's links (``Link``: the web board's pages) as
Discord link buttons: they open the address in the browser and never reach the bot. So they
never go stale: when a message's buttons and menus are disabled or removed, its links stay
(a private link of an ended match still answers, with the public page's address)."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import discord

from bot.app.buttons import Press
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


def is_link(item: discord.ui.Item[Any]) -> bool:
    return isinstance(item, discord.ui.Button) and item.style is discord.ButtonStyle.link


def greyed(message: discord.Message, verbs: Collection[str] | None = None) -> discord.ui.View:
    """``message``'s components as shown, its buttons and menus disabled (with ``verbs``:
    only the buttons of those verbs, the rest as they are), its links kept. The view is
    stopped: discord.py keeps every live view a message is edited with whose items carry
    custom ids (as these disabled ones do) for as long as the bot runs, to dispatch their
    clicks, and disabled items are never clicked."""
    view = discord.ui.View.from_message(message, timeout=None)
    for item in view.children:
        if isinstance(item, discord.ui.Button | discord.ui.Select) and not is_link(item):
            item.disabled = item.disabled or verbs is None or _verb_of(item) in verbs
    view.stop()
    return view


def _verb_of(item: discord.ui.Button[Any] | discord.ui.Select[Any]) -> str | None:
    """The verb of a button's press (None: not one of ours)."""
    press = Press.parse(item.custom_id or "")
    return None if press is None else press.verb


def links_of(view: discord.ui.View | None) -> tuple[discord.ui.Item[Any], ...]:
    """``view``'s link buttons."""
    return () if view is None else tuple(i for i in view.children if is_link(i))


def keeping(
    view: discord.ui.View | None, links: tuple[discord.ui.Item[Any], ...]
) -> discord.ui.View | None:
    """``view`` (None: no buttons left) with ``links`` added back."""
    if not links:
        return view
    view = view or discord.ui.View(timeout=None)
    for link in links:
        view.add_item(link)
    return view
