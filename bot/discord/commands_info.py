"""The ``/tora`` commands that read rather than play: record, replay, rules, help."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from rules.registry import GAMES

from . import autocomplete, guide
from .callers import caller_of
from .lookups import Lookups
from .options import MatchNumber, MatchPick, TopicText
from .respond import Answer, run

MATCH = "Which of your matches (only needed in a DM when you play in several)"
NUMBER = "A match's number (in its record's file name); default the match here"
GAME = "Which game (default: the game of the match here)"
GAME_CHOICES = [app_commands.Choice(name=game.title, value=game.id) for game in GAMES.values()]


def lookups_of(interaction: discord.Interaction[Any]) -> Lookups:
    return interaction.client.lookups


def register_info(group: app_commands.Group) -> None:
    @group.command(description="A match's record as a file (players get their own, in full)")
    @app_commands.describe(number=NUMBER, match=MATCH)
    @app_commands.autocomplete(match=autocomplete.match)
    async def record(
        interaction: discord.Interaction[Any],
        number: MatchNumber | None = None,
        match: MatchPick | None = None,
    ) -> None:
        caller, lookups = caller_of(interaction), lookups_of(interaction)
        await run(interaction, lambda: lookups.record(caller, number, match), private=True)

    @group.command(description="An animated replay of a match, turn by turn")
    @app_commands.describe(number=NUMBER, match=MATCH)
    @app_commands.autocomplete(match=autocomplete.match)
    async def replay(
        interaction: discord.Interaction[Any],
        number: MatchNumber | None = None,
        match: MatchPick | None = None,
    ) -> None:
        caller, lookups = caller_of(interaction), lookups_of(interaction)
        await run(interaction, lambda: lookups.replay(caller, number, match), private=caller.in_dm)

    @group.command(description="A quick start to a game: its board, a turn, the main commands")
    @app_commands.describe(game=GAME)
    @app_commands.choices(game=GAME_CHOICES)
    async def help(
        interaction: discord.Interaction[Any], game: app_commands.Choice[str] | None = None
    ) -> None:
        caller, actions = caller_of(interaction), interaction.client.actions

        async def work() -> Answer:
            return await guide.quick_start(actions, caller, game.value if game else None)

        await run(interaction, work, private=True)

    @group.command(description="Look up a ruling (R25, TS5, TI15), a piece or power, or a word")
    @app_commands.describe(
        topic="A ruling id, a piece's or power's name (archer, phoenix, monkey), or a word",
        game=GAME,
    )
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.autocomplete(topic=autocomplete.topic)
    async def rules(
        interaction: discord.Interaction[Any],
        topic: TopicText,
        game: app_commands.Choice[str] | None = None,
    ) -> None:
        caller, actions = caller_of(interaction), interaction.client.actions

        async def work() -> Answer:
            return await guide.rules(actions, caller, topic, game.value if game else None)

        await run(interaction, work, private=True)
