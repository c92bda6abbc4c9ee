"""After the steps: spreading Followers (TI9) and building Torii (TI10), with the Tatsu's
sweep (TI16) and the builder's own Monkey flips (TI15)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import NamedTuple

from rules.sides import Side
from rules.turn import ENDINGS
from rules.words import msg

from .board import LINES, lanes
from .state import EMPTY, MONKEY, TATSU, follower, gate, has_torii
from .turn import BuildLog, Work

WIN_FOLLOWERS = "all 9 Followers placed"  # TI9
WIN_TORII = "all 4 Torii built"  # TI10
WON_WORDS = {WIN_FOLLOWERS: msg("all 9 Followers placed"), WIN_TORII: msg("all 4 Torii built")}
REASONS = {**ENDINGS, **WON_WORDS}  # every reason a Torii game ends for, worded


def spread(work: Work) -> None:
    """TI9: a Follower on each landing square, in order, unless it holds the player's own
    Follower or any Torii; an opponent's Follower there goes back to its owner. The 9th
    placed wins at once."""
    mine, theirs = follower(work.me), follower(work.them)
    cells = work.cells
    for sq in work.landings:
        cell = cells[sq]
        if cell == mine or has_torii(cell):
            continue
        if cell == theirs:
            work.replaced.append(sq)
        cells[sq] = mine
        work.placed.append(sq)
        if on_board(cells, work.me) == 9:
            work.won = WIN_FOLLOWERS
            return


def on_board(cells: bytearray, side: Side) -> int:
    return cells.count(follower(side)) + cells.count(gate(side))


def formed_lines(work: Work) -> list[int]:
    """TI10: lines of 4 holding the builder's Followers, at least one without a Torii; none
    once the game is won or no Torii is left."""
    if work.won or work.cells.count(gate(work.me)) == 4:
        return []
    mine, guarded = follower(work.me), gate(work.me)
    cells = work.cells
    if cells.count(mine) == 0:
        return []
    formed = []
    for index, line in enumerate(LINES):
        free = False
        for sq in line:
            cell = cells[sq]
            if cell == mine:
                free = True
            elif cell != guarded:
                break
        else:
            if free:
                formed.append(index)
    return formed


class BuildOption(NamedTuple):
    """A formed line and a Follower on it without a Torii. ``show_line``: the Follower is on
    several formed lines, so the notation names the line too."""

    line: int
    square: int
    show_line: bool


def build_options(work: Work) -> list[BuildOption]:
    formed = formed_lines(work)
    lines_through = Counter(sq for index in formed for sq in LINES[index])
    mine = follower(work.me)
    return [
        BuildOption(index, sq, lines_through[sq] > 1)
        for index in formed
        for sq in LINES[index]
        if work.cells[sq] == mine
    ]


def do_build(work: Work, option: BuildOption) -> None:
    """Cover the Follower; unless that was the 4th Torii, return the line's unprotected
    Followers, then the Tatsu's sweep (TI16), then the opponent's Monkey is owed a
    decision (TI15)."""
    line, sq, show_line = option
    cells, mine = work.cells, follower(work.me)
    cells[sq] = gate(work.me)
    if cells.count(gate(work.me)) == 4:
        work.won = WIN_TORII
        work.builds.append(BuildLog(sq, line, (), (), None, show_line))
        return
    returned = tuple(s for s in LINES[line] if cells[s] == mine)
    for s in returned:
        cells[s] = EMPTY
    removed: tuple[int, ...] = ()
    if work.setup.has(work.me, TATSU):
        theirs = follower(work.them)
        removed = tuple(s for s in sorted(lanes(sq)) if cells[s] == theirs)
        for s in removed:
            cells[s] = EMPTY
    work.builds.append(BuildLog(sq, line, returned, removed, None, show_line))
    if work.setup.has(work.them, MONKEY):
        work.owed += 1


def flip_options(work: Work) -> list[Side | None]:
    """TI15: after each of the builder's Torii that did not win, a Monkey builder may flip
    either player's tile 1 (or neither)."""
    if work.won or not work.builds or not work.setup.has(work.me, MONKEY):
        return []
    return [Side.CHALLENGER, Side.OPPOSITION, None]


def do_flip(work: Work, target: Side | None) -> None:
    work.builds[-1] = replace(work.builds[-1], flip=target)
    if target is not None:
        work.used[target] ^= 1
