"""What one action did (``GameEvent``), for messages, images and records.

Torii hides nothing, so an event's ``public()`` form is the event itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.protocol import FORFEIT
from rules.sides import Side
from rules.turn import DRAW, RESIGN

from .board import line_name, name
from .turn import BuildLog, Work

MOVE = "move"
PASS = "pass"  # TI8: no tile had a path
LAPSE = "lapse"  # the turn was left to its deadline: played as a pass
DECISION = "decision"  # the Monkey's owner's answer to one Torii (TI15)


@dataclass(frozen=True)
class Event:
    """``kind`` is one of the constants above. For a move: ``start`` is where the steps began
    (after a Crane's flight from ``fly_from``), ``push`` and ``torii_move`` are the Kitsune's
    and the Boar's moves (from, to), ``jumped`` the squares stepped over (TI6), ``placed``
    the squares that got a Follower, ``replaced`` those where it sent an opponent's Follower
    home. ``flip`` is a Monkey decision's side (None: no flip); ``lapsed`` marks one left to
    the deadline. ``won`` names a win this action made."""

    side: Side
    text: str
    spirit: str
    kind: str = MOVE
    tile: int = 0
    start: int | None = None
    fly_from: int | None = None
    push: tuple[int, int] | None = None
    torii_move: tuple[int, int] | None = None
    torii_bumped: Side | None = None
    landings: tuple[int, ...] = ()
    jumped: tuple[int, ...] = ()
    placed: tuple[int, ...] = ()
    replaced: tuple[int, ...] = ()
    builds: tuple[BuildLog, ...] = ()
    flip: Side | None = None
    lapsed: bool = False
    won: str | None = None
    hidden: bool = False
    note: str = ""

    def public(self) -> Event:
        return self

    def words(self, names: Sequence[str]) -> str:
        """The action in plain words, players called by ``names`` (the Challenger's first)."""
        who = names[self.side]
        if self.kind == MOVE:
            return _move_words(self, names)
        if self.kind == DECISION:
            what = "no tile" if self.flip is None else f"{_owner(names, self.flip)} tile 1"
            late = " (no answer by the deadline)" if self.lapsed else ""
            return f"{who}'s Monkey flips {what}{late}"
        return {
            PASS: f"{who} passes: no unused tile has a path",
            LAPSE: f"{who}'s turn lapsed: a pass",
            RESIGN: f"{who} resigns",
            DRAW: f"{names[0]} and {names[1]} agree a draw",
            FORFEIT: f"{who} forfeits on missed turns",
        }[self.kind]


def _owner(names: Sequence[str], side: Side) -> str:
    return f"{names[side]}'s"


def _move_words(event: Event, names: Sequence[str]) -> str:
    me, them = event.side, event.side.other
    first: list[str] = []
    if event.fly_from is not None and event.start is not None:
        first.append(f"flies to {name(event.start)}")
    if event.push is not None:
        first.append(f"moves {_owner(names, them)} Spirit to {name(event.push[1])}")
    if event.torii_move is not None:
        origin, to = event.torii_move
        bumped = event.torii_bumped
        home = "" if bumped is None else f", sending a Follower of {names[bumped]} home"
        first.append(f"moves its Torii {name(origin)}-{name(to)}{home}")
    squares = ", ".join(name(sq) for sq in event.landings)
    head = f"{names[me]}'s {event.spirit} " + ", ".join([*first, f"uses tile {event.tile}"])
    parts = [f"{head}: {squares}", _placing(event, names)]
    parts += [_building(build, names, me) for build in event.builds]
    if event.won:
        parts.append(f"and wins: {event.won}")
    return "; ".join(parts)


def _placing(event: Event, names: Sequence[str]) -> str:
    count = len(event.placed)
    text = f"places {count} Follower{'s' * (count != 1)}" if count else "places no Follower"
    if event.replaced:
        text += f", returns {len(event.replaced)} of {names[event.side.other]}'s"
    return text


def _building(build: BuildLog, names: Sequence[str], me: Side) -> str:
    text = f"builds a Torii on {name(build.square)} ({line_name(build.line)})"
    if build.returned:
        text += f", {len(build.returned)} Follower{'s' * (len(build.returned) != 1)} go home"
    if build.removed:
        text += f", the Tatsu sweeps away {len(build.removed)} of {names[me.other]}'s"
    if build.flip is not None:
        text += f", the Monkey flips {_owner(names, build.flip)} tile 1"
    return text


def move_event(work: Work, text: str) -> Event:
    """The event of a finished turn played in ``work``."""
    return Event(
        side=work.me,
        text=text,
        spirit=work.setup.spirits[work.me],
        tile=work.tile,
        start=work.start,
        fly_from=work.fly_from,
        push=None if work.push_from is None else (work.push_from, work.spirits[work.them]),
        torii_move=work.torii_move,
        torii_bumped=work.torii_bumped,
        landings=work.landings,
        jumped=tuple(sq for step in work.steps for sq in step.jumped),
        placed=tuple(work.placed),
        replaced=tuple(work.replaced),
        builds=tuple(work.builds),
        won=work.won,
    )


@dataclass(frozen=True)
class Turn:
    """A finished turn (``GameTurn``): who played it, its actions' notations, their events."""

    side: Side
    texts: list[str]
    events: tuple[Event, ...]
