"""Reading what players type into command options: durations such as ``24h``, ``3d``,
``90m`` or ``1h30m``.

The reader is a single left-to-right scan (no regular expression that could backtrack), the
text is capped in length, and every number in it is bounded, so that no input can cost more
than a few microseconds or produce an infinite or absurd duration."""

from __future__ import annotations

import unicodedata

from bot.i18n import N_, _
from bot.service.texts import quote

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
MAX_TEXT = 40  # characters: "2 weeks 6 days 23 hours 59 minutes" fits
MAX_DIGITS = 6  # per number, before the decimal point
LONGEST = 366 * 86400.0  # no duration option means more than a year


class BadDuration(ValueError):
    """The text is not a duration; the message says how to write one."""


HOW = N_("write a number and a unit, e.g. `90m`, `24h`, `3d` or `1h30m`")


def parse_duration(text: str) -> float:
    """Seconds in ``text``: numbers each followed by a unit (``s``, ``m``/``min``, ``h``,
    ``d``, ``w``, or the words, singular or plural), e.g. ``24h``, ``3 days``, ``1h30m``.
    At most a year; callers check their own tighter bounds."""
    if len(text) > MAX_TEXT:
        raise BadDuration(
            _(
                "A duration is at most {most} characters long; yours has {length}: {how}.",
                most=MAX_TEXT,
                length=len(text),
                how=_(HOW),
            )
        )
    # NFKC: full-width digits and letters, as a Japanese input method types them, are read
    # as their ASCII forms
    cleaned = unicodedata.normalize("NFKC", text).strip().lower().replace(",", " ")
    total, i, parts = 0.0, 0, 0
    while True:
        i = _skip_spaces(cleaned, i)
        if i == len(cleaned):
            break
        number, i = _number(cleaned, i, text)
        i = _skip_spaces(cleaned, i)
        unit, i = _word(cleaned, i)
        seconds = UNITS.get(unit) or UNITS.get(unit.removesuffix("s"))
        if seconds is None:
            raise _not_a_duration(text)
        total += number * seconds
        parts += 1
    if not parts:
        raise _not_a_duration(text)
    if total > LONGEST:
        raise BadDuration(
            _("{text} is more than a year; no deadline here is that long.", text=quote(text))
        )
    return total


def _not_a_duration(text: str) -> BadDuration:
    return BadDuration(_("{text} is not a duration: {how}.", text=quote(text), how=_(HOW)))


def _skip_spaces(text: str, i: int) -> int:
    while i < len(text) and text[i].isspace():
        i += 1
    return i


def _number(text: str, i: int, original: str) -> tuple[float, int]:
    """The number at ``i`` (digits, optionally a point and more digits), and where it ends."""
    start = i
    while i < len(text) and "0" <= text[i] <= "9":
        i += 1
    whole = i - start
    if i < len(text) and text[i] == ".":
        i += 1
        while i < len(text) and "0" <= text[i] <= "9":
            i += 1
    if whole == 0:
        raise _not_a_duration(original)
    if whole > MAX_DIGITS:
        raise BadDuration(
            _(
                "{text} has a number too large for a duration: {how}.",
                text=quote(original),
                how=_(HOW),
            )
        )
    return float(text[start:i]), i


def _word(text: str, i: int) -> tuple[str, int]:
    start = i
    while i < len(text) and "a" <= text[i] <= "z":
        i += 1
    return text[start:i], i
