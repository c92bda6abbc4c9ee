"""Small pieces of wording shared by the service's messages."""

from __future__ import annotations

import time

from rules import Side

TITLES = {Side.CHALLENGER: "Challenger", Side.OPPOSITION: "Opposition"}


def duration(seconds: float) -> str:
    """``5 min``, ``2 h 30 min``, ``3 days 4 h``: at most two units, rounded down."""
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
    """An absolute time in UTC with how far off it is: ``2027-01-15 08:00 UTC (in 24 h)``."""
    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(when))
    if when >= now:
        return f"{stamp} (in {duration(when - now)})"
    return f"{stamp} ({duration(now - when)} ago)"


def plural(count: int, one: str, many: str | None = None) -> str:
    return f"{count} {one if count == 1 else (many or one + 's')}"


def listing(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]
