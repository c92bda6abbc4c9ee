"""Persistent buttons on Discord: each ``Press`` of the application layer (a verb, the
channel, the match and turn) is a ``DynamicItem`` whose custom id holds all of it, so
discord.py rebuilds it from any click, after a restart too. A click runs the press, or for
Play opens the Play panel (or the board as a Discord Activity: ``panel.play``); buttons of
earlier versions are answered, never acted on."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.app.answers import Answer
from bot.app.buttons import LEGACY_TEMPLATE, OLD_BUTTON, TEMPLATE, Press
from bot.i18n import _, slash
from bot.tournament.event_buttons import EVENT_BUTTONS

from .callers import caller_of
from .handlers import handlers_of
from .panel import open_panel, play
from .styles import STYLES


class ToraButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    def __init__(self, press: Press) -> None:
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=press.label, style=STYLES[press.style], custom_id=press.custom_id
        )
        super().__init__(button)
        self.press = press

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ToraButton:
        return cls(Press.from_match(match))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        handlers = handlers_of(interaction)
        caller = caller_of(interaction)
        press = self.press
        if press.verb == "play" and press.stamp is not None:
            playing, stamp = handlers.app.playing, press.stamp
            await play(
                handlers,
                interaction,
                stamp.match,
                lambda: playing.open_at(caller, press.channel_id, stamp),
            )
            return
        if press.verb == "plan" and press.stamp is not None:
            planning, stamp = handlers.app.planning, press.stamp
            await open_panel(
                handlers, interaction, lambda: planning.open_at(caller, press.channel_id, stamp)
            )
            return
        if press.verb in EVENT_BUTTONS:  # a tournament's Join or Leave
            cups = handlers.app.tournaments
            await handlers.respond.run(interaction, lambda: cups.press(caller, press), private=True)
            return
        actions = handlers.app.actions
        await handlers.respond.run(interaction, lambda: actions.press(caller, press), private=True)
        if press.verb == "rematch" and press.stamp is not None:  # its end post's Rematch goes
            handlers.respond.sweep(press.stamp.match)


class LegacyButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=LEGACY_TEMPLATE):
    """A button from before an upgrade: answered (never left to fail), never acted on."""

    def __init__(self, custom_id: str) -> None:
        # rebuilt from a click only, never shown: its label is the one it was posted with
        super().__init__(discord.ui.Button(label="Old button", custom_id=custom_id))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LegacyButton:
        return cls(match.string)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        async def work() -> Answer:
            return Answer(_(OLD_BUTTON, command=slash("tora board")))

        await handlers_of(interaction).respond.run(interaction, work, private=True)


def buttons(presses: tuple[Press, ...]) -> discord.ui.View:
    """A view of ``presses``' buttons."""
    view = discord.ui.View(timeout=None)
    for press in presses:
        view.add_item(ToraButton(press))
    return view
