"""Small pieces of wording shared by the service's messages."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from bot.i18n import SOURCE, _, current, ngettext, speaking
from rules import Side
from rules.errors import echo as quote

# A bot's message holds 2,000 characters (4,000 is a Nitro user's): a post is kept under,
# with room for what a front end adds above it (a match's heading).
LONGEST_POST = 1900

__all__ = ["escape", "quote"]  # quote: a user's text in a message (``rules.errors.echo``)

TITLES = {Side.CHALLENGER: "Challenger", Side.OPPOSITION: "Opposition"}
CENTURY = 100 * 366 * 86400.0


MARKDOWN = frozenset("\\*_~`|>#-[]<")  # what Discord reads as markdown or a mention


@lru_cache(maxsize=4096)
def escape(name: str) -> str:
    """A name (a player's, a tournament's title) as plain text in a Discord message: its
    markdown characters escaped and mentions broken (``@everyone`` cannot ping, ``<@1>``
    shows as written), so a name is shown exactly as its owner wrote it, on one line. Kept:
    a turn's texts name its players a dozen times, a character at a time."""
    flat = " ".join(name.split())
    out = "".join(f"\\{c}" if c in MARKDOWN else c for c in flat)
    return out.replace("@", "@\u200b")


def duration(seconds: float, localized: bool = False) -> str:
    """``5 min``, ``2 h 30 min``, ``3 days 4 h``: at most two units, rounded down. Absurd
    values (infinite, not a number, over a century) are named as such, never raised on.
    In English unless ``localized`` (then in the current language): the service's posts
    and DMs not yet converted call it, whoever's command they come from."""
    with speaking(current() if localized else SOURCE):
        return _duration(seconds)


def _duration(seconds: float) -> str:
    if seconds != seconds or seconds > CENTURY:
        return _("over a century")
    total = max(0, int(seconds))
    days, rest = divmod(total, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    shown = [(unit, n) for unit, n in enumerate((days, hours, minutes, secs)) if n]
    if not shown:
        return _unit(3, 0)
    return " ".join(_unit(unit, n) for unit, n in shown[:2])


def _unit(unit: int, n: int) -> str:
    """``n`` days, hours, minutes or seconds (``unit`` 0 to 3), in the current language."""
    if unit == 0:
        return ngettext("{n} day", "{n} days", n)
    if unit == 1:
        return ngettext("{n} h", "{n} h", n)
    if unit == 2:
        return ngettext("{n} min", "{n} min", n)
    return ngettext("{n} s", "{n} s", n)


def moment(when: float, now: float, localized: bool = False) -> str:
    """A time as Discord timestamps, which every reader sees in their own time zone, with a
    live countdown: ``<t:1800000000:f> (<t:1800000000:R>)``. An absurd one reads "never"
    (in the current language if ``localized``, as ``duration``)."""
    if not abs(when - now) <= CENTURY:
        with speaking(current() if localized else SOURCE):
            return _("never")
    stamp = int(when)
    return f"<t:{stamp}:f> (<t:{stamp}:R>)"


def listing(items: list[str], localized: bool = False) -> str:
    """``a``, ``a and b``, ``a, b and c`` (in the current language if ``localized``, as
    ``duration``)."""
    if len(items) <= 1:
        return "".join(items)
    with speaking(current() if localized else SOURCE):
        return _("{first} and {last}", first=", ".join(items[:-1]), last=items[-1])


def alternatives(items: list[str], localized: bool = False) -> str:
    """``a``, ``a or b``, ``a, b or c`` (in the current language if ``localized``, as
    ``duration``)."""
    if len(items) <= 1:
        return "".join(items)
    with speaking(current() if localized else SOURCE):
        return _("{first} or {last}", first=", ".join(items[:-1]), last=items[-1])


def clipped(head: str, lines: Sequence[tuple[str, bool]]) -> str:
    """``head`` and as many whole ``lines`` as fit in one Discord message
    (``LONGEST_POST``), then how many boards (or standings rows) were left out.
    ``lines`` are (line, is a board or row: counted)."""
    left = [0] * (len(lines) + 1)  # boards from each line on
    for i in range(len(lines) - 1, -1, -1):
        left[i] = left[i + 1] + lines[i][1]
    text = head
    for i, (line, _board) in enumerate(lines):
        more = "\n" + _("...and {more} more", more=left[i]) if left[i] else ""
        if len(text) + 1 + len(line) + len(more) > LONGEST_POST:
            return text + more
        text += "\n" + line
    return text
