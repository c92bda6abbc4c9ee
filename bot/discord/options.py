"""Bounds of the typed options: Discord refuses longer texts and numbers out of range before
they reach the bot (the readers behind them check again, as ``match_number`` does; no input
is trusted), and a user sees in the client how much an option takes."""

from __future__ import annotations

from discord import app_commands

from bot.discord.parsing import MAX_TEXT
from bot.discord.respond import Unusable
from rules.tora import MAX_MAP, MAX_SQUARE_TEXT

ActionText = app_commands.Range[str, 1, 400]  # an action, or a turn's actions with ';'
DurationText = app_commands.Range[str, 1, MAX_TEXT]  # 90m, 24h, 3d...
MatchPick = app_commands.Range[str, 1, 20]  # a match number, picked from a list
WordText = app_commands.Range[str, 1, 20]  # a strategy, a terrain preset
SquareText = app_commands.Range[str, 1, MAX_SQUARE_TEXT]  # an Assassin's start, or none
MapText = app_commands.Range[str, 1, MAX_MAP]  # a custom terrain map
TopicText = app_commands.Range[str, 1, 100]  # a ruling, piece or word to look up
NameText = app_commands.Range[str, 1, 60]  # a tournament's name
ReasonText = app_commands.Range[str, 1, 300]  # why an admin removes a result
MOST_MATCH = 2**53 - 1  # Discord's largest integer
MatchNumber = app_commands.Range[int, 1, MOST_MATCH]


def match_number(number: int) -> int:
    """``number`` if it can be a match's: a client that skips Discord's own check of the
    range may send any integer (it is not echoed back: it may have thousands of digits)."""
    if not 1 <= number <= MOST_MATCH:
        raise Unusable(
            f"That is not a match's number: one is a whole number from 1 to {MOST_MATCH}. "
            "`/tora games` lists yours."
        )
    return number
