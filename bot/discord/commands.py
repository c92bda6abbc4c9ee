"""The ``/tora`` command group: the everyday commands (Discord allows 25 entries); the rarer
ones are slash commands of their own, ``/tora-match``, ``/tora-ladder``, ``/tora-admin`` and
``/tora-tournament`` (``commands_match`` and the others: Discord counts a command's names,
descriptions and choices against 8,000 characters, which one ``/tora`` would pass). Each
handler reads its options and hands over to the application layer, which it is given with
the group (``Handlers``), through ``Responder.run`` (act, answer at once or deferred,
refusals). The commands may be used in servers and in a direct message with the bot (where
the match is found from the caller)."""

from __future__ import annotations

from typing import Any, Literal

import discord
from discord import app_commands

from bot.app import Answer, Unusable, guide
from bot.app.actions import ChallengeOptions
from bot.app.notify_form import ME, SERVER
from bot.i18n import _, option, own_command, speaking
from rules.registry import DEFAULT

from .autocomplete import Completing
from .callers import caller_of, person
from .choices import game_choices, language_choices, offer
from .handlers import Handlers
from .notify_form import view_of as notify_view
from .options import (
    ActionText,
    DurationText,
    MapText,
    MatchNumber,
    MatchPick,
    SquareText,
    TopicText,
    WordText,
)
from .panel import open_panel, play
from .respond import Outgoing, within
from .setup_form import show_in_dm
from .setup_form import view_of as setup_view

MATCH = "Which of your matches (only needed in a DM when you play in several)"
NUMBER = "A match's number (in its record's file name); default the match here"
GAME = "Which game (default: the game of the match here)"


# Where the commands may be used: in servers and in a direct message with the bot (where a
# match is found from the caller; a server's commands there say they belong to a server).
PLACES: dict[str, Any] = {
    "allowed_contexts": app_commands.AppCommandContext(guild=True, dm_channel=True),
    "allowed_installs": app_commands.AppInstallationType(guild=True),
}
# A server's own commands, which mean nothing in a direct message.
IN_SERVERS: dict[str, Any] = {
    **PLACES,
    "allowed_contexts": app_commands.AppCommandContext(guild=True),
}


def own_name(group: str) -> str:
    """The name of ``/tora``'s ``group`` as the slash command of its own it is
    (``tora-ladder``: ``bot.i18n.own_command``)."""
    return own_command(["tora", group])[0]


