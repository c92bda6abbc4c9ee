"""The choices a command offers from the registry of games (``rules.registry``): the games,
and the ladders (each game's, then their AI ladders). discord.py reads a parameter's choices
from its annotation when the command's class is made; these are set on each group made, so
a game registered before the bot is built is offered like the others."""

from __future__ import annotations

import dataclasses
from typing import Any, cast

from discord import app_commands

from bot.app.notify_form import DISCORD
from bot.i18n import LOCALES, autonym
from bot.ladder.results import boards, game_boards
from rules.registry import GAMES

MAX_CHOICES = 25  # Discord's limit


def game_choices() -> list[app_commands.Choice[str]]:
    """Every game, by title."""
    return [app_commands.Choice(name=kind.title, value=kind.id) for kind in GAMES.values()]


def language_choices() -> list[app_commands.Choice[str]]:
    """Discord's language, then every shipped language by its own name."""
    return [app_commands.Choice(name="Discord's language", value=DISCORD)] + [
        app_commands.Choice(name=autonym(code), value=code) for code in LOCALES
    ]


def ladder_choices(ai: bool) -> list[app_commands.Choice[str]]:
    """Every game's ladders, by id (``short``, ``torii``), with their AI ladders if ``ai``."""
    return [
        app_commands.Choice(name=board, value=board)
        for board in (boards() if ai else game_boards())
    ]


def offer(
    command: app_commands.Command[Any, ..., Any],
    parameter: str,
    choices: list[app_commands.Choice[str]],
) -> None:
    """Offer ``choices`` for ``parameter`` (a text parameter) of ``command``, a group's own
    copy of it. ValueError past Discord's 25 choices."""
    if len(choices) > MAX_CHOICES:
        raise ValueError(f"{command.qualified_name} {parameter}: more than {MAX_CHOICES} choices")
    params = command._params  # discord.py sets choices from annotations alone
    offered = cast(list[app_commands.Choice[str | int | float]], choices)
    params[parameter] = dataclasses.replace(params[parameter], choices=offered)
