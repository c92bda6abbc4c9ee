"""The ``/tora`` commands that read rather than play: record, replay, rules."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from . import autocomplete
from .callers import caller_of
from .lookups import Lookups, quick_start
from .options import MatchNumber, MatchPick, TopicText
from .respond import Answer, run

MATCH = "Which of your matches (only needed in a DM when you play in several)"
NUMBER = "A match's number (in its record's file name); default the match here"


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

    @group.command(description="A quick start: the board, a turn, the main commands")
    async def help(interaction: discord.Interaction[Any]) -> None:
        async def work() -> Answer:
            return quick_start()

        await run(interaction, work, private=True)

    @group.command(description="Look up a ruling (R25), a piece (archer, A) or a word")
    @app_commands.describe(topic="A ruling id, a piece's name or letter, or a word to find")
    @app_commands.autocomplete(topic=autocomplete.topic)
    async def rules(interaction: discord.Interaction[Any], topic: TopicText) -> None:
        lookups = lookups_of(interaction)

        async def work() -> Answer:
            return lookups.rules(topic)

        await run(interaction, work, private=True)
