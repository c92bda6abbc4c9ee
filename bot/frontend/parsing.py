"""Reading what players type into command options: durations such as ``24h``, ``3d``,
``90m`` or ``1h30m``."""

from __future__ import annotations

import re

UNITS = {
    "s": 1,
    "sec": 1,
    "second": 1,
    "m": 60,
    "min": 60,
    "minute": 60,
    "h": 3600,
    "hr": 3600,
    "hour": 3600,
    "d": 86400,
    "day": 86400,
    "w": 604800,
    "week": 604800,
}
_PART = re.compile(r"(\d+(?:\.\d+)?)\s*([a-z]+)")


class BadDuration(ValueError):
    """The text is not a duration; the message says how to write one."""


def parse_duration(text: str) -> float:
    """Seconds in ``text``: numbers each followed by a unit (``s``, ``m``/``min``, ``h``,
    ``d``, ``w``, or the words, singular or plural), e.g. ``24h``, ``3 days``, ``1h30m``."""
    cleaned = text.strip().lower().replace(",", " ")
    total, end = 0.0, 0
    for found in _PART.finditer(cleaned):
        if cleaned[end : found.start()].strip():
            break
        unit = found[2]
        seconds = UNITS.get(unit) or UNITS.get(unit.rstrip("s"))
        if seconds is None:
            break
        total += float(found[1]) * seconds
        end = found.end()
    if not cleaned or end == 0 or cleaned[end:].strip():
        raise BadDuration(
            f"`{text}` is not a duration: write a number and a unit, e.g. `90m`, `24h`, `3d` "
            "or `1h30m`."
        )
    return total
