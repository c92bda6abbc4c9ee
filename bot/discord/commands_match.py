"""``/tora-match``: what players do to a match besides its turns (pause, resume, give time,
take back, reset, abort) and the analysis of a finished one, over the application layer's
match commands and look-ups."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands

from bot.app import Answer

from .autocomplete import Completing
from .callers import caller_of
from .commands import MATCH, NUMBER, PLACES, own_name
from .handlers import Handlers
from .options import MatchNumber, MatchPick


class MatchCommands(Completing, app_commands.Group):
    def __init__(self, handlers: Handlers) -> None:
        self.handlers = handlers
        super().__init__(
            name=own_name("match"),
            description="Pause, resume, give time, take back, reset, abort or analyse a match",
            **PLACES,
        )

    @app_commands.command(
        name="pause", description="Propose to stop the clock, or agree to your opponent's proposal"
    )
    @app_commands.describe(match=MATCH)
    @app_commands.autocomplete(match=Completing.complete_match)
    async def pause(
        self, interaction: discord.Interaction[Any], match: MatchPick | None = None
    ) -> None:
        await self.agree(interaction, match, "pause")

    @app_commands.command(name="resume", description="Restart a paused clock")
    @app_commands.describe(match=MATCH)
    @app_commands.autocomplete(match=Completing.complete_match)
    async def resume(
        self, interaction: discord.Interaction[Any], match: MatchPick | None = None
    ) -> None:
        await self.agree(interaction, match, "resume")

    @app_commands.command(name="give", description="Give your opponent a day on their clock")
    @app_commands.describe(match=MATCH)
    @app_commands.autocomplete(match=Completing.complete_match)
    async def give(
        self, interaction: discord.Interaction[Any], match: MatchPick | None = None
    ) -> None:
        await self.agree(interaction, match, "give")

    @app_commands.command(
        name="takeback",
        description="Casual matches: ask to take back the turn you just ended, or accept",
    )
    @app_commands.describe(match=MATCH)
    @app_commands.autocomplete(match=Completing.complete_match)
    async def takeback(
        self, interaction: discord.Interaction[Any], match: MatchPick | None = None
    ) -> None:
        await self.agree(interaction, match, "takeback")

    @app_commands.command(
        name="reset",
        description="Propose a reset of the series (R28), or accept your opponent's proposal",
    )
    @app_commands.describe(match=MATCH)
    @app_commands.autocomplete(match=Completing.complete_match)
    async def reset(
        self, interaction: discord.Interaction[Any], match: MatchPick | None = None
    ) -> None:
        await self.agree(interaction, match, "reset")

    @app_commands.command(
        name="abort",
        description="Call the match off before the first round is complete (asked to confirm)",
    )
    @app_commands.describe(match=MATCH)
    @app_commands.autocomplete(match=Completing.complete_match)
    async def abort(
        self, interaction: discord.Interaction[Any], match: MatchPick | None = None
    ) -> None:
        await self.agree(interaction, match, "abort")

    @app_commands.command(
        name="analyse",
        description="Analyse a finished match: its evaluation graph and the turns that lost most",
    )
    @app_commands.describe(number=NUMBER, match=MATCH)
    @app_commands.autocomplete(match=Completing.complete_match)
    async def analyse(
        self,
        interaction: discord.Interaction[Any],
        number: MatchNumber | None = None,
        match: MatchPick | None = None,
    ) -> None:
        """Says at once (to the caller alone) that the analysis has begun, then posts it."""
        caller, lookups = caller_of(interaction), self.app.lookups
        begun: list[Callable[[], Awaitable[Answer]]] = []

        async def begin() -> Answer:
            started, post = await lookups.analyse(caller, number, match)
            begun.append(post)
            return started

        await self.answer(interaction, begin, private=True)
        for post in begun:
            await self.handlers.respond.later(interaction, post)
