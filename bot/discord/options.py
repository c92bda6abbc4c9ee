"""The typed options' bounds as discord.py declares them (``bot.app.options`` holds the
numbers): Discord refuses longer texts and numbers out of range before they reach the bot,
and a user sees in the client how much an option takes."""

from __future__ import annotations

from discord import app_commands

from bot.app import options as sizes

ActionText = app_commands.Range[str, 1, sizes.ACTION_TEXT]
DurationText = app_commands.Range[str, 1, sizes.DURATION_TEXT]
MatchPick = app_commands.Range[str, 1, sizes.MATCH_PICK]
WordText = app_commands.Range[str, 1, sizes.WORD_TEXT]
SquareText = app_commands.Range[str, 1, sizes.SQUARE_TEXT]
MapText = app_commands.Range[str, 1, sizes.MAP_TEXT]
TopicText = app_commands.Range[str, 1, sizes.TOPIC_TEXT]
NameText = app_commands.Range[str, 1, sizes.NAME_TEXT]
ReasonText = app_commands.Range[str, 1, sizes.REASON_TEXT]
MatchNumber = app_commands.Range[int, 1, sizes.MOST_MATCH]
