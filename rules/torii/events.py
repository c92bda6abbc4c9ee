"""What one action did (``GameEvent``), for messages, images and records.

Torii hides nothing, so an event's ``public()`` form is the event itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.sides import Side
from rules.turn import DRAW, RESIGN
from rules.words import Text, frame, msg, msg_n

from .board import line_name, name
from .building import WON_WORDS
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
            return _decision_words(self, names)
        if self.kind == PASS:
            return msg("{player} passes: no unused tile has a path", player=who)
        if self.kind == LAPSE:
            return msg("{player}'s turn lapsed: a pass", player=who)
        if self.kind == RESIGN:
            return msg("{player} resigns", player=who)
        if self.kind == DRAW:
            return msg("{player} and {opponent} agree a draw", player=names[0], opponent=names[1])
        return msg("{player} forfeits on missed turns", player=who)


def _decision_words(event: Event, names: Sequence[str]) -> Text:
    who = names[event.side]
    if event.flip is None:
        if event.lapsed:
            return msg("{player}'s Monkey flips no tile (no answer by the deadline)", player=who)
        return msg("{player}'s Monkey flips no tile", player=who)
    owner = names[event.flip]
    if event.lapsed:  # a lapsed decision flips nothing; kept for a complete wording
        return msg(
            "{player}'s Monkey flips {owner}'s tile 1 (no answer by the deadline)",
            player=who,
            owner=owner,
        )
    return msg("{player}'s Monkey flips {owner}'s tile 1", player=who, owner=owner)


def _move_words(event: Event, names: Sequence[str]) -> Text:
    me, them = event.side, event.side.other
    first: list[str] = []
    if event.fly_from is not None and event.start is not None:
        first.append(msg("flies to {square}", square=name(event.start)))
    if event.push is not None:
        first.append(
            msg(
                "moves {owner}'s Spirit to {square}",
                owner=names[them],
                square=name(event.push[1]),
            )
        )
    if event.torii_move is not None:
        origin, to = event.torii_move
        bumped, line = event.torii_bumped, f"{name(origin)}-{name(to)}"
        if bumped is None:
            first.append(msg("moves its Torii {move}", move=line))
        else:
            first.append(
                msg(
                    "moves its Torii {move}, sending a Follower of {owner} home",
                    move=line,
                    owner=names[bumped],
                )
            )
    first.append(msg("uses tile {tile}", tile=event.tile))
    squares = ", ".join(name(sq) for sq in event.landings)
    head = msg(
        "{player}'s {spirit} {actions}: {squares}",
        player=names[me],
        spirit=event.spirit,
        actions=_joined(first, ", "),
        squares=squares,
    )
    parts = [head, _placing(event, names)]
    parts += [_building(build, names, me) for build in event.builds]
    if event.won:
        parts.append(msg("and wins: {reason}", reason=WON_WORDS.get(event.won, event.won)))
    return _joined(parts, "; ")


def _joined(parts: Sequence[str], joint: str) -> Text:
    """Parts one after another, as a frame of no language (each part worded)."""
    listed: Text = frame("{item}", item=parts[0])
    for part in parts[1:]:
        listed = frame("{list}" + joint + "{item}", list=listed, item=part)
    return listed


def _placing(event: Event, names: Sequence[str]) -> Text:
    count = len(event.placed)
    if count:
        placed = msg_n("places {n} Follower", "places {n} Followers", count)
    else:
        placed = msg("places no Follower")
    if not event.replaced:
        return placed
    return msg_n(
        "{placed}, returns {n} of {owner}'s",
        "{placed}, returns {n} of {owner}'s",
        len(event.replaced),
        placed=placed,
        owner=names[event.side.other],
    )


def _building(build: BuildLog, names: Sequence[str], me: Side) -> Text:
    parts: list[str] = [
        msg(
            "builds a Torii on {square} ({line})",
            square=name(build.square),
            line=line_name(build.line),
        )
    ]
    if build.returned:
        parts.append(msg_n("{n} Follower go home", "{n} Followers go home", len(build.returned)))
    if build.removed:
        parts.append(
            msg_n(
                "the Tatsu sweeps away {n} of {owner}'s",
                "the Tatsu sweeps away {n} of {owner}'s",
                len(build.removed),
                owner=names[me.other],
            )
        )
    if build.flip is not None:
        parts.append(msg("the Monkey flips {owner}'s tile 1", owner=names[build.flip]))
    return _joined(parts, ", ")


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
