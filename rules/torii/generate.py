"""Every whole turn of a position (TI5-TI17).

A turn is generated in the order it is played: the Crane's flight or not, a tile, the
Kitsune's push or the Boar's Torii move with tile 1 or not, a complete path (precomputed per
start, opponent square and tile), the spread, then every sequence of build choices with the
builder's own Monkey flips.
"""

from __future__ import annotations

from .building import (
    build_options,
    do_build,
    do_flip,
    flip_options,
    spread,
)
from .state import Position, Setup
from .turn import (
    Work,
    begin,
    deer,
    do_fly,
    do_push,
    do_step,
    do_tile,
    do_torii,
    flight_options,
    paths,
    push_options,
    tile_options,
    torii_options,
)


def whole_turns(pos: Position, setup: Setup) -> list[Work]:
    """Every legal turn of the side to act, finished (one Work each), in a fixed order.
    Empty when the turn is a pass (TI8); not for a Monkey decision or a finished game."""
    if pos.owed or pos.winner() is not None:
        return []
    root = begin(pos, setup)
    starts = [root]
    for sq in flight_options(root):
        flown = root.copy()
        do_fly(flown, sq)
        starts.append(flown)
    out: list[Work] = []
    for start in starts:
        for tile in tile_options(start):
            chosen = start.copy()
            do_tile(chosen, tile)
            for ready in _first_moves(chosen):
                _walk(ready, out)
    return out


def _first_moves(work: Work) -> list[Work]:
    """The tile-1 powers used or not (TI13, TI17)."""
    out = [work]
    for step in push_options(work):
        pushed = work.copy()
        do_push(pushed, step.landing)
        out.append(pushed)
    for origin, to in torii_options(work):
        moved = work.copy()
        do_torii(moved, origin, to)
        out.append(moved)
    return out


def _walk(work: Work, out: list[Work]) -> None:
    for path in paths(work.here, work.spirits[work.them], work.tile, deer(work)):
        walked = work.copy()
        for step in path:
            do_step(walked, step)
        spread(walked)
        _build(walked, out)


def _build(work: Work, out: list[Work], flips: bool = True) -> None:
    """Every sequence of build choices from ``work`` (TI10), with the builder's own Monkey
    flips after each Torii (TI15) when ``flips``, otherwise without them."""
    options = build_options(work)
    if not options:
        out.append(work)
        return
    for option in options:
        built = work.copy()
        do_build(built, option)
        targets = flip_options(built) if flips else []
        if not targets:
            _build(built, out, flips)
        for target in targets:
            flipped = built.copy()
            do_flip(flipped, target)
            _build(flipped, out, flips)


def complete_builds(work: Work) -> list[Work]:
    """The ways to finish a turn whose text left builds out (no flips: none written)."""
    out: list[Work] = []
    _build(work, out, flips=False)
    return out
