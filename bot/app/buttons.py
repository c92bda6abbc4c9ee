"""The buttons answers offer, as data: a verb on the match of a channel, for the match and
turn of a stamp (``Press``), with its label and how it is meant (``VERBS``). Each press has
one custom id, ``tora:<verb>:<channel>:m<match>t<turn>b<back>``, that holds everything needed
to act on it after a restart, so a front end rebuilds it from any click. The match, the turn
and the turns taken back (``b``: left out where the stamp does not hold it, as in ids posted
before it was kept) are public facts (never a counter that staging or undoing moves on,
which would let the holder count hidden actions); they go to the service as ``expect``,
which refuses a button made for another match, a turn that has ended, or one taken back
since."""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.i18n import N_, _
from bot.service import PROPOSAL_KINDS, Stamp
from bot.service.agreements import DECLINE

# verb -> (label, style): primary (the step forward), success, danger or secondary; a label
# is worded in the reader's language where its button is built (``label``)
VERBS: dict[str, tuple[str, str]] = {
    "accept": (N_("Accept"), "success"),
    "decline": (N_("Decline"), "danger"),
    "takeback": (N_("Take back"), "secondary"),
    "play": (N_("Play"), "success"),
    "end": (N_("End turn"), "primary"),
    "undo": (N_("Undo"), "secondary"),
    "preview": (N_("Preview"), "secondary"),
    "hint": (N_("Hint"), "secondary"),
    "hinted": (N_("Play this"), "success"),  # a hint's turn, staged
    "draw": (N_("Accept the draw"), "success"),
    "offer": (N_("Propose a draw"), "secondary"),  # a turn post, a game going nowhere
    "reset": (N_("Accept the reset"), "success"),
    "pause": (N_("Agree to pause"), "success"),
    "resume": (N_("Resume the clock"), "primary"),  # a paused turn's notice
    "rewind": (N_("Accept the takeback"), "success"),
    "askback": (N_("Ask to take it back"), "secondary"),  # a casual match's ended turn
    "plan": (N_("Plan a reply"), "secondary"),  # an ended turn: the plan panel (bot.app.planning)
    "resign": (N_("Resign"), "danger"),
    "abort": (N_("Abort"), "danger"),
    "keep": (N_("Keep playing"), "secondary"),
    # a Swiss or round robin tournament's announcement (the "channel" is the tournament's id)
    "enter": (N_("Join"), "success"),
    "quit": (N_("Leave"), "secondary"),
    "give": (N_("Give +1 day"), "secondary"),  # a turn post: the waiting player's gift of time
    "rematch": (N_("Rematch"), "primary"),  # the end post: a challenge, the colours swapped
    "away": (N_("Away for a day"), "secondary"),  # a reminder: an away day from now
    "back": (N_("I am back"), "secondary"),  # an away's answer: come back early
}
# a proposal's Decline: that proposal alone (``decline`` declines every one standing)
VERBS |= {DECLINE + kind: (N_("Decline"), "danger") for kind in PROPOSAL_KINDS}
_VERB = r"tora:(?P<verb>" + "|".join(VERBS) + r")"
STAMP = r"m(?P<match>\d{1,20})t(?P<turn>\d{1,9})(?:b(?P<back>\d{1,9}))?"  # ``stamp_id``
TEMPLATE = _VERB + r":(?P<channel>\d{1,20}):(?:" + STAMP + r"|-)"
# Buttons posted by earlier versions: their guild, channel and the match's version.
LEGACY_TEMPLATE = _VERB + r":\d{1,20}:\d{1,20}:(?:\d{1,20}|-)"
# The largest number a custom id's channel, match or event may be: past every Discord
# snowflake, and the most the store keeps (SQLite's and Postgres' 64-bit integers)
MOST_NUMBER = 2**63 - 1
CHALLENGE = ("accept", "decline")
LOOKING = ("preview", "keep", "back")  # buttons that need no match's turn carry no stamp
OLD_BUTTON = N_(
    "This button is from an older version of the bot, so nothing was done. Use the newest "
    "message, or the command itself ({command} shows the match)."
)


def label(verb: str) -> str:
    """The label of ``verb``'s button in the current language (a button is worded when it
    is built: inside the language of the message it goes with)."""
    return _(VERBS[verb][0])


@dataclass(frozen=True)
class Press:
    """What a button asks for: ``verb`` on the match in ``channel_id``, for the match and
    turn of ``stamp`` (None: whatever state it is in, for buttons that only look)."""

    verb: str
    channel_id: int
    stamp: Stamp | None

    @property
    def custom_id(self) -> str:
        tail = "-" if self.stamp is None else stamp_id(self.stamp)
        return f"tora:{self.verb}:{self.channel_id}:{tail}"

    @property
    def label(self) -> str:
        return label(self.verb)

    @property
    def style(self) -> str:
        return VERBS[self.verb][1]

    @classmethod
    def parse(cls, custom_id: str) -> Press | None:
        found = re.fullmatch(TEMPLATE, custom_id)
        return None if found is None else cls.from_match(found)

    @classmethod
    def from_match(cls, found: re.Match[str]) -> Press:
        stamp = None if found["match"] is None else stamp_of(found)
        return cls(found["verb"], number(found["channel"]), stamp)


def number(digits: str) -> int:
    """A number of a custom id (its templates take up to 20 digits): one past
    ``MOST_NUMBER``, which no channel, match or event can be, is read as 0, which none is
    either, so its component is answered as stale or unknown (no match there, no such
    event) rather than failing in the store. Every front end reads custom ids with it."""
    value = int(digits)
    return value if value <= MOST_NUMBER else 0


def stamp_id(stamp: Stamp) -> str:
    """``stamp`` in a custom id (``STAMP``): ``m<match>t<turn>``, then ``b<back>`` if it
    holds the turns taken back."""
    back = "" if stamp.back is None else f"b{stamp.back}"
    return f"m{stamp.match}t{stamp.turn}{back}"


def stamp_of(found: re.Match[str]) -> Stamp:
    """The stamp a custom id holds (``STAMP`` matched): without ``b``, one whose takebacks
    are not compared (an id made before they were kept)."""
    back = None if found["back"] is None else int(found["back"])
    return Stamp(number(found["match"]), int(found["turn"]), back)


def presses(verbs: tuple[str, ...], channel_id: int, stamp: Stamp | None) -> tuple[Press, ...]:
    """``verbs``' buttons for the match in ``channel_id`` at ``stamp`` (the buttons that only
    look carry no stamp)."""
    return tuple(Press(verb, channel_id, None if verb in LOOKING else stamp) for verb in verbs)
