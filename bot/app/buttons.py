"""The buttons answers offer, as data: a verb on the match of a channel, for the match and
turn of a stamp (``Press``), with its label and how it is meant (``VERBS``). Each press has
one custom id, ``tora:<verb>:<channel>:m<match>t<turn>``, that holds everything needed to act
on it after a restart, so a front end rebuilds it from any click. The match and turn are
public facts (never a counter that staging or undoing moves on, which would let the holder
count hidden actions); they go to the service as ``expect``, which refuses a button made for
another match or a turn that has ended."""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.service import Stamp

# verb -> (label, style): primary (the step forward), success, danger or secondary
VERBS: dict[str, tuple[str, str]] = {
    "accept": ("Accept", "success"),
    "decline": ("Decline", "danger"),
    "takeback": ("Take back", "secondary"),
    "play": ("Play", "success"),
    "end": ("End turn", "primary"),
    "undo": ("Undo", "secondary"),
    "preview": ("Preview", "secondary"),
    "hint": ("Hint", "secondary"),
    "hinted": ("Play this", "success"),  # a hint's turn, staged
    "draw": ("Accept the draw", "success"),
    "offer": ("Propose a draw", "secondary"),  # a turn post, a game going nowhere
    "reset": ("Accept the reset", "success"),
    "pause": ("Agree to pause", "success"),
    "rewind": ("Accept the takeback", "success"),
    "askback": ("Ask to take it back", "secondary"),  # an unrated match's ended turn
    "plan": ("Plan a reply", "secondary"),  # an ended turn: the plan panel (bot.app.planning)
    "resign": ("Resign", "danger"),
    "abort": ("Abort", "danger"),
    "keep": ("Keep playing", "secondary"),
    # a Swiss or round robin tournament's announcement (the "channel" is the tournament's id)
    "enter": ("Join", "success"),
    "quit": ("Leave", "secondary"),
    "give": ("Give +1 day", "secondary"),  # a turn post: the waiting player's gift of time
    "rematch": ("Rematch", "primary"),  # the end post: a challenge, the colours swapped
    "away": ("Away for a day", "secondary"),  # a reminder: an away day from now
    "back": ("I am back", "secondary"),  # an away's answer: come back early
}
_VERB = r"tora:(?P<verb>" + "|".join(VERBS) + r")"
TEMPLATE = _VERB + r":(?P<channel>\d{1,20}):(?:m(?P<match>\d{1,20})t(?P<turn>\d{1,9})|-)"
# Buttons posted by earlier versions: their guild, channel and the match's version.
LEGACY_TEMPLATE = _VERB + r":\d{1,20}:\d{1,20}:(?:\d{1,20}|-)"
CHALLENGE = ("accept", "decline")
TURN = ("play", "end", "undo", "preview")
LOOKING = ("preview", "keep", "back")  # buttons that need no match's turn carry no stamp
OLD_BUTTON = (
    "This button is from an older version of the bot, so nothing was done. Use the newest "
    "message, or the command itself (`/tora board` shows the match)."
)


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

    @property
    def label(self) -> str:
        return VERBS[self.verb][0]

    @property
    def style(self) -> str:
        return VERBS[self.verb][1]

    @classmethod
    def parse(cls, custom_id: str) -> Press | None:
        found = re.fullmatch(TEMPLATE, custom_id)
        return None if found is None else cls.from_match(found)

    @classmethod
    def from_match(cls, found: re.Match[str]) -> Press:
        stamp = None if found["match"] is None else Stamp(int(found["match"]), int(found["turn"]))
        return cls(found["verb"], int(found["channel"]), stamp)


def presses(verbs: tuple[str, ...], channel_id: int, stamp: Stamp | None) -> tuple[Press, ...]:
    """``verbs``' buttons for the match in ``channel_id`` at ``stamp`` (the buttons that only
    look carry no stamp)."""
    return tuple(Press(verb, channel_id, None if verb in LOOKING else stamp) for verb in verbs)
