"""Every number a command receives, checked against the range its option declares: Discord's
client keeps to the ranges, but a client that skips that check may send any integer (one of
thousands of digits), and a number out of range must be refused by name, not fail deeper."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import discord
from discord import app_commands

from bot.i18n import _
from bot.i18n import option as option_name


def out_of_range(interaction: discord.Interaction[Any]) -> str | None:
    """The refusal naming the first numeric option outside its declared range, if any."""
    command = getattr(interaction, "command", None)  # (a test's stand-in may have neither)
    data = getattr(interaction, "data", None)
    if not isinstance(command, app_commands.Command) or not isinstance(data, Mapping):
        return None
    for option in _given(data.get("options", [])):
        value = option.get("value")
        if isinstance(value, bool) or not isinstance(value, int | float):
            continue
        parameter = command.get_parameter(str(option.get("name", "")))
        if parameter is None:
            continue
        low, high = parameter.min_value, parameter.max_value
        if (low is not None and value < low) or (high is not None and value > high):
            return _(
                "`{option}` takes a whole number from {low} to {high}.",
                option=option_name(parameter.display_name),
                low=low,
                high=high,
            )
    return None


def _given(options: list[Any]) -> Iterator[Mapping[str, Any]]:
    """The options given a value, under any subcommand or group."""
    for option in options:
        if not isinstance(option, Mapping):
            continue
        if "options" in option:
            yield from _given(option["options"])
        elif "value" in option:
            yield option