class Tora(Completing, app_commands.Group):
    def __init__(self, handlers: Handlers) -> None:
        self.handlers = handlers
        super().__init__(
            name="tora", description="Play TORA, ToriShogi and Torii by chat", **PLACES
        )
        for command in (self.challenge, self.quick_start, self.rules):
            offer(command, "game", game_choices())
        offer(self.settings, "language", language_choices())

    # ---- the lobby ---------------------------------------------------------------------
    @app_commands.command(description="Challenge a player (or anyone here) to a match")
    @app_commands.describe(
        opponent="Who you challenge; leave empty for an open challenge anyone here may accept",
        ai="Play the AI at this strength instead: it plays at once (a practice game, with hints)",
        game="The game: TORA (default), ToriShogi (bird shogi, 7x7) or Torii (Spirits, 6x6)",
        powers="Torii: play with the Spirits' powers (default yes)",
        board="TORA: the short board (9x9, default) or the long board (17x17)",
        terrain="A terrain preset of that board (default none), or custom with terrain_map",
        terrain_map="A custom terrain, e.g. 'water v4h6 v5h6; forest v3h3'",
        assassins="Play with hidden Assassins (long board only)",
        deadline="Time for each turn, e.g. 90m, 24h, 3d (default: the server's, else 24h)",
        target="Play a series to this many points (0: a single game)",
        rated="Count the match for the ladder (default yes; against the AI no, its own ladder)",
        roles="Who plays the Challenger, who moves first: you (default) or drawn at random",
        forfeit_after="Turns missed in a row that forfeit the match (default 3, 0: never)",
        expires="How long the challenge stays open, e.g. 24h (default 24h)",
        clock="turn: a deadline per turn (default: the server's); bank: and a reserve; increment",
        bank="clock:bank, each player's reserve for turns that overrun, e.g. 7d (default 7d)",
        increment="clock:increment, time added after each turn (default 1d); deadline: the start",
        cap="clock:increment, the most a player's time can grow to (default twice the start)",
        weekends="off: no clock runs on its player's own Saturdays and Sundays (their time zone)",
    )
    @app_commands.autocomplete(terrain=Completing.complete_terrain)
    async def challenge(
        self,
        interaction: discord.Interaction[Any],
        opponent: discord.User | None = None,
        game: str = DEFAULT,
        board: Literal["short", "long"] = "short",
        terrain: WordText = "none",
        terrain_map: MapText = "",
        assassins: bool = False,
        deadline: DurationText | None = None,
        target: app_commands.Range[int, 0, 999] = 0,
        rated: bool | None = None,
        roles: Literal["challenger", "random"] = "challenger",
        forfeit_after: app_commands.Range[int, 0, 99] = 3,
        expires: DurationText | None = None,
        powers: bool | None = None,
        ai: Literal["easy", "normal", "hard", "master"] | None = None,
        clock: Literal["turn", "bank", "increment"] | None = None,
        bank: DurationText | None = None,
        increment: DurationText | None = None,
        cap: DurationText | None = None,
        weekends: Literal["on", "off"] = "on",
    ) -> None:
        caller, actions = caller_of(interaction), self.app.actions
        me = interaction.client.user
        if opponent is not None and me is not None and opponent.id == me.id:
            opponent, ai = None, ai or "normal"  # challenging the bot: its AI
        options = ChallengeOptions(
            board, terrain, terrain_map, assassins, deadline, target, rated, roles,
            forfeit_after, expires, game, powers, ai, clock, bank, increment, cap, weekends,
        )  # fmt: skip

        async def work() -> Answer:
            if opponent is not None and opponent.bot:
                raise Unusable(
                    _(
                        "Bots do not play here: challenge a person, or the AI with the `{ai}` "
                        "option.",
                        ai=option("ai"),
                    )
                )
            return await actions.challenge(caller, person(opponent) if opponent else None, options)

        await self.answer(interaction, work, private=True)

    @app_commands.command(description="Accept the challenge (or a challenge made to you)")
    @app_commands.describe(match=MATCH)
    @app_commands.autocomplete(match=Completing.complete_match)
    async def accept(
        self, interaction: discord.Interaction[Any], match: MatchPick | None = None
    ) -> None:
        caller, actions = caller_of(interaction), self.app.actions
        await self.answer(interaction, lambda: actions.accept(caller, match), private=True)

    @app_commands.command(description="Decline a challenge or proposal, or take back your own")
    @app_commands.describe(match=MATCH)
    @app_commands.autocomplete(match=Completing.complete_match)
    async def decline(
        self, interaction: discord.Interaction[Any], match: MatchPick | None = None
    ) -> None:
        caller, actions = caller_of(interaction), self.app.actions
        await self.answer(interaction, lambda: actions.decline(caller, match), private=True)

    @app_commands.command(
        description="Choose your setup in private: strategy, Ruler, Assassin; Spirit"
    )
    @app_commands.describe(
        strategy="TORA: aggressive or defensive",
        ruler="TORA: your Ruler on the long board, K (King) or Q (Queen)",
        assassin="TORA: your hidden Assassin's start (a free square of your home edge), or none",
        spirit="Torii: your Spirit (each shown with its power)",
        match=MATCH,
    )
    @app_commands.autocomplete(
        strategy=Completing.complete_strategy,
        assassin=Completing.complete_assassin,
        spirit=Completing.complete_spirit,
        match=Completing.complete_match,
    )
    async def setup(
        self,
        interaction: discord.Interaction[Any],
        strategy: WordText | None = None,
        ruler: Literal["K", "Q"] | None = None,
        assassin: SquareText | None = None,
        spirit: WordText | None = None,
        match: MatchPick | None = None,
    ) -> None:
        caller, forms = caller_of(interaction), self.app.setup
        typed = {"strategy": strategy, "ruler": ruler, "assassin": assassin, "spirit": spirit}

        async def work() -> Outgoing:
            done = await forms.typed(caller, match, typed)
            form = done.form
            if form is not None:
                await show_in_dm(interaction, done.channel_id, form)
            view = None if form is None else setup_view(done.channel_id, form)
            return Outgoing(done.answer.text, done.answer.files, view=view)

        await self.handlers.respond.show(interaction, work, private=True)

    # ---- turns -------------------------------------------------------------------------
    @app_commands.command(
        description="Play your turn with menus; while theirs runs, plan your reply to it"
    )
    @app_commands.describe(match=MATCH)
    @app_commands.autocomplete(match=Completing.complete_match)
    async def play(
        self, interaction: discord.Interaction[Any], match: MatchPick | None = None
    ) -> None:
        caller, app = caller_of(interaction), self.app
        panel = lambda: app.planning.play_or_plan(app.playing, caller, match)  # noqa: E731
        if match is None:  # else the panel, which finds the match named
            await play(self.handlers, interaction, None, panel)
        else:
            await open_panel(self.handlers, interaction, panel)

    @app_commands.command(description="Your matches: whose turn it is, the deadline, where")
    async def games(self, interaction: discord.Interaction[Any]) -> None:
        caller, actions = caller_of(interaction), self.app.actions
        await self.answer(interaction, lambda: actions.games(caller), private=True)

    @app_commands.command(
        description="Play actions by typing them, e.g. 'A v5h7-v4h6; G v5h9-v4h9'"
    )
    @app_commands.describe(
        action="Actions in notation, ';' between them, e.g. 'A v5h7-v4h6 x v3h6' (type to see)",
        match=MATCH,
    )
    @app_commands.autocomplete(action=Completing.complete_action, match=Completing.complete_match)
    async def act(
        self,
        interaction: discord.Interaction[Any],
        action: ActionText,
        match: MatchPick | None = None,
    ) -> None:
        caller, actions = caller_of(interaction), self.app.actions
        await self.answer(interaction, lambda: actions.act(caller, match, action), private=True)

    @app_commands.command(description="Take back the last action of your turn, or the one numbered")
    @app_commands.describe(
        number="Which action of this turn (1 is the first); default the last", match=MATCH
    )
    @app_commands.autocomplete(match=Completing.complete_match)
    async def undo(
        self,
        interaction: discord.Interaction[Any],
        number: app_commands.Range[int, 1, 99] | None = None,
        match: MatchPick | None = None,
    ) -> None:
        caller, actions = caller_of(interaction), self.app.actions
        await self.answer(interaction, lambda: actions.undo(caller, match, number), private=True)

    @app_commands.command(description="End your turn: your staged actions are posted")
    @app_commands.describe(match=MATCH)
    @app_commands.autocomplete(match=Completing.complete_match)
    async def end(
        self, interaction: discord.Interaction[Any], match: MatchPick | None = None
    ) -> None:
        caller, actions = caller_of(interaction), self.app.actions
        await self.answer(interaction, lambda: actions.end(caller, match), private=True)

    @app_commands.command(description="A practice game's hint: the turn the AI would play for you")
    @app_commands.describe(match=MATCH)
    @app_commands.autocomplete(match=Completing.complete_match)
    async def hint(
        self, interaction: discord.Interaction[Any], match: MatchPick | None = None
    ) -> None:
        caller, actions = caller_of(interaction), self.app.actions
        await self.answer(interaction, lambda: actions.hint(caller, match), private=True)

    @app_commands.command(description="Your own board, with your staged actions (only you see it)")
    @app_commands.describe(match=MATCH)
    @app_commands.autocomplete(match=Completing.complete_match)
    async def preview(
        self, interaction: discord.Interaction[Any], match: MatchPick | None = None
    ) -> None:
        caller, actions = caller_of(interaction), self.app.actions
        await self.answer(interaction, lambda: actions.preview(caller, match), private=True)

    @app_commands.command(
        description="The board: players see their own privately, others the public one"
    )
    @app_commands.describe(
        match=MATCH,
        number="A match's number, finished or not: its public board",
        link="new: replace your private link to the web board (the old one stops working)",
    )
    @app_commands.autocomplete(match=Completing.complete_match)
    async def board(
        self,
        interaction: discord.Interaction[Any],
        match: MatchPick | None = None,
        number: MatchNumber | None = None,
        link: Literal["new"] | None = None,
    ) -> None:
        caller, app = caller_of(interaction), self.app
        if link == "new":
            renew = app.board_links.renew
            await self.answer(interaction, lambda: renew(caller, match), private=True)
            return
        lookups = app.lookups
        if number is not None:  # a match by its number: public, as record and replay
            await self.answer(
                interaction, lambda: lookups.numbered_board(caller, number), private=caller.in_dm
            )
            return
        # whether the answer (and its deferral) is private: a slow read answers privately,
        # as a failed one does (never wrong, only less visible)
        private = await within(interaction, app.actions.plays_here(caller), True)
        await self.answer(interaction, lambda: lookups.board(caller, match), private=private)

    # ---- agreements --------------------------------------------------------------------
    @app_commands.command(description="Offer a draw, or accept your opponent's offer")
    @app_commands.describe(match=MATCH)
    @app_commands.autocomplete(match=Completing.complete_match)
    async def draw(
        self, interaction: discord.Interaction[Any], match: MatchPick | None = None
    ) -> None:
        await self.agree(interaction, match, "draw")

    @app_commands.command(description="Resign the match (you are asked to confirm)")
    @app_commands.describe(match=MATCH)
    @app_commands.autocomplete(match=Completing.complete_match)
    async def resign(
        self, interaction: discord.Interaction[Any], match: MatchPick | None = None
    ) -> None:
        await self.agree(interaction, match, "resign")

    @app_commands.command(description="Plan replies to your opponent's turn: played at once")
    @app_commands.describe(
        add="their turn > your reply, deeper steps after |, e.g. 'c5c4 > a3a4 | b5b4 > c3c4'",
        cancel="A plan's number, or all",
        match=MATCH,
    )
    @app_commands.autocomplete(match=Completing.complete_match)
    async def plans(
        self,
        interaction: discord.Interaction[Any],
        add: ActionText | None = None,
        cancel: WordText | None = None,
        match: MatchPick | None = None,
    ) -> None:
        caller, actions = caller_of(interaction), self.app.actions
        await self.answer(
            interaction, lambda: actions.plans(caller, match, add, cancel), private=True
        )

    # ---- time off and one's own settings -----------------------------------------------
    @app_commands.command(description="Away days: your clocks here stand still while you are away")
    @app_commands.describe(
        days="How many days (your allowance here: see /tora away with no option)",
        start="When: now (default), a date like 2027-03-01, or a time from now like 2d",
        until="Instead of days: the date you are back, like 2027-03-08",
        back="Come back now (or call off your planned time away): days not begun come back",
    )
    async def away(
        self,
        interaction: discord.Interaction[Any],
        days: app_commands.Range[int, 1, 365] | None = None,
        start: DurationText | None = None,
        until: DurationText | None = None,
        back: bool = False,
    ) -> None:
        caller, time_off = caller_of(interaction), self.app.time_off

        async def work() -> Answer:
            return await time_off.away(caller, days, start, until, back)

        await self.answer(interaction, work, private=True)

    @app_commands.command(
        description="Your notifications, time zone, language and automatic away days"
    )
    @app_commands.describe(
        timezone="Your time zone, like Europe/Paris or America/New_York (weekends, quiet hours)",
        auto_away="Give me an away day before a turn of mine would be missed (default yes)",
        language="The language of my answers and DMs to you (default: your Discord's)",
        server="Server admins: this server's default notifications and language instead",
    )
    async def settings(
        self,
        interaction: discord.Interaction[Any],
        timezone: DurationText | None = None,
        auto_away: bool | None = None,
        language: str | None = None,
        server: bool = False,
    ) -> None:
        """The settings given are saved; then the form, in the language now in force."""
        caller, app, respond = caller_of(interaction), self.app, self.handlers.respond

        async def work() -> Outgoing:
            said = ""
            if timezone is not None or auto_away is not None or language is not None:
                given = await app.time_off.settings(caller, timezone, auto_away, language)
                said = given.text + "\n"
            with speaking(await respond.language(interaction)):
                form = await app.notify.form(caller, SERVER if server else ME)
            return Outgoing((said + form.text)[:2000], view=notify_view(form))

        await self.handlers.respond.show(interaction, work, private=True)

    # ---- what a match was, and the rules ------------------------------------------------
    @app_commands.command(description="A match's record as a file (players get their own, in full)")
    @app_commands.describe(number=NUMBER, match=MATCH)
    @app_commands.autocomplete(match=Completing.complete_match)
    async def record(
        self,
        interaction: discord.Interaction[Any],
        number: MatchNumber | None = None,
        match: MatchPick | None = None,
    ) -> None:
        caller, lookups = caller_of(interaction), self.app.lookups
        await self.answer(interaction, lambda: lookups.record(caller, number, match), private=True)

    @app_commands.command(description="An animated replay of a match, turn by turn")
    @app_commands.describe(number=NUMBER, match=MATCH)
    @app_commands.autocomplete(match=Completing.complete_match)
    async def replay(
        self,
        interaction: discord.Interaction[Any],
        number: MatchNumber | None = None,
        match: MatchPick | None = None,
    ) -> None:
        caller, lookups = caller_of(interaction), self.app.lookups
        await self.answer(
            interaction, lambda: lookups.replay(caller, number, match), private=caller.in_dm
        )

    @app_commands.command(
        name="help", description="A quick start to a game: its board, a turn, the main commands"
    )
    @app_commands.describe(game=GAME)
    async def quick_start(
        self, interaction: discord.Interaction[Any], game: str | None = None
    ) -> None:
        caller, actions = caller_of(interaction), self.app.actions

        async def work() -> Answer:
            return await guide.quick_start(actions, caller, game)

        await self.answer(interaction, work, private=True)

    @app_commands.command(
        description="Look up a ruling (R25, TS5, TI15), a piece or power, or a word"
    )
    @app_commands.describe(
        topic="A ruling id, a piece's or power's name (archer, phoenix, monkey), or a word",
        game=GAME,
    )
    @app_commands.autocomplete(topic=Completing.complete_topic)
    async def rules(
        self,
        interaction: discord.Interaction[Any],
        topic: TopicText,
        game: str | None = None,
    ) -> None:
        caller, actions = caller_of(interaction), self.app.actions

        async def work() -> Answer:
            return await guide.rules(actions, caller, topic, game)

        await self.answer(interaction, work, private=True)
