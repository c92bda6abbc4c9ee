"""``/tora-admin``: the commands for a server's admins (Manage Server): settings, cancel a
match, close a ladder season, remove a result. Discord shows the command only to members
with Manage Server (``default_member_permissions``), and only in servers, since each
subcommand needs both; the application layer still checks the caller's permission
(``Caller.admin``): a server may show the command to others (Integrations), and Discord
does not tell the bot who may see it."""

from __future__ import annotations

from typing import Any, Literal

import discord
from discord import app_commands

from bot.app import Answer
from bot.app.actions import ClockOptions

from .autocomplete import Completing
from .callers import caller_of
from .choices import ladder_choices, offer
from .commands import IN_SERVERS, own_name
from .commands_ladder import LADDER, Board
from .handlers import Handlers
from .options import DurationText, MatchNumber, ReasonText, WordText


class AdminCommands(Completing, app_commands.Group):
    def __init__(self, handlers: Handlers) -> None:
        self.handlers = handlers
        super().__init__(
            name=own_name("admin"),
            description="Server admins: settings, cancel, seasons, results",
            **IN_SERVERS,
            default_permissions=discord.Permissions(manage_guild=True),
        )
        offer(self.close_season, "board", ladder_choices(ai=True))

    @app_commands.command(description="The server's TORA settings (shown when none is given)")
    @app_commands.describe(
        deadline="Default time per turn of new challenges, e.g. 24h, 3d ('default': 24h)",
        threads="Give each new match its own thread",
        ladder_channel="Where ladder pairings open their matches",
        clear_ladder_channel="True: ladder pairings open their matches where the players queued",
        ai_fill="After this wait in the ladder queue the AI plays whoever waits, e.g. 2h ('off')",
        ai_matches="How many matches against the AI may run here at once, e.g. 10 (0: none)",
        away_days="Each player's away days a year here (default 14, 0: none)",
        auto_away="Give a player an away day before a turn of theirs would be missed (default on)",
        clock="The clock of new challenges and ladder matches: turn (default), bank, increment",
        bank="clock:bank, each player's reserve (default 7d)",
        increment="clock:increment, time added after each turn (default 1d)",
        cap="clock:increment, the most a player's time grows to (default twice the start)",
    )
    async def settings(
        self,
        interaction: discord.Interaction[Any],
        deadline: DurationText | None = None,
        threads: bool | None = None,
        ladder_channel: discord.TextChannel | None = None,
        ai_fill: DurationText | None = None,
        ai_matches: WordText | None = None,
        away_days: app_commands.Range[int, 0, 365] | None = None,
        auto_away: bool | None = None,
        clock: Literal["turn", "bank", "increment"] | None = None,
        bank: DurationText | None = None,
        increment: DurationText | None = None,
        cap: DurationText | None = None,
        clear_ladder_channel: bool = False,
    ) -> None:
        caller, lookups = caller_of(interaction), self.app.lookups
        channel = ladder_channel.id if ladder_channel else None

        async def work() -> Answer:
            typed = ClockOptions(clock, bank, increment, cap)
            return await lookups.settings(
                caller,
                deadline,
                threads,
                channel,
                ai_fill,
                ai_matches,
                away_days,
                auto_away,
                typed if typed.given() else None,
                clear_ladder_channel,
            )

        await self.answer(interaction, work, private=True)

    @app_commands.command(description="Call off this channel's match (unrated)")
    async def cancel(self, interaction: discord.Interaction[Any]) -> None:
        caller, actions = caller_of(interaction), self.app.actions
        await self.answer(interaction, lambda: actions.cancel(caller), private=True)

    @app_commands.command(
        name="close-season", description="Close the ladder's season (standings kept), start anew"
    )
    @app_commands.describe(board=LADDER)
    async def close_season(self, interaction: discord.Interaction[Any], board: Board) -> None:
        caller, lookups = caller_of(interaction), self.app.lookups
        await self.answer(
            interaction, lambda: lookups.close_season(caller, board), private=caller.in_dm
        )

    @app_commands.command(
        name="remove-result", description="Take a match's result off the ladder (recomputed)"
    )
    @app_commands.describe(
        number="The match's number (in its record's file name)",
        reason="Why (kept with your name and the time)",
    )
    async def remove_result(
        self, interaction: discord.Interaction[Any], number: MatchNumber, reason: ReasonText
    ) -> None:
        caller, lookups = caller_of(interaction), self.app.lookups
        await self.answer(
            interaction, lambda: lookups.remove_result(caller, number, reason), private=True
        )
