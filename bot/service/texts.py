"""Small pieces of wording shared by the service's messages."""

from __future__ import annotations

from bot.i18n import _
from rules import Side
from rules.errors import echo as quote

__all__ = ["escape", "quote"]  # quote: a user's text in a message (``rules.errors.echo``)

TITLES = {Side.CHALLENGER: "Challenger", Side.OPPOSITION: "Opposition"}
CENTURY = 100 * 366 * 86400.0


MARKDOWN = frozenset("\\*_~`|>#-[]<")  # what Discord reads as markdown or a mention


def escape(name: str) -> str:
    """A name (a player's, a tournament's title) as plain text in a Discord message: its
    markdown characters escaped and mentions broken (``@everyone`` cannot ping, ``<@1>``
    shows as written), so a name is shown exactly as its owner wrote it, on one line."""
    flat = " ".join(name.split())
    out = "".join(f"\\{c}" if c in MARKDOWN else c for c in flat)
    return out.replace("@", "@\u200b")


def duration(seconds: float) -> str:
    """``5 min``, ``2 h 30 min``, ``3 days 4 h``: at most two units, rounded down. Absurd
    values (infinite, not a number, over a century) are named as such, never raised on."""
    if seconds != seconds or seconds > CENTURY:
        return "over a century"
    total = max(0, int(seconds))
    days, rest = divmod(total, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    units = [(days, "day", "days"), (hours, "h", "h"), (minutes, "min", "min"), (secs, "s", "s")]
    shown = [(n, one if n == 1 else many) for n, one, many in units if n]
    if not shown:
        return "0 s"
    return " ".join(f"{n} {unit}" for n, unit in shown[:2])


def moment(when: float, now: float) -> str:
    """A time as Discord timestamps, which every reader sees in their own time zone, with a
    live countdown: ``<t:1800000000:f> (<t:1800000000:R>)``. An absurd one reads "never"."""
    if not abs(when - now) <= CENTURY:
        return _("never")
    stamp = int(when)
    return f"<t:{stamp}:f> (<t:{stamp}:R>)"


def plural(count: int, one: str, many: str | None = None) -> str:
    return f"{count} {one if count == 1 else (many or one + 's')}"


def listing(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]
