"""Persistent buttons: Accept and Decline on a challenge, End turn, Undo and Preview on the
turn prompt. Each button's custom id holds everything needed to act on it after a restart
(``tora:<verb>:<guild>:<channel>:<stamp>``), so discord.py's DynamicItem rebuilds it from any
click; the stamp goes to the service as ``expect``, which refuses a button pressed on a
match that has moved on since."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import discord

from .callers import caller_of
from .respond import run

VERBS: dict[str, tuple[str, discord.ButtonStyle]] = {
    "accept": ("Accept", discord.ButtonStyle.success),
    "decline": ("Decline", discord.ButtonStyle.danger),
    "takeback": ("Take back", discord.ButtonStyle.secondary),
    "end": ("End turn", discord.ButtonStyle.primary),
    "undo": ("Undo", discord.ButtonStyle.secondary),
    "preview": ("Preview", discord.ButtonStyle.secondary),
}
NO_STAMP = "-"
TEMPLATE = (
    r"tora:(?P<verb>" + "|".join(VERBS) + r"):(?P<guild>\d+):(?P<channel>\d+)"
    r":(?P<stamp>\d+|" + NO_STAMP + ")"
)
CHALLENGE = ("accept", "decline")
TURN = ("end", "undo", "preview")


@dataclass(frozen=True)
class Press:
    """What a button asks for: ``verb`` on the match in ``channel_id``, as it was at
    ``stamp`` (None: whatever state it is in, for buttons that only look)."""

    verb: str
    guild_id: int
    channel_id: int
    stamp: int | None

    @property
    def custom_id(self) -> str:
        stamp = NO_STAMP if self.stamp is None else str(self.stamp)
        return f"tora:{self.verb}:{self.guild_id}:{self.channel_id}:{stamp}"

    @classmethod
    def parse(cls, custom_id: str) -> Press | None:
        found = re.fullmatch(TEMPLATE, custom_id)
        return None if found is None else cls.from_match(found)

    @classmethod
    def from_match(cls, found: re.Match[str]) -> Press:
        stamp = found["stamp"]
        return cls(
            found["verb"],
            int(found["guild"]),
            int(found["channel"]),
            None if stamp == NO_STAMP else int(stamp),
        )


class ToraButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    def __init__(self, press: Press) -> None:
        label, style = VERBS[press.verb]
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=press.custom_id))
        self.press = press

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ToraButton:
        return cls(Press.from_match(match))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        actions = interaction.client.actions
        caller = caller_of(interaction)
        await run(interaction, lambda: actions.press(caller, self.press), private=True)


def buttons(
    verbs: tuple[str, ...], guild_id: int, channel_id: int, stamp: int | None
) -> discord.ui.View:
    """A view of ``verbs``' buttons for the match in ``channel_id`` at ``stamp``."""
    view = discord.ui.View(timeout=None)
    for verb in verbs:
        view.add_item(ToraButton(Press(verb, guild_id, channel_id, stamp)))
    return view
