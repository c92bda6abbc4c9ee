"""Bounds of the typed options: Discord refuses longer texts and numbers out of range before
they reach the bot (the readers behind them check again; no input is trusted), and a user
sees in the client how much an option takes."""

from __future__ import annotations

from discord import app_commands

from bot.frontend.parsing import MAX_TEXT
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
MatchNumber = app_commands.Range[int, 1, 2**53 - 1]  # Discord's largest integer
