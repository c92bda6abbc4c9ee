"""Reading a whole number typed, configured or stored as text, never raising: ASCII digits
alone, and at most so many. ``str.isdigit`` is no guard before ``int``: it takes "²" and
other digits ``int`` refuses (``ValueError`` where a refusal was meant), and unbounded it
lets through a number of any length."""

from __future__ import annotations


def whole_number(text: str, most_digits: int = 20) -> int | None:
    """``text`` as a whole number, or None unless it is 1 to ``most_digits`` ASCII digits."""
    if 0 < len(text) <= most_digits and text.isascii() and text.isdecimal():
        return int(text)
    return None
