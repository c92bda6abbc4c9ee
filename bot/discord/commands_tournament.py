"""``/tora tournament ...``: tournaments over the tournament desk. Organising (create,
start, cancel) is for server admins; anyone registers, withdraws and looks."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from . import autocomplete
from .callers import caller_of
from .commands_ladder import Board
from .options import DurationText, NameText
from .respond import run
from .tournaments import Tournaments

NAME = "The tournament's name"


def tournaments_of(interaction: discord.Interaction[Any]) -> Tournaments:
    return interaction.client.tournaments


def register_tournament(group: app_commands.Group) -> None:
    cup = app_commands.Group(
        name="tournament", description="Tournaments: tiers of four-game matches", parent=group
    )

    @cup.command(description="Server admins: open a tournament for registration here")
    @app_commands.describe(
        name="A name, unique in this server",
        board="The board its games are played on",
        target="Game Points that win a match (short 49-64, long 181-240)",
        deadline="Time for each turn of its games, e.g. 24h (default: the server's)",
    )
    async def create(
        interaction: discord.Interaction[Any],
        name: NameText,
        board: Board,
        target: app_commands.Range[int, 1, 999],
        deadline: DurationText | None = None,
    ) -> None:
        caller, cups = caller_of(interaction), tournaments_of(interaction)
        await run(
            interaction, lambda: cups.create(caller, name, board, target, deadline), private=False
        )

    @cup.command(description="Join a tournament before it starts")
    @app_commands.describe(name=NAME, substitute="Join as a substitute (plays only if needed)")
    @app_commands.autocomplete(name=autocomplete.tournament)
    async def register(
        interaction: discord.Interaction[Any], name: NameText, substitute: bool = False
    ) -> None:
        caller, cups = caller_of(interaction), tournaments_of(interaction)
        await run(interaction, lambda: cups.register(caller, name, substitute), private=True)

    @cup.command(description="Leave a tournament before it starts")
    @app_commands.describe(name=NAME)
    @app_commands.autocomplete(name=autocomplete.tournament)
    async def withdraw(interaction: discord.Interaction[Any], name: NameText) -> None:
        caller, cups = caller_of(interaction), tournaments_of(interaction)
        await run(interaction, lambda: cups.withdraw(caller, name), private=True)

    @cup.command(description="Server admins: close registration and start the first tier")
    @app_commands.describe(name=NAME)
    @app_commands.autocomplete(name=autocomplete.tournament)
    async def start(interaction: discord.Interaction[Any], name: NameText) -> None:
        caller, cups = caller_of(interaction), tournaments_of(interaction)
        await run(interaction, lambda: cups.start(caller, name), private=False)

    @cup.command(description="Server admins: call a tournament off (no champion)")
    @app_commands.describe(name=NAME)
    @app_commands.autocomplete(name=autocomplete.tournament)
    async def cancel(interaction: discord.Interaction[Any], name: NameText) -> None:
        caller, cups = caller_of(interaction), tournaments_of(interaction)
        await run(interaction, lambda: cups.cancel(caller, name), private=False)

    @cup.command(description="A tournament's standings and bracket")
    @app_commands.describe(name=NAME)
    @app_commands.autocomplete(name=autocomplete.tournament)
    async def standings(interaction: discord.Interaction[Any], name: NameText) -> None:
        caller, cups = caller_of(interaction), tournaments_of(interaction)
        await run(interaction, lambda: cups.standings(caller, name), private=False)

    @cup.command(name="list", description="This server's tournaments")
    async def listing(interaction: discord.Interaction[Any]) -> None:
        caller, cups = caller_of(interaction), tournaments_of(interaction)
        await run(interaction, lambda: cups.listing(caller), private=False)

    @cup.command(description="Your tournament ranks in this server")
    async def rank(interaction: discord.Interaction[Any]) -> None:
        caller, cups = caller_of(interaction), tournaments_of(interaction)
        await run(interaction, lambda: cups.rank(caller), private=True)
