"""The ``/tora`` command group: thin handlers that read the options, then hand over to the
actions layer through ``respond.run`` (defer, act, answer, refusals). The group may be used in
servers and in a direct message with the bot (where the match is found from the caller)."""

from __future__ import annotations

from typing import Any, Literal

import discord
from discord import app_commands

from . import autocomplete, setup_form
from .actions import Actions, ChallengeOptions
from .callers import caller_of, person
from .commands_admin import register_admin
from .commands_info import register_info
from .commands_ladder import register_ladder
from .commands_tournament import register_tournament
from .options import ActionText, DurationText, MapText, MatchPick, SquareText, WordText
from .panel import open_panel
from .respond import Answer, Unusable, run

MATCH = "Which of your matches (only needed in a DM when you play in several)"


def actions_of(interaction: discord.Interaction[Any]) -> Actions:
    return interaction.client.actions


def build_group() -> app_commands.Group:
    """``/tora``: the everyday commands at its top (Discord allows 25 entries), the rarer
    ones in groups: ``match`` (pause, resume, reset, abort), ``ladder``, ``tournament`` and
    ``admin``."""
    group = app_commands.Group(
        name="tora",
        description="Play TORA, ToriShogi and Torii by chat",
        allowed_contexts=app_commands.AppCommandContext(guild=True, dm_channel=True),
        allowed_installs=app_commands.AppInstallationType(guild=True),
    )
    register_lobby(group)
    register_turns(group)
    register_agreements(group)
    register_info(group)
    register_ladder(group)
    register_admin(group)
    register_tournament(group)
    return group


def register_lobby(group: app_commands.Group) -> None:
    @group.command(description="Challenge a player (or anyone here) to a match")
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
    )
    @app_commands.autocomplete(terrain=autocomplete.terrain)
    async def challenge(
        interaction: discord.Interaction[Any],
        opponent: discord.User | None = None,
        game: Literal["tora", "torishogi", "torii"] = "tora",
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
        ai: Literal["easy", "normal", "hard"] | None = None,
    ) -> None:
        caller, actions = caller_of(interaction), actions_of(interaction)
        me = interaction.client.user
        if opponent is not None and me is not None and opponent.id == me.id:
            opponent, ai = None, ai or "normal"  # challenging the bot: its AI
        options = ChallengeOptions(
            board, terrain, terrain_map, assassins, deadline, target, rated, roles,
            forfeit_after, expires, game, powers, ai,
        )  # fmt: skip

        async def work() -> Answer:
            if opponent is not None and opponent.bot:
                raise Unusable(
                    "Bots do not play here: challenge a person, or the AI with the `ai` option."
                )
            return await actions.challenge(caller, person(opponent) if opponent else None, options)

        await run(interaction, work, private=True)

    @group.command(description="Accept the challenge (or a challenge made to you)")
    @app_commands.describe(match=MATCH)
    @app_commands.autocomplete(match=autocomplete.match)
    async def accept(interaction: discord.Interaction[Any], match: MatchPick | None = None) -> None:
        caller, actions = caller_of(interaction), actions_of(interaction)
        await run(interaction, lambda: actions.accept(caller, match), private=True)

    @group.command(description="Decline a challenge or proposal, or take back your own")
    @app_commands.describe(match=MATCH)
    @app_commands.autocomplete(match=autocomplete.match)
    async def decline(
        interaction: discord.Interaction[Any], match: MatchPick | None = None
    ) -> None:
        caller, actions = caller_of(interaction), actions_of(interaction)
        await run(interaction, lambda: actions.decline(caller, match), private=True)

    @group.command(description="Choose your setup in private: strategy, Ruler, Assassin; Spirit")
    @app_commands.describe(
        strategy="TORA: aggressive or defensive",
        ruler="TORA: your Ruler on the long board, K (King) or Q (Queen)",
        assassin="TORA: your hidden Assassin's start (a free square of your home edge), or none",
        spirit="Torii: your Spirit (each shown with its power)",
        match=MATCH,
    )
    @app_commands.autocomplete(
        strategy=autocomplete.strategy,
        assassin=autocomplete.assassin,
        spirit=setup_form.spirit,
        match=autocomplete.match,
    )
    async def setup(
        interaction: discord.Interaction[Any],
        strategy: WordText | None = None,
        ruler: Literal["K", "Q"] | None = None,
        assassin: SquareText | None = None,
        spirit: WordText | None = None,
        match: MatchPick | None = None,
    ) -> None:
        caller, actions = caller_of(interaction), actions_of(interaction)
        await run(
            interaction,
            lambda: actions.setup(caller, match, strategy, ruler, assassin, spirit),
            private=True,
        )


