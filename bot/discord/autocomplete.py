"""Autocomplete for the ``/tora`` options. Discord asks at every keystroke and shows nothing
if the answer is late or fails, so each of these is quick and never raises."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands

from bot.service import Refused
from rules.tora import CUSTOM, STRATEGIES, preset_names

from . import guide
from .callers import caller_of
from .respond import Unusable, sentence

log = logging.getLogger(__name__)
MOST = 25  # Discord shows at most 25 choices
Choices = list[app_commands.Choice[str]]


def _choices(values: list[str] | list[tuple[str, str]]) -> Choices:
    out = []
    for value in values[:MOST]:
        name, val = value if isinstance(value, tuple) else (value, value)
        out.append(app_commands.Choice(name=name[:100], value=val[:100]))
    return out


def _safe(
    complete: Callable[[discord.Interaction[Any], str], Awaitable[Choices]],
) -> Callable[[discord.Interaction[Any], str], Awaitable[Choices]]:
    """Never raise: a refusal (not your turn, no match here) becomes a one-line hint, and
    only a real failure is logged as an error."""

    async def safely(interaction: discord.Interaction[Any], current: str) -> Choices:
        try:
            return await complete(interaction, current)
        except (Refused, Unusable) as refusal:
            return hint(str(refusal))
        except Exception:
            log.exception("autocomplete failed", extra={"user": interaction.user.id})
            return []

    safely.__name__ = complete.__name__
    return safely


def hint(text: str) -> Choices:
    """A refusal's first sentence as the only choice: the user reads why there is none."""
    first = sentence(text.split(". ")[0].rstrip(".") + ".")
    return [app_commands.Choice(name=first[:100], value=first[:100])]


@_safe
async def action(interaction: discord.Interaction[Any], current: str) -> Choices:
    """The caller's legal actions that match what they typed (from the service), each
    shown in words and standing for its notation, which is what the command receives."""
    match = getattr(interaction.namespace, "match", None)
    actions = interaction.client.actions
    return _choices(await actions.choices(caller_of(interaction), match, current))


@_safe
async def match(interaction: discord.Interaction[Any], current: str) -> Choices:
    """The caller's live matches, for commands given in a DM."""
    return _choices(await interaction.client.actions.my_matches(interaction.user.id, current))


@_safe
async def strategy(interaction: discord.Interaction[Any], current: str) -> Choices:
    return _choices([s for s in STRATEGIES if s.startswith(current.strip().lower())])


@_safe
async def assassin(interaction: discord.Interaction[Any], current: str) -> Choices:
    """Where the caller's own Assassin may start, under the strategy they chose (R41)."""
    match = getattr(interaction.namespace, "match", None)
    actions = interaction.client.actions
    return _choices(await actions.assassin_squares(caller_of(interaction), match, current))


@_safe
async def terrain(interaction: discord.Interaction[Any], current: str) -> Choices:
    """The presets of the board chosen so far (short by default), and ``custom``."""
    board = getattr(interaction.namespace, "board", None) or "short"
    names = [*preset_names(board), CUSTOM]
    return _choices([n for n in names if n.startswith(current.strip().lower())])


@_safe
async def topic(interaction: discord.Interaction[Any], current: str) -> Choices:
    """Every game's rulings, pieces and powers holding what was typed, the game chosen (or
    the match's here) first."""
    game = getattr(interaction.namespace, "game", None)
    actions = interaction.client.actions
    return _choices(await guide.topics(actions, caller_of(interaction), current, game))


@_safe
async def tournament(interaction: discord.Interaction[Any], current: str) -> Choices:
    """The server's tournament names starting with what was typed."""
    cups = interaction.client.tournaments
    return _choices(await cups.names(interaction.guild_id, current.strip()))
