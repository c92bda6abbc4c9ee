"""``/tora-tournament ...``: tournaments over the application layer's tournament commands
(the tournament desk). Organising (create, start, cancel) is for server admins; anyone
registers, withdraws and looks."""

from __future__ import annotations

from typing import Any, Literal

import discord
from discord import app_commands

from bot.app.tournaments import CreateOptions

from .autocomplete import Completing
from .callers import caller_of, person
from .choices import game_choices, ladder_choices, offer
from .commands import PLACES, own_name
from .commands_ladder import Board
from .handlers import Handlers
from .options import DurationText, NameText, ReasonText

NAME = "The tournament's name"


class TournamentCommands(Completing, app_commands.Group):
    def __init__(self, handlers: Handlers) -> None:
        self.handlers = handlers
        super().__init__(
            name=own_name("tournament"),
            description="Tournaments: Swiss, round robin, or chapter 10's tiers",
            **PLACES,
        )
        offer(self.create, "board", ladder_choices(ai=False))
        offer(self.create, "game", game_choices())

    @app_commands.command(description="Server admins: open a tournament for entries here")
    @app_commands.describe(
        name="A name, unique in this server",
        format="chapter10 (TORA's tiers of matches), swiss, round-robin or double-round-robin",
        game="The game (Swiss and round robin: any; chapter 10: TORA)",
        board="TORA: the board (chapter 10 needs it)",
        target="Chapter 10: Game Points that win a match (short 49-64, long 181-240)",
        deadline="Time for each turn of its games, e.g. 24h (default: the server's)",
        assassins="TORA: play with Assassins (Swiss and round robin)",
        powers="Torii: play with the Spirits' powers (default yes)",
        rounds="Swiss: how many rounds (default 5)",
        round_deadline="How long a round lasts before it is adjudicated, e.g. 7d",
        rated="Count its games on the game's ladder (default no)",
        entry="How long entries stay open, e.g. 3d (default: until the start)",
        starts_in="Start by itself after this long, e.g. 2d (default: started by hand)",
        max_players="At most this many players (default 64; round robin 31, double 16, the most)",
        bye="What a bye is worth (Swiss default 1, round robin 0)",
        tiebreaks="In order, e.g. buchholz-cut1,buchholz,direct-encounter,wins",
        ai_fill="The AI of this strength plays whoever an odd round leaves over (no bye)",
        away_days="Players' away days stop its games' clocks (default yes)",
    )
    async def create(
        self,
        interaction: discord.Interaction[Any],
        name: NameText,
        format: Literal["chapter10", "swiss", "round-robin", "double-round-robin"] = "chapter10",
        game: str = "tora",
        board: Board | None = None,
        target: app_commands.Range[int, 1, 999] | None = None,
        deadline: DurationText | None = None,
        assassins: bool = False,
        powers: bool | None = None,
        rounds: app_commands.Range[int, 1, 20] | None = None,
        round_deadline: DurationText | None = None,
        rated: bool = False,
        entry: DurationText | None = None,
        starts_in: DurationText | None = None,
        max_players: app_commands.Range[int, 2, 500] | None = None,
        bye: Literal["0", "1/2", "1"] | None = None,
        tiebreaks: NameText | None = None,
        ai_fill: Literal["easy", "normal", "hard", "master"] | None = None,
        away_days: bool = True,
    ) -> None:
        caller, cups = caller_of(interaction), self.app.tournaments
        typed = CreateOptions(
            name, format, game, board, target, deadline, assassins, powers, rounds,
            round_deadline, rated, entry, starts_in, max_players, bye, tiebreaks, ai_fill,
            away_days,
        )  # fmt: skip
        await self.answer(interaction, lambda: cups.create(caller, typed), private=False)

    @app_commands.command(description="A round's (or a chapter 10 tier's) pairings, with links")
    @app_commands.describe(name=NAME, round="The round, or chapter 10's tier (default: current)")
    @app_commands.autocomplete(name=Completing.complete_tournament)
    async def pairings(
        self,
        interaction: discord.Interaction[Any],
        name: NameText,
        round: app_commands.Range[int, 1, 999] | None = None,
    ) -> None:
        caller, cups = caller_of(interaction), self.app.tournaments
        await self.answer(interaction, lambda: cups.pairings(caller, name, round), private=False)

    @app_commands.command(description="Server admins: a newcomer takes a player's place")
    @app_commands.describe(name=NAME, player="Who leaves", newcomer="Who takes their games")
    @app_commands.autocomplete(name=Completing.complete_tournament)
    async def replace(
        self,
        interaction: discord.Interaction[Any],
        name: NameText,
        player: discord.User,
        newcomer: discord.User,
    ) -> None:
        caller, cups = caller_of(interaction), self.app.tournaments
        old, new = person(player), person(newcomer)
        await self.answer(interaction, lambda: cups.replace(caller, name, old, new), private=False)

    @app_commands.command(description="Server admins: set a result, with a reason (logged)")
    @app_commands.describe(
        name=NAME,
        round="The round",
        player="The player whose result it is",
        result="Their result",
        reason="Why (kept in the tournament's log)",
    )
    @app_commands.autocomplete(name=Completing.complete_tournament)
    async def adjust(
        self,
        interaction: discord.Interaction[Any],
        name: NameText,
        round: app_commands.Range[int, 1, 999],
        player: discord.User,
        result: Literal["win", "draw", "loss", "forfeit-win", "forfeit-loss"],
        reason: ReasonText,
    ) -> None:
        caller, cups = caller_of(interaction), self.app.tournaments
        who = person(player)
        await self.answer(
            interaction,
            lambda: cups.adjust(caller, name, round, who, result, reason),
            private=False,
        )

    @app_commands.command(description="Join a tournament (a Swiss takes late entries)")
    @app_commands.describe(name=NAME, substitute="Join as a substitute (plays only if needed)")
    @app_commands.autocomplete(name=Completing.complete_tournament)
    async def register(
        self, interaction: discord.Interaction[Any], name: NameText, substitute: bool = False
    ) -> None:
        caller, cups = caller_of(interaction), self.app.tournaments
        await self.answer(
            interaction, lambda: cups.register(caller, name, substitute), private=True
        )

    @app_commands.command(description="Leave a tournament (a Swiss: withdraw between rounds)")
    @app_commands.describe(name=NAME)
    @app_commands.autocomplete(name=Completing.complete_tournament)
    async def withdraw(self, interaction: discord.Interaction[Any], name: NameText) -> None:
        caller, cups = caller_of(interaction), self.app.tournaments
        await self.answer(interaction, lambda: cups.withdraw(caller, name), private=True)

    @app_commands.command(description="Start a tournament (its organiser, or a server admin)")
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

    @app_commands.command(description="A tournament's standings (an image)")
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
