"""A game of Breakthrough (``rules.protocol.GameState``), played through the rules core's
one-move turn machine on its 4x4 grid."""

from __future__ import annotations

from rules.errors import IllegalAction, MalformedAction
from rules.grouped import Grouped, choices_of, headers, menu_and_choices_of
from rules.protocol import FROM, HIT, TO, Choice, ChoiceGroup, NoPoints, Touch, rounds_since
from rules.sides import Outcome, Side
from rules.turn import OneMoveMachine, Staged

from .board import GRID, START, Event, Move, Position, Turn, moves_of, outcome_of, parse_fen
from .view import View

MAX_TEXT = 12  # characters of a typed move
HINT = "Write a move like 'a1-a2', or 'b2xc3' for a capture"


class BreakthroughGame(NoPoints, OneMoveMachine[Move, Event, Position, Turn]):
    game_type = "breakthrough"

    def __init__(self, fen: str = START) -> None:
        self.settled = parse_fen(fen)
        self.start = self.settled.fen()
        self.current: list[Staged[Move, Event, Position]] = []
        self.turns: list[Turn] = []
        self.headers: dict[str, str] = {}
        self.result: Outcome | None = None

    @property
    def side(self) -> Side:
        return self.settled.side

    @property
    def actions_left(self) -> int:
        return 0 if self.result is not None or self.current else 1

    def fen(self) -> str:
        return self.settled.fen()

    def key(self) -> tuple[object, ...]:
        turns = tuple((turn.side, tuple(turn.texts)) for turn in self.turns)
        return (turns, tuple(self.staged()), self.start, self.fen(), str(self.result))

    def quiet_rounds(self) -> int:
        return rounds_since(self.turns, lambda turn: any(e.captured for e in turn.events))

    # ---- moves -------------------------------------------------------------------------
    def legal_actions(self) -> list[Move]:
        return moves_of(self.settled) if self.actions_left else []

    def notation(self, action: Move) -> str:
        return action.text

    def prompt(self) -> str:
        return "Choose a pawn"

    def _groups(self) -> list[Grouped]:
        groups: dict[int, list[Choice]] = {}
        for move in self.legal_actions():
            origin, target = GRID.name(move.origin), GRID.name(move.target)
            label = f"capture on {target}" if move.captures else f"to {target}"
            touches = (Touch(origin, FROM), Touch(target, HIT if move.captures else TO))
            key = origin
            groups.setdefault(move.origin, []).append(
                Choice(move.text, label, (label,), key, touches)
            )
        return [
            Grouped(
                GRID.name(sq),
                f"Pawn {GRID.name(sq)}",
                f"{len(choices)} move{'s' * (len(choices) != 1)}",
                "pawns",
                tuple(choices),
                GRID.name(sq),
            )
            for sq, choices in groups.items()
        ]

    def menu(self) -> tuple[ChoiceGroup, ...]:
        return headers(self._groups())

    def choices(self, key: str | None = None) -> tuple[Choice, ...]:
        return choices_of(self._groups(), key)

    def menu_and_choices(self) -> tuple[tuple[ChoiceGroup, ...], tuple[Choice, ...]]:
        return menu_and_choices_of(self._groups())

    def parse_action(self, text: str) -> Move:
        self._check_open()
        cleaned = text.strip().lower().replace("-", "").replace("x", "")
        if len(text) > MAX_TEXT or len(cleaned) != 4:
            raise MalformedAction(text, "a move is two squares", HINT)
        origin, target = GRID.parse(cleaned[:2]), GRID.parse(cleaned[2:])
        if origin is None or target is None:
            raise MalformedAction(text, "the squares are a1 to d4", HINT)
        return self._admit(Move(origin, target, self.settled.board[target] is not None))

    def _admit(self, action: Move) -> Move:
        self._check_open()
        for move in moves_of(self.settled):
            if (move.origin, move.target) == (action.origin, action.target):
                return move
        raise IllegalAction("BT2", f"{action.text} is not a legal move of the {self.side.title}")

    def _stage(self, action: Move) -> Staged[Move, Event, Position]:
        board = list(self.settled.board)
        board[action.target], board[action.origin] = board[action.origin], None
        after = Position(tuple(board), self.side.other)
        event = Event(self.side, action.text, action.origin, action.target, action.captures)
        return Staged(action, action.text, action.text, event, after)

    # ---- turns and games ------------------------------------------------------------
    def _complete(self, deadline: bool) -> None:
        if not self.current:
            raise IllegalAction("BT1", "no move is staged: a turn is one move")

    def _play(self, staged: list[Staged[Move, Event, Position]]) -> Turn:
        event = staged[0].event
        turn = Turn(event.side, [event.text], [event])
        self.turns.append(turn)
        self.result = outcome_of(self.settled)
        return turn

    def _act_event(self, side: Side, word: str) -> Event:
        return Event(side, word)

    def _act_turn(self, side: Side, word: str, event: Event) -> Turn:
        return Turn(side, [word], [event])

    def _refuse_over(self) -> IllegalAction:
        return IllegalAction("BT3", f"the game is over: {self.result}")

    def _refuse_full(self) -> IllegalAction:
        return IllegalAction("BT1", f"{self.current[0].said} is staged: end the turn or undo it")

    def _refuse_undo(self) -> IllegalAction:
        return IllegalAction("BT1", "no move is staged to take back")

    def _refuse_take_back(self, index: int) -> IllegalAction:
        return IllegalAction("BT1", "a turn has one move: only move 0 can be taken back")

    def _refuse_agreement(self, kind: str) -> IllegalAction:
        return IllegalAction("BT4", f"the players may agree a draw only, not {kind!r}")

    # ---- views ---------------------------------------------------------------------
    def view_for(self, viewer: Side | None) -> View:
        shown = self.seen_by(viewer)
        last = tuple(self.turns[-1].events) if self.turns else ()
        return View(
            viewer,
            self.side,
            self.actions_left if viewer == self.side else int(self.result is None),
            self.staged_events(viewer),
            last,
            None if self.result is None else str(self.result),
            None if self.result is None else self.result.winner,
            shown.board,
        )
