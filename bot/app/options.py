"""Bounds of the options a caller types: a front end keeps them before a request reaches the
application layer (Discord refuses longer texts and numbers out of range, and shows how much
an option takes), and the readers behind them check again, as ``match_number`` does: no
input is trusted."""

from __future__ import annotations

from bot.i18n import _, slash
from rules import GAMES

from .answers import Unusable
from .parsing import MAX_TEXT


def longest(name: str, default: int) -> int:
    """The longest text any game takes for its free-text option or answer ``name``
    (``GameType.text_bounds``: TORA's terrain map and Assassin square), else ``default``."""
    return max(
        (kind.text_bounds[name] for kind in GAMES.values() if name in kind.text_bounds),
        default=default,
    )


ACTION_TEXT = 400  # an action, or a turn's actions with ';'
DURATION_TEXT = MAX_TEXT  # 90m, 24h, 3d...
MATCH_PICK = 20  # a match number, picked from a list
WORD_TEXT = 20  # a strategy, a terrain preset
SQUARE_TEXT = longest("assassin", 24)  # an Assassin's start, or none
MAP_TEXT = longest("terrain_map", 2000)  # a custom terrain map
TOPIC_TEXT = 100  # a ruling, piece or word to look up
NAME_TEXT = 60  # a tournament's name
REASON_TEXT = 300  # why an admin removes a result
MOST_MATCH = 2**53 - 1  # the largest match number asked for (Discord's largest integer)


def match_number(number: int) -> int:
    """``number`` if it can be a match's: a client that skips the front end's own check of the
    range may send any integer (it is not echoed back: it may have thousands of digits)."""
    if not 1 <= number <= MOST_MATCH:
        raise Unusable(
            _(
                "That is not a match's number: one is a whole number from 1 to {most}. "
                "{command} lists yours.",
                most=MOST_MATCH,
                command=slash("tora games"),
            )
        )
    return number
