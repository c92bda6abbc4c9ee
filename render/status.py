"""What every game's images show that a view does not hold: the player names and the
deadline (``StatusInfo``), the language of the image's own words (``words_of``), which image
of a view is drawn (``Mode``), and each side's mark."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Protocol

from PIL import ImageDraw

from rules.sides import Side

from . import palette as pal
from .fonts import Font, fit
from .words import ENGLISH, Words


class Mode(Enum):
    """Which image of a view is drawn: what everyone sees, a player's own (with their hidden
    Assassin), or a preview of the acting player's staged actions."""

    PUBLIC = "public"
    PRIVATE = "private"
    PREVIEW = "preview"


class StatusFields(Protocol):
    """What the images show that a View does not hold: ``StatusInfo``, or any object with
    these three attributes (such as the match service's own status record). It may have a
    ``headline`` too (``headline_of``), and ``words``, the language of the image's own words
    (``words_of``)."""

    @property
    def challenger(self) -> str: ...

    @property
    def opposition(self) -> str: ...

    @property
    def deadline(self) -> str: ...


@dataclass(frozen=True)
class StatusInfo:
    """Player names and the deadline. ``deadline`` is printed as given (for example
    ``"due in 5 h"``, in the reader's language), so the image never depends on the clock;
    ``words`` the image's own words (its reader's language)."""

    challenger: str = "Challenger"
    opposition: str = "Opposition"
    deadline: str = ""
    headline: str = ""
    words: Words = ENGLISH


def headline_of(info: StatusFields) -> str:
    """What to say in place of who is to act, if ``info`` says anything: before the game
    (a player's setup drawn on their board) and after a match called off nobody is.
    Optional, so that any object with the three fields still does."""
    return str(getattr(info, "headline", ""))


def words_of(info: StatusFields) -> Words:
    """The language an image of ``info`` is drawn in: its ``words``, English when it has
    none (so that any object with the three fields still does)."""
    words = getattr(info, "words", None)
    return ENGLISH if words is None else words


def player_name(info: StatusFields, side: Side) -> str:
    return info.challenger if side == Side.CHALLENGER else info.opposition


def deadline_parts(info: StatusFields, waiting: Side, face: Font, room: int) -> list[str]:
    """``info``'s deadline as a sentence's part (none without one), the ``waiting`` player's
    name in it (their time left on a bank or increment clock follows it) cut to ``room``
    pixels as the sentence's other names are, so that the time after it still shows."""
    name, deadline = player_name(info, waiting), info.deadline
    if not deadline:
        return []
    cut = fit(name, face, room)
    if name and cut != name:  # a long name: no other part of the deadline is as long
        before, found, after = deadline.rpartition(name)
        deadline = before + cut + after if found else deadline
    return [deadline]


def side_icon(draw: ImageDraw.ImageDraw, side: Side, x: float, y: float, r: float) -> None:
    """The side's mark (amber disc or blue square) centred on (x, y)."""
    box = (x - r, y - r, x + r, y + r)
    if side == Side.CHALLENGER:
        draw.ellipse(box, fill=pal.FILL[side], outline=pal.EDGE[side])
    else:
        draw.rounded_rectangle(box, r * 0.3, fill=pal.FILL[side], outline=pal.EDGE[side])
