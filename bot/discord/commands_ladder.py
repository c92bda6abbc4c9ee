"""``/tora-ladder``: the server's ladders over the application layer's look-ups (the ladder
desk): leaderboards, profiles, seasons and the matchmaking queue (the admins' are in
``commands_admin``)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from .autocomplete import Completing
from .callers import caller_of, person
from .choices import ladder_choices, offer
from .commands import PLACES, own_name
from .handlers import Handlers

# A ``board`` is a game's ladder (TORA's boards, then the other games), a ``ladder`` that or
# its AI ladder (rated games against the AI: to look at, never to queue for); their choices
# are the registry's (``choices``).
Board = str
Ladder = str
LADDER = "The ladder: TORA's short or long board, ToriShogi or Torii; ai-: against the AI"


class LadderCommands(Completing, app_commands.Group):
    def __init__(self, handlers: Handlers) -> None:
        self.handlers = handlers
        super().__init__(
            name=own_name("ladder"),
            description="This server's ladders: ratings, profiles, the queue",
            **PLACES,
        )
        for command in (self.ladder, self.profile, self.seasons):
            offer(command, "board", ladder_choices(ai=True))
        for command in (self.queue, self.leave_queue):
            offer(command, "board", ladder_choices(ai=False))

    @app_commands.command(name="show", description="This server's ladder: ratings, best first")
    @app_commands.describe(
        board=LADDER,
        page="Which page (10 players a page)",
        season="A closed season's final standings (default the open season)",
    )
    async def ladder(
        self,
        interaction: discord.Interaction[Any],
        board: Ladder = "short",
        page: app_commands.Range[int, 1, 10_000] = 1,
        season: app_commands.Range[int, 1, 10_000] | None = None,
    ) -> None:
        caller, lookups = caller_of(interaction), self.app.lookups
        await self.answer(
            interaction, lambda: lookups.ladder(caller, board, page, season), private=caller.in_dm
        )

    @app_commands.command(description="A player's ratings and recent games, or two players' record")
    @app_commands.describe(
        player="Whose profile (default yours)",
        versus="Show the head-to-head record of player against this player instead",
        board="One ladder only (default all; the short board for a head-to-head record)",
    )
    async def profile(
        self,
        interaction: discord.Interaction[Any],
        player: discord.User | None = None,
        versus: discord.User | None = None,
        board: Ladder | None = None,
    ) -> None:
        caller, lookups = caller_of(interaction), self.app.lookups
        whose = person(player or interaction.user)
        other = versus.id if versus else None
        await self.answer(
            interaction,
            lambda: lookups.profile(caller, whose, other, board),
            private=caller.in_dm,
        )

    @app_commands.command(description="The ladder's seasons: when each ran and who won")
    @app_commands.describe(board=LADDER)
    async def seasons(self, interaction: discord.Interaction[Any], board: Ladder = "short") -> None:
        caller, lookups = caller_of(interaction), self.app.lookups
        await self.answer(interaction, lambda: lookups.seasons(caller, board), private=caller.in_dm)

    @app_commands.command(
        description="Wait for a rated ladder match against a player near your rating"
    )
    @app_commands.describe(board="The board you want to play on")
    async def queue(self, interaction: discord.Interaction[Any], board: Board = "short") -> None:
        caller, lookups = caller_of(interaction), self.app.lookups
        await self.answer(interaction, lambda: lookups.queue(caller, board), private=True)

    @app_commands.command(name="leave", description="Stop waiting for a ladder match")
    @app_commands.describe(board="Leave this ladder's queue only (default all of them)")
    async def leave_queue(
        self, interaction: discord.Interaction[Any], board: Board | None = None
    ) -> None:
        caller, lookups = caller_of(interaction), self.app.lookups
        await self.answer(interaction, lambda: lookups.leave_queue(caller, board), private=True)
