"""What the bot's commands and components act with: the application layer and the answering
of interactions. The command groups are given them when the tree is built; the persistent
components (buttons, the Play panel's and the setup form's menus), which discord.py rebuilds
from a custom id at every click, find them on the client that received the click."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.app import Answer, App

from .callers import caller_of
from .respond import Responder


@dataclass(frozen=True)
class Handlers:
    app: App
    respond: Responder


def handlers_of(interaction: discord.Interaction[Any]) -> Handlers:
    """The handlers of the client ``interaction`` came to (``ToraBot.handlers``)."""
    handlers = getattr(interaction.client, "handlers", None)
    if not isinstance(handlers, Handlers):
        raise TypeError("the client holds no handlers: a component of another bot")
    return handlers


class Serving:
    """What every command group holds (its ``handlers``), and how it answers."""

    handlers: Handlers

    @property
    def app(self) -> App:
        return self.handlers.app

    async def answer(
        self,
        interaction: discord.Interaction[Any],
        work: Callable[[], Awaitable[Answer]],
        *,
        private: bool,
    ) -> None:
        """Do ``work`` and show its answer, deferred if it takes long (``Responder.run``)."""
        await self.handlers.respond.run(interaction, work, private=private)

    async def agree(
        self, interaction: discord.Interaction[Any], match: str | None, kind: str
    ) -> None:
        """Propose ``kind`` (a draw, a pause...) in the caller's match, or accept it."""
        caller, actions = caller_of(interaction), self.app.actions
        await self.answer(interaction, lambda: actions.agree(caller, match, kind), private=True)
