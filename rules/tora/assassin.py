"""The Assassin rules (R40-R44): start squares, searches, reveals, and the private record the
rules keep as the rule book's judge (``Assassins``).

Hidden state lives in the Position like everything else; what keeps it secret is that every
judgement the opponent can observe (jeopardy, trapped, refusals) is made on the public board,
and that events, views and records have public forms.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ..errors import IllegalAction
from ..sides import Side
from ..words import Text, msg
from . import jeopardy
from .actions import MOVE, SEARCH, Action
from .deploy import deploy
from .events import Event, Turn
from .geometry import name, neighbours, parse_square, square
from .options import Options
from .pieces import ASSASSIN, KIND_NAMES, Piece
from .position import Effect, Position, Reveal


def home_row(side: Side, size: int) -> int:
    """R41: the Challenger's home edge is h=N, the Opposition's h=1."""
    return size if side == Side.CHALLENGER else 1


def check_assassin_start(options: Options, side: Side, text: str) -> int:
    """R41: the square ``side`` chose for its Assassin, checked; IllegalAction names the
    squares allowed. Also for a match service that asks players privately before the game."""
    if not options.assassins:
        raise IllegalAction("R41", msg("this match is played without Assassins"))
    allowed = start_squares(options, side)
    try:
        sq = parse_square(text, 17)
    except ValueError as exc:
        raise IllegalAction("R41", exc.args[0], [name(s) for s in allowed]) from None
    if sq not in allowed:
        raise IllegalAction(
            "R41",
            msg(
                "{square} is not an empty square of your home edge (h={row}); "
                "the Assassin starts on one of those",
                square=name(sq),
                row=home_row(side, 17),
            ),
            [name(s) for s in allowed],
        )
    return sq


def start_squares(options: Options, side: Side) -> list[int]:
    """Empty squares of ``side``'s home edge in its setup (R41), in reading order."""
    options.validate()
    occupied = {p.sq for p in deploy(options, options.make_terrain()).pieces.values()}
    h = home_row(side, 17)
    return [square(h, v) for v in range(1, 18) if square(h, v) not in occupied]


# ---- searching (R10, R43) ----------------------------------------------------------------
def check_search(pos: Position, effect: Effect, offenders: list[Piece]) -> None:
    """A search cannot be taken back (R10), so the turn must be one that could end before it
    (R30: ``offenders`` would end it in jeopardy); a command piece may search only out of
    jeopardy after its move (R43). Both judged on the public board: a refusal reveals
    nothing."""
    if offenders:
        listed = ", ".join(f"{p.kind} {name(p.sq)}" for p in offenders)
        raise IllegalAction(
            "R10",
            msg(
                "a search cannot be taken back, so the turn must be one you could end before "
                "it; {pieces} would end in jeopardy (R30): move it to safety or undo first",
                pieces=listed,
            ),
        )
    piece = pos.pieces[effect.piece]
    if not piece.is_command:
        return
    trial = pos.copy()
    trial.commit(effect._replace(kind=MOVE))
    after = jeopardy.next_turn(trial)
    moved = after.pieces.get(piece.id)
    if moved is not None and jeopardy.in_jeopardy(after, moved.sq):
        raise IllegalAction(
            "R43",
            msg(
                "your {piece} would be in jeopardy on {square}, so it may not search there; "
                "nothing was revealed",
                piece=KIND_NAMES[piece.kind],
                square=name(moved.sq),
            ),
        )


# ---- events ------------------------------------------------------------------------------
def settle_event(
    event: Event, action: Action, before: Piece | None, after: Position, reveal: Reveal | None
) -> Event:
    """Complete the event of an action once it is played (``after``): hidden or not, what a
    search looked at and found, what a reveal did."""
    moved = after.pieces.get(before.id) if before is not None else None
    hidden = before is not None and before.hidden and moved is not None and moved.hidden
    changes: dict[str, Any] = {"hidden": hidden}
    if action.kind == SEARCH:
        centre = event.rest
        changes["searched"] = tuple(sorted((centre, *neighbours(after.size)[centre])))
        changes["note"] = msg("no Assassin found") if reveal is None else ""
    if reveal is not None:
        changes["revealed"] = reveal.sq
        changes["note"] = _reveal_note(reveal)
        removed = list(event.removed)
        if reveal.taken:
            owner = event.side if action.kind != SEARCH else event.side.other
            removed.append((owner, ASSASSIN, reveal.sq))
            if reveal.friend is not None and not reveal.friend.is_command:
                removed.append((owner, reveal.friend.kind, reveal.sq))
        changes["removed"] = tuple(removed)
    return replace(event, **changes)


def _reveal_note(reveal: Reveal) -> Text:
    where = name(reveal.sq)
    if not reveal.taken:
        return msg("the Assassin is revealed on {square}", square=where)
    if reveal.friend is None:
        return msg(
            "the Assassin is revealed on {square}, on an enemy's square, and taken", square=where
        )
    return msg(
        "the Assassin is revealed on {square}, sharing the square with its own {piece}: "
        "both are removed",
        square=where,
        piece=KIND_NAMES[reveal.friend.kind],
    )


# ---- the private record (R44) ------------------------------------------------------------
@dataclass
class Assassins:
    """The judge's book on the Assassins: each side's start square (``starts``, 0: none
    fielded), the lines of their private records (``log``: game number, owner, line) and
    which records are public (``published``: game number, owner)."""

    starts: tuple[int, int]
    log: list[tuple[int, Side, str]] = field(default_factory=list)
    published: set[tuple[int, Side]] = field(default_factory=set)

    def copy(self) -> Assassins:
        return Assassins(self.starts, list(self.log), set(self.published))

    def log_turn(self, turn: Turn, pos: Position, game: int) -> None:
        """Write a finished turn's Assassin actions into their owner's record; a record is
        published once its Assassin is visible on ``pos`` (or gone)."""
        for text, event in zip(turn.texts, turn.events, strict=False):
            if event.letter == ASSASSIN:
                self.log.append(
                    (
                        turn.game,
                        turn.side,
                        msg("round {round}: {action}", round=turn.round, action=text),
                    )
                )
        for side in Side:
            if self.starts[side] and pos.hidden_assassin(side) is None:
                self.published.add((game, side))

    def publish(self, game: int) -> None:
        """Game ``game`` ended: every Assassin record of it is published (R44)."""
        self.published.update((game, side) for side in Side)

    def is_published(self, side: Side, game: int) -> bool:
        return (game, side) in self.published

    def record(self, side: Side, game: int) -> list[str]:
        """``side``'s private Assassin record of game ``game``."""
        start = self.starts[side]
        if not start:
            return [msg("no Assassin fielded")]
        lines: list[str] = [msg("start {square}", square=name(start))]
        lines += [line for number, owner, line in self.log if number == game and owner == side]
        return lines

    def seen(self, event: Event, viewer: Side | None, game: int) -> Event:
        """The form of ``event`` (of game ``game``) that ``viewer`` may see: its owner and,
        once the Assassin's record of that game is published (R44), everyone get the full
        one."""
        if event.side == viewer or self.is_published(event.side, game):
            return event
        return event.public()

    def known_to(self, side: Side) -> Assassins:
        """What ``side`` may know: the opponent's start square and record lines only of the
        games whose record of it is published."""
        other = side.other
        known = {number for number, owner in self.published if owner == other}
        starts = list(self.starts)
        if not known:
            starts[other] = 0
        log = [entry for entry in self.log if entry[1] == side or entry[0] in known]
        return Assassins((starts[0], starts[1]), log, set(self.published))
