"""``/tora tournament ...``: tournaments over the application layer's tournament commands
(the tournament desk). Organising (create, start, cancel) is for server admins; anyone
registers, withdraws and looks."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from .autocomplete import Completing
from .callers import caller_of
from .choices import ladder_choices, offer
from .commands_ladder import Board
from .handlers import Handlers
from .options import DurationText, NameText

NAME = "The tournament's name"


class TournamentCommands(Completing, app_commands.Group):
    def __init__(self, handlers: Handlers, parent: app_commands.Group) -> None:
        self.handlers = handlers
        super().__init__(
            name="tournament", description="Tournaments: tiers of four-game matches", parent=parent
        )
        offer(self.create, "board", ladder_choices(ai=False))

    @app_commands.command(description="Server admins: open a tournament for registration here")
    @app_commands.describe(
        name="A name, unique in this server",
        board="The board its games are played on",
        target="Game Points that win a match (short 49-64, long 181-240)",
        deadline="Time for each turn of its games, e.g. 24h (default: the server's)",
    )
    async def create(
        self,
        interaction: discord.Interaction[Any],
        name: NameText,
        board: Board,
        target: app_commands.Range[int, 1, 999],
        deadline: DurationText | None = None,
    ) -> None:
        caller, cups = caller_of(interaction), self.app.tournaments
        await self.answer(
            interaction, lambda: cups.create(caller, name, board, target, deadline), private=False
        )

    @app_commands.command(description="Join a tournament before it starts")
    @app_commands.describe(name=NAME, substitute="Join as a substitute (plays only if needed)")
    @app_commands.autocomplete(name=Completing.complete_tournament)
    async def register(
        self, interaction: discord.Interaction[Any], name: NameText, substitute: bool = False
    ) -> None:
        caller, cups = caller_of(interaction), self.app.tournaments
        await self.answer(
            interaction, lambda: cups.register(caller, name, substitute), private=True
        )

    @app_commands.command(description="Leave a tournament before it starts")
    @app_commands.describe(name=NAME)
    @app_commands.autocomplete(name=Completing.complete_tournament)
    async def withdraw(self, interaction: discord.Interaction[Any], name: NameText) -> None:
        caller, cups = caller_of(interaction), self.app.tournaments
        await self.answer(interaction, lambda: cups.withdraw(caller, name), private=True)

    @app_commands.command(description="Server admins: close registration and start the first tier")
    @app_commands.describe(name=NAME)
    @app_commands.autocomplete(name=Completing.complete_tournament)
    async def start(self, interaction: discord.Interaction[Any], name: NameText) -> None:
        caller, cups = caller_of(interaction), self.app.tournaments
        await self.answer(interaction, lambda: cups.start(caller, name), private=False)

    @app_commands.command(description="Server admins: call a tournament off (no champion)")
    @app_commands.describe(name=NAME)
    @app_commands.autocomplete(name=Completing.complete_tournament)
    async def cancel(self, interaction: discord.Interaction[Any], name: NameText) -> None:
        caller, cups = caller_of(interaction), self.app.tournaments
        await self.answer(interaction, lambda: cups.cancel(caller, name), private=False)

    @app_commands.command(description="A tournament's standings and bracket")
    @app_commands.describe(name=NAME)
    @app_commands.autocomplete(name=Completing.complete_tournament)
    async def standings(self, interaction: discord.Interaction[Any], name: NameText) -> None:
        caller, cups = caller_of(interaction), self.app.tournaments
        await self.answer(interaction, lambda: cups.standings(caller, name), private=False)

    @app_commands.command(name="list", description="This server's tournaments")
    async def listing(self, interaction: discord.Interaction[Any]) -> None:
        caller, cups = caller_of(interaction), self.app.tournaments
        await self.answer(interaction, lambda: cups.listing(caller), private=False)

    @app_commands.command(description="Your tournament ranks in this server")
    async def rank(self, interaction: discord.Interaction[Any]) -> None:
        caller, cups = caller_of(interaction), self.app.tournaments
        await self.answer(interaction, lambda: cups.rank(caller), private=True)
