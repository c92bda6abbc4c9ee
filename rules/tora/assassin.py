"""The Assassin's half of ``Game`` (R40-R44): start squares, searches, reveals, and the
private record the rules keep as the rule book's judge.

Hidden state lives in the Position like everything else; what keeps it secret is that every
judgement the opponent can observe (jeopardy, trapped, refusals) is made on the public board,
and that events, views and records have public forms.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ..errors import IllegalAction
from . import jeopardy
from .actions import MOVE, SEARCH, Action
from .geometry import name, neighbours, parse_square, square
from .pieces import ASSASSIN, KIND_NAMES, Piece, Side
from .position import Effect, Position, Reveal
from .view import Event

if TYPE_CHECKING:
    from .game import Options, Turn


def home_row(side: Side, size: int) -> int:
    """R41: the Challenger's home edge is h=N, the Opposition's h=1."""
    return size if side == Side.CHALLENGER else 1


def check_assassin_start(options: Options, side: Side, text: str) -> int:
    """R41: the square ``side`` chose for its Assassin, checked; IllegalAction names the
    squares allowed. Also for a match service that asks players privately before the game."""
    if not options.assassins:
        raise IllegalAction("R41", "this match is played without Assassins")
    allowed = start_squares(options, side)
    try:
        sq = parse_square(text, 17)
    except ValueError as exc:
        raise IllegalAction("R41", str(exc), [name(s) for s in allowed]) from None
    if sq not in allowed:
        raise IllegalAction(
            "R41",
            f"{name(sq)} is not an empty square of your home edge "
            f"(h={home_row(side, 17)}); the Assassin starts on one of those",
            [name(s) for s in allowed],
        )
    return sq


def start_squares(options: Options, side: Side) -> list[int]:
    """Empty squares of ``side``'s home edge in its setup (R41), in reading order."""
    from .game import Game  # the setup itself is the Game's

    occupied = {p.sq for p in Game(options).pos.pieces.values()}
    h = home_row(side, 17)
    return [square(h, v) for v in range(1, 18) if square(h, v) not in occupied]


class AssassinRules:
    """Mixed into Game; uses its ``pos``, ``turns``, ``current``, ``game_number``."""

    pos: Position
    turns: list[Turn]
    current: list[tuple[Action, Effect, str, Event]]
    game_number: int
    assassin_starts: tuple[int, int]  # 0: not fielded
    assassin_log: list[tuple[int, Side, str]]  # (game, owner, line) of finished turns
    published: set[tuple[int, Side]]  # (game, owner) whose Assassin record is public
    waived: set[int]  # R30 offenders a search of this turn made (it cannot be undone)

    def _place_assassins(self, pos: Position) -> None:
        first = max(pos.pieces) + 1  # each side's own id, fielded or not: ids tell nothing
        for side in Side:
            if self.assassin_starts[side]:
                start = self.assassin_starts[side]
                pos.place(Piece(first + side, side, ASSASSIN, start, hidden=True))

    # ---- searching (R10, R43) ------------------------------------------------------------
    def _check_search(self, effect: Effect) -> None:
        """A search cannot be taken back (R10), so the turn must be one that could end before
        it (R30); a command piece may search only out of jeopardy after its move (R43).
        Both judged on the public board: a refusal reveals nothing."""
        pos = self.pos
        offenders = self.r30_offenders()
        if offenders:
            listed = ", ".join(f"{p.kind} {name(p.sq)}" for p in offenders)
            raise IllegalAction(
                "R10",
                "a search cannot be taken back, so the turn must be one you could end before "
                f"it; {listed} would end in jeopardy (R30): move it to safety or undo first",
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
                f"your {KIND_NAMES[piece.kind]} would be in jeopardy on {name(moved.sq)}, so it "
                "may not search there; nothing was revealed",
            )

    def r30_offenders(self) -> list[Piece]:
        """R30 offenders, less those a search of this turn put in jeopardy by revealing an
        Assassin: the search cannot be undone, so they may end the turn where they are."""
        return [p for p in jeopardy.r30_offenders(self.pos) if p.id not in self.waived]

    def _after_search(self) -> None:
        self.waived = {p.id for p in jeopardy.r30_offenders(self.pos)}

    # ---- events --------------------------------------------------------------------------
    def _settle_event(
        self, event: Event, action: Action, before: Piece | None, reveal: Reveal | None
    ) -> Event:
        """Complete an event once its action is committed: hidden or not, what a search
        looked at and found, what a reveal did."""
        after = self.pos.pieces.get(before.id) if before is not None else None
        hidden = before is not None and before.hidden and after is not None and after.hidden
        changes: dict = {"hidden": hidden}
        if action.kind == SEARCH:
            centre = event.rest
            changes["searched"] = tuple(sorted((centre, *neighbours(self.pos.size)[centre])))
            changes["note"] = "no Assassin found" if reveal is None else ""
        if reveal is not None:
            changes["revealed"] = reveal.sq
            changes["note"] = self._reveal_note(event, reveal)
            removed = list(event.removed)
            if reveal.taken:
                owner = event.side if action.kind != SEARCH else event.side.other
                removed.append((owner, ASSASSIN, reveal.sq))
                if reveal.friend is not None and not reveal.friend.is_command:
                    removed.append((owner, reveal.friend.kind, reveal.sq))
            changes["removed"] = tuple(removed)
        return replace(event, **changes)

    def _reveal_note(self, event: Event, reveal: Reveal) -> str:
        where = name(reveal.sq)
        if not reveal.taken:
            return f"the Assassin is revealed on {where}"
        if reveal.friend is None:
            return f"the Assassin is revealed on {where}, on an enemy's square, and taken"
        return (
            f"the Assassin is revealed on {where}, sharing the square with its own "
            f"{KIND_NAMES[reveal.friend.kind]}: both are removed"
        )

    # ---- the private record (R44) --------------------------------------------------------
    def _log_assassin_turn(self, turn: Turn) -> None:
        for text, event in zip(turn.texts, turn.events, strict=False):
            if event.letter == ASSASSIN:
                self.assassin_log.append((turn.game, turn.side, f"round {turn.round}: {text}"))
        for side in Side:
            if self.assassin_starts[side] and self.pos.hidden_assassin(side) is None:
                self.published.add((self.game_number, side))

    def _publish_game(self) -> None:
        """The game ended: every Assassin record of it is published (R44)."""
        self.published.update((self.game_number, side) for side in Side)

    def assassin_record(self, side: Side, game: int | None = None) -> list[str]:
        """``side``'s private Assassin record of a game (the current one by default)."""
        number = self.game_number if game is None else game
        start = self.assassin_starts[side]
        if not start:
            return ["no Assassin fielded"]
        lines = [f"start {name(start)}"]
        lines += [line for g, owner, line in self.assassin_log if g == number and owner == side]
        return lines

    def is_published(self, side: Side, game: int | None = None) -> bool:
        return (self.game_number if game is None else game, side) in self.published
