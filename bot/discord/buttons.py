"""Persistent buttons: Accept and Decline on a challenge, End turn, Undo and Preview on the
turn prompt. Each button's custom id holds everything needed to act on it after a restart
(``tora:<verb>:<channel>:m<match>t<turn>``), so discord.py's DynamicItem rebuilds it
from any click. The match and turn are public facts (never a counter that staging or undoing
moves on, which would let the holder count hidden actions); they go to the service as
``expect``, which refuses a button made for another match or a turn that has ended."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import discord

from bot.service import Stamp

from .callers import caller_of
from .panel import open_panel
from .respond import Answer, run

VERBS: dict[str, tuple[str, discord.ButtonStyle]] = {
    "accept": ("Accept", discord.ButtonStyle.success),
    "decline": ("Decline", discord.ButtonStyle.danger),
    "takeback": ("Take back", discord.ButtonStyle.secondary),
    "play": ("Play", discord.ButtonStyle.success),
    "end": ("End turn", discord.ButtonStyle.primary),
    "undo": ("Undo", discord.ButtonStyle.secondary),
    "preview": ("Preview", discord.ButtonStyle.secondary),
    "hint": ("Hint", discord.ButtonStyle.secondary),
    "hinted": ("Play this", discord.ButtonStyle.success),  # a hint's turn, staged
    "draw": ("Accept the draw", discord.ButtonStyle.success),
    "offer": ("Propose a draw", discord.ButtonStyle.secondary),  # a turn post, a game going nowhere
    "reset": ("Accept the reset", discord.ButtonStyle.success),
    "pause": ("Agree to pause", discord.ButtonStyle.success),
    "resign": ("Resign", discord.ButtonStyle.danger),
    "abort": ("Abort", discord.ButtonStyle.danger),
    "keep": ("Keep playing", discord.ButtonStyle.secondary),
}
_VERB = r"tora:(?P<verb>" + "|".join(VERBS) + r")"
TEMPLATE = _VERB + r":(?P<channel>\d{1,20}):(?:m(?P<match>\d{1,20})t(?P<turn>\d{1,9})|-)"
# Buttons posted by earlier versions: their guild, channel and the match's version.
LEGACY_TEMPLATE = _VERB + r":\d{1,20}:\d{1,20}:(?:\d{1,20}|-)"
CHALLENGE = ("accept", "decline")
TURN = ("play", "end", "undo", "preview")
LOOKING = ("preview", "keep")  # buttons that change nothing carry no stamp


@dataclass(frozen=True)
class Press:
    """What a button asks for: ``verb`` on the match in ``channel_id``, for the match and
    turn of ``stamp`` (None: whatever state it is in, for buttons that only look)."""

    verb: str
    channel_id: int
    stamp: Stamp | None

    @property
    def custom_id(self) -> str:
        stamp = self.stamp
        tail = "-" if stamp is None else f"m{stamp.match}t{stamp.turn}"
        return f"tora:{self.verb}:{self.channel_id}:{tail}"

    @classmethod
    def parse(cls, custom_id: str) -> Press | None:
        found = re.fullmatch(TEMPLATE, custom_id)
        return None if found is None else cls.from_match(found)

    @classmethod
    def from_match(cls, found: re.Match[str]) -> Press:
        stamp = None if found["match"] is None else Stamp(int(found["match"]), int(found["turn"]))
        return cls(found["verb"], int(found["channel"]), stamp)


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
        caller = caller_of(interaction)
        press = self.press
        if press.verb == "play" and press.stamp is not None:
            playing = interaction.client.playing
            stamp = press.stamp
            await open_panel(interaction, lambda: playing.open_at(caller, press.channel_id, stamp))
            return
        actions = interaction.client.actions
        await run(interaction, lambda: actions.press(caller, press), private=True)


class LegacyButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=LEGACY_TEMPLATE):
    """A button from before an upgrade: answered (never left to fail), never acted on."""

    def __init__(self, custom_id: str) -> None:
        super().__init__(discord.ui.Button(label="Old button", custom_id=custom_id))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LegacyButton:
        return cls(match.string)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        async def work() -> Answer:
            return Answer(
                "This button is from an older version of the bot, so nothing was done. Use the "
                "newest message, or the command itself (`/tora board` shows the match)."
            )

        await run(interaction, work, private=True)


def buttons(verbs: tuple[str, ...], channel_id: int, stamp: Stamp | None) -> discord.ui.View:
    """A view of ``verbs``' buttons for the match in ``channel_id`` at ``stamp`` (the
    buttons that only look carry no stamp)."""
    view = discord.ui.View(timeout=None)
    for verb in verbs:
        view.add_item(ToraButton(Press(verb, channel_id, None if verb in LOOKING else stamp)))
    return view
