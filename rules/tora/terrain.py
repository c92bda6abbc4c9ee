"""Terrain (R6, R31-R33): water, forest and high ground, parsed from R50's map text."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ..errors import echo
from ..words import Text, msg
from .geometry import (
    BOARD_SIZES,
    DIRECTION_VECTORS,
    DIRECTIONS,
    name,
    parse_square,
)
from .layouts import TERRAIN_PRESETS

NONE = "none"
CUSTOM = "custom"


@dataclass(frozen=True)
class Terrain:
    """The terrain of one board. ``hills`` maps a square to its downhill direction index."""

    size: int
    water: frozenset[int] = frozenset()
    forest: frozenset[int] = frozenset()
    hills: dict[int, int] = field(default_factory=dict)
    preset: str = NONE

    def __hash__(self) -> int:
        return hash((self.size, self.water, self.forest, tuple(sorted(self.hills.items()))))

    def step(self, a: int, b: int) -> tuple[bool, bool]:
        """(penalty, bonus) of one king step from ``a`` into ``b`` (R31, R33).

        Penalty: ``b`` is water or the step goes uphill (against the arrow of ``b``).
        Bonus: the step goes downhill (with the arrow of ``b``).
        """
        uphill = downhill = False
        arrow = self.hills.get(b)
        if arrow is not None:
            ah, av = DIRECTION_VECTORS[arrow]
            dot = ((b >> 5) - (a >> 5)) * ah + ((b & 31) - (a & 31)) * av
            uphill, downhill = dot < 0, dot > 0
        return (b in self.water or uphill), downhill

    def text(self) -> str:
        """The map in R50 syntax; empty for no terrain."""
        clauses = []
        if self.water:
            clauses.append("water " + " ".join(name(s) for s in _ordered(self.water)))
        if self.forest:
            clauses.append("forest " + " ".join(name(s) for s in _ordered(self.forest)))
        for sq in _ordered(self.hills):
            clauses.append(f"hill {name(sq)} {DIRECTIONS[self.hills[sq]]}")
        return "; ".join(clauses)


def _ordered(squares: Iterable[int]) -> list[int]:
    return sorted(squares, key=lambda s: (s & 31, s >> 5))


class TerrainError(ValueError):
    """A terrain map or preset name that cannot be used; its message (``args[0]``) a
    ``Text``."""


def _clause(number: int, reason: Text) -> TerrainError:
    return TerrainError(msg("clause {number}: {reason}", number=number, reason=reason))


MAX_MAP = 2000  # characters: every square of the long board named once is about 1,800


def parse_map(text: str, size: int, preset: str = CUSTOM) -> Terrain:
    """Parse R50 map text: ``water v4h6 v5h6; forest v3h3; hill v7h2 NE``."""
    if len(text) > MAX_MAP:
        raise TerrainError(
            msg(
                "a terrain map is at most {most} characters, not {length}",
                most=MAX_MAP,
                length=len(text),
            )
        )
    water: set[int] = set()
    forest: set[int] = set()
    hills: dict[int, int] = {}
    seen: dict[int, str] = {}
    for number, clause in enumerate(text.split(";"), start=1):
        words = clause.split()
        if not words:
            continue
        kind = words[0].lower()
        if kind in ("water", "forest"):
            if len(words) < 2:
                raise _clause(number, msg("'{kind}' needs at least one square", kind=kind))
            squares = [_square(w, size, number) for w in _join_squares(words[1:], number)]
            for sq in squares:
                _claim(seen, sq, kind, number)
            (water if kind == "water" else forest).update(squares)
        elif kind == "hill":
            if len(words) < 3:
                raise _clause(number, msg("write 'hill <square> <downhill direction>'"))
            *square_words, direction = words[1:]
            sq = _square("".join(square_words), size, number)
            if direction.upper() not in DIRECTIONS:
                raise _clause(
                    number,
                    msg(
                        "{text} is not a direction; use one of {directions}",
                        text=echo(direction),
                        directions=" ".join(DIRECTIONS),
                    ),
                )
            _claim(seen, sq, "hill", number)
            hills[sq] = DIRECTIONS.index(direction.upper())
        else:
            raise _clause(
                number,
                msg("{text} is not a terrain kind; use water, forest or hill", text=echo(words[0])),
            )
    return Terrain(size, frozenset(water), frozenset(forest), hills, preset)


def _join_squares(words: list[str], number: int) -> list[str]:
    """Rejoin squares written with inner spaces (``v 4 h 6``) into one word each."""
    out: list[str] = []
    for word in words:
        if out and not _looks_complete(out[-1]):
            out[-1] += word
        else:
            out.append(word)
    return out


def _looks_complete(word: str) -> bool:
    w = word.lower()
    return "v" in w and "h" in w and w[-1].isdigit()


def _square(word: str, size: int, number: int) -> int:
    try:
        return parse_square(word, size)
    except ValueError as exc:
        raise _clause(number, exc.args[0]) from None


def _claim(seen: dict[int, str], sq: int, kind: str, number: int) -> None:
    if sq in seen:
        raise _clause(
            number,
            msg("{square} is already {kind}; one terrain a square", square=name(sq), kind=seen[sq]),
        )
    seen[sq] = kind


def preset_names(board: str) -> list[str]:
    return [NONE, *sorted(TERRAIN_PRESETS[board])]


def preset(board: str, preset_name: str) -> Terrain:
    """A named preset for a board (``none`` included)."""
    size = BOARD_SIZES[board]
    key = preset_name.strip().lower()
    if key == NONE:
        return Terrain(size)
    if key not in TERRAIN_PRESETS[board]:
        raise TerrainError(
            msg(
                "no {board}-board terrain preset called {text}; choose one of {presets}",
                board=board,
                text=echo(preset_name),
                presets=", ".join(preset_names(board)),
            )
        )
    return parse_map(TERRAIN_PRESETS[board][key], size, key)
