"""What a player's own picture points out while they choose an action: the piece they picked,
framed, and a letter on each square one of its actions goes to (A, B, C...), the same letters
that start the action menu's options. Every game draws them the same way; only where a square
(or a hand piece) is on its image is the game's own (``Locate``).

Letters and frames are drawn in black and white only, which stand out on every board colour
and are never confused with a side's colours, a staged action's numbered badges or a hidden
Assassin's purple."""

from __future__ import annotations

from collections.abc import Callable, Collection
from functools import lru_cache
from typing import Protocol

from PIL import Image, ImageDraw

from . import palette as pal
from .compose import paste_rgba
from .fonts import font

SUPERSAMPLE = 4
Cell = tuple[int, int, int]  # the top-left corner of a square's inside and its size, pixels
Locate = Callable[[str], Cell | None]  # a square's (or hand piece's) cell; None: not drawn


class MarkFields(Protocol):
    """What is pointed out (any object with these fields will do, such as the match
    service's own): ``picked``, where the picked piece is (a square, or a hand as
    ``rules.protocol.Touch`` names it), "" for none; ``letters``, (square, letter) for each
    square an action goes."""

    @property
    def picked(self) -> str: ...

    @property
    def letters(self) -> tuple[tuple[str, str], ...]: ...


def point_out(
    image: Image.Image, marks: MarkFields | None, locate: Locate, busy: Collection[str] = ()
) -> None:
    """Draw ``marks`` over a finished board image (in the palette): a letter in the middle
    of an empty square, in the bottom-right corner of a square with a piece (``busy``)."""
    if marks is None:
        return
    cell = locate(marks.picked) if marks.picked else None
    if cell is not None:
        x, y, size = cell
        paste_rgba(image, _frame(size), (x, y))
    for square, letter in marks.letters:
        cell = locate(square)
        if cell is None:
            continue
        x, y, size = cell
        tag = _tag(letter, size)
        if square in busy:
            paste_rgba(image, tag, (x + size - tag.width, y + size - tag.height))
        else:
            paste_rgba(image, tag, (x + (size - tag.width) // 2, y + (size - tag.height) // 2))


@lru_cache(maxsize=8)
def _frame(size: int) -> Image.Image:
    """A square frame just inside a cell: white with a thin black edge either side."""
    k = SUPERSAMPLE
    image = Image.new("RGBA", (size * k, size * k), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    width = max(3, size // 12) * k
    draw.rectangle((0, 0, size * k - 1, size * k - 1), outline=pal.BLACK, width=width + 2 * k)
    inset = k
    draw.rectangle(
        (inset, inset, size * k - 1 - inset, size * k - 1 - inset), outline=pal.WHITE, width=width
    )
    return image.reduce(k)


@lru_cache(maxsize=128)
def _tag(letter: str, size: int) -> Image.Image:
    """A letter in a black rounded box with a white edge, for a cell's bottom-right corner."""
    k = SUPERSAMPLE
    height = max(14, round(size * 0.46))
    face = font(round(height * 0.72) * k, bold=True)
    text_width = face.getlength(letter)
    width = max(height * k, round(text_width + height * k * 0.5))
    image = Image.new("RGBA", (width, height * k), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(
        (0, 0, width - 1, height * k - 1),
        radius=height * k // 3,
        fill=pal.BLACK,
        outline=pal.WHITE,
        width=k,
    )
    draw.text((width / 2, height * k / 2 + k / 2), letter, pal.WHITE, face, anchor="mm")
    return image.reduce(k)
