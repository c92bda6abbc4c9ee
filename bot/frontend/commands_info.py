"""The ``/tora`` commands that read rather than play (record, replay, rules, ladder,
profile) and the admins' (settings, cancel)."""

from __future__ import annotations

from typing import Any, Literal

import discord
from discord import app_commands

from . import autocomplete
from .callers import caller_of
from .lookups import Lookups
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
        interaction: discord.Interaction[Any], number: int | None = None, match: str | None = None
    ) -> None:
        caller, lookups = caller_of(interaction), lookups_of(interaction)
        await run(interaction, lambda: lookups.record(caller, number, match), private=True)

    @group.command(description="An animated replay of a match, turn by turn")
    @app_commands.describe(number=NUMBER, match=MATCH)
    @app_commands.autocomplete(match=autocomplete.match)
    async def replay(
        interaction: discord.Interaction[Any], number: int | None = None, match: str | None = None
    ) -> None:
        caller, lookups = caller_of(interaction), lookups_of(interaction)
        await run(interaction, lambda: lookups.replay(caller, number, match), private=caller.in_dm)

    @group.command(description="Look up a ruling (R25), a piece (archer, A) or a word")
    @app_commands.describe(topic="A ruling id, a piece's name or letter, or a word to find")
    @app_commands.autocomplete(topic=autocomplete.topic)
    async def rules(interaction: discord.Interaction[Any], topic: str) -> None:
        lookups = lookups_of(interaction)

        async def work() -> Answer:
            return lookups.rules(topic)

        await run(interaction, work, private=True)

    @group.command(description="This server's ladder: ratings, best first")
    @app_commands.describe(
        board="The short or the long board's ladder", page="Which page (10 a page)"
    )
    async def ladder(
        interaction: discord.Interaction[Any],
        board: Literal["short", "long"] = "short",
        page: app_commands.Range[int, 1, 10_000] = 1,
    ) -> None:
        caller, lookups = caller_of(interaction), lookups_of(interaction)
        await run(interaction, lambda: lookups.ladder(caller, board, page), private=caller.in_dm)

    @group.command(description="A player's ratings and recent games, or two players' record")
    @app_commands.describe(
        player="Whose profile (default yours)",
        versus="Show the head-to-head record of player against this player",
        board="The board of the head-to-head record",
    )
    async def profile(
        interaction: discord.Interaction[Any],
        player: discord.User | None = None,
        versus: discord.User | None = None,
        board: Literal["short", "long"] = "short",
    ) -> None:
        caller, lookups = caller_of(interaction), lookups_of(interaction)
        whose = (player or interaction.user).id
        other = versus.id if versus else None
        await run(
            interaction,
            lambda: lookups.profile(caller, whose, other, board),
            private=caller.in_dm,
        )

    @group.command(description="Server admins: the server's TORA settings (shown if none given)")
    @app_commands.describe(
        deadline="Default time per turn of new challenges, e.g. 24h, 3d ('default': 24h)",
        threads="Give each new match its own thread",
        ladder_channel="Where ladder pairings open their matches",
    )
    async def settings(
        interaction: discord.Interaction[Any],
        deadline: str | None = None,
        threads: bool | None = None,
        ladder_channel: discord.TextChannel | None = None,
    ) -> None:
        caller, lookups = caller_of(interaction), lookups_of(interaction)
        channel = ladder_channel.id if ladder_channel else None
        await run(
            interaction,
            lambda: lookups.settings(caller, deadline, threads, channel),
            private=True,
        )

    @group.command(description="Server admins: call off this channel's match (unrated)")
    async def cancel(interaction: discord.Interaction[Any]) -> None:
        caller, lookups = caller_of(interaction), lookups_of(interaction)
        await run(interaction, lambda: lookups.actions.cancel(caller), private=True)