def register_turns(group: app_commands.Group) -> None:
    @group.command(description="Play your turn with menus: pick a piece, then what it does")
    @app_commands.describe(match=MATCH)
    @app_commands.autocomplete(match=autocomplete.match)
    async def play(interaction: discord.Interaction[Any], match: MatchPick | None = None) -> None:
        caller, playing = caller_of(interaction), interaction.client.playing
        await open_panel(interaction, lambda: playing.open(caller, match))

    @group.command(description="Your matches: whose turn it is, the deadline, where")
    async def games(interaction: discord.Interaction[Any]) -> None:
        caller, actions = caller_of(interaction), actions_of(interaction)
        await run(interaction, lambda: actions.games(caller), private=True)

    @group.command(description="Play actions by typing them, e.g. 'A v5h7-v4h6; G v5h9-v4h9'")
    @app_commands.describe(
        action="Actions in notation, ';' between them, e.g. 'A v5h7-v4h6 x v3h6' (type to see)",
        match=MATCH,
    )
    @app_commands.autocomplete(action=autocomplete.action, match=autocomplete.match)
    async def act(
        interaction: discord.Interaction[Any], action: ActionText, match: MatchPick | None = None
    ) -> None:
        caller, actions = caller_of(interaction), actions_of(interaction)
        await run(interaction, lambda: actions.act(caller, match, action), private=True)

    @group.command(description="Take back the last action of your turn, or the one numbered")
    @app_commands.describe(
        number="Which action of this turn (1 is the first); default the last", match=MATCH
    )
    @app_commands.autocomplete(match=autocomplete.match)
    async def undo(
        interaction: discord.Interaction[Any],
        number: app_commands.Range[int, 1, 99] | None = None,
        match: MatchPick | None = None,
    ) -> None:
        caller, actions = caller_of(interaction), actions_of(interaction)
        await run(interaction, lambda: actions.undo(caller, match, number), private=True)

    @group.command(description="End your turn: your staged actions are posted")
    @app_commands.describe(match=MATCH)
    @app_commands.autocomplete(match=autocomplete.match)
    async def end(interaction: discord.Interaction[Any], match: MatchPick | None = None) -> None:
        caller, actions = caller_of(interaction), actions_of(interaction)
        await run(interaction, lambda: actions.end(caller, match), private=True)

    @group.command(description="A practice game's hint: the turn the AI would play for you")
    @app_commands.describe(match=MATCH)
    @app_commands.autocomplete(match=autocomplete.match)
    async def hint(interaction: discord.Interaction[Any], match: MatchPick | None = None) -> None:
        caller, actions = caller_of(interaction), actions_of(interaction)
        await run(interaction, lambda: actions.hint(caller, match), private=True)

    @group.command(description="Your own board, with your staged actions (only you see it)")
    @app_commands.describe(match=MATCH)
    @app_commands.autocomplete(match=autocomplete.match)
    async def preview(
        interaction: discord.Interaction[Any], match: MatchPick | None = None
    ) -> None:
        caller, actions = caller_of(interaction), actions_of(interaction)
        await run(interaction, lambda: actions.preview(caller, match), private=True)

    @group.command(description="The board: players see their own privately, others the public one")
    @app_commands.describe(match=MATCH)
    @app_commands.autocomplete(match=autocomplete.match)
    async def board(interaction: discord.Interaction[Any], match: MatchPick | None = None) -> None:
        caller, actions = caller_of(interaction), actions_of(interaction)
        private = await actions.plays_here(caller)
        lookups = interaction.client.lookups
        await run(interaction, lambda: lookups.board(caller, match), private=private)


AGREEMENTS = {
    "draw": "Offer a draw, or accept your opponent's offer",
    "resign": "Resign the match (you are asked to confirm)",
}
MATCH_AGREEMENTS = {
    "pause": "Propose to stop the clock, or agree to your opponent's proposal",
    "resume": "Restart a paused clock",
    "reset": "Propose a reset of the series (R28), or accept your opponent's proposal",
    "abort": "Call the match off before the first round is complete (asked to confirm)",
}


def register_agreements(group: app_commands.Group) -> None:
    for kind, description in AGREEMENTS.items():
        group.add_command(_agreement(kind, description))
    sub = app_commands.Group(
        name="match", description="Pause, resume, reset or abort a match", parent=group
    )
    for kind, description in MATCH_AGREEMENTS.items():
        sub.add_command(_agreement(kind, description))


def _agreement(kind: str, description: str) -> app_commands.Command[Any, Any, None]:
    @app_commands.command(name=kind, description=description)
    @app_commands.describe(match=MATCH)
    @app_commands.autocomplete(match=autocomplete.match)
    async def agreement(
        interaction: discord.Interaction[Any], match: MatchPick | None = None
    ) -> None:
        caller, actions = caller_of(interaction), actions_of(interaction)
        await run(interaction, lambda: actions.agree(caller, match, kind), private=True)

    return agreement
