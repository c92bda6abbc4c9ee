"""A game of ToriShogi as the host plays it (``rules.protocol.GameState``).

Turn model (``rules.turn.OneMoveMachine``): ``apply`` stages the turn's one move (validated at
once; only the acting player's own view shows it), ``undo``/``take_back(0)`` take it back,
``end_turn`` confirms it: then the move is played, repetition (TS10) and the end of the game
(TS9) are judged, and the turn passes. The confirmed position is ``pos``; nothing staged ever
touches it.

What is stored and recorded (``Event.text``, ``Turn.texts``, ``notation``, ``Choice.notation``)
is Fairy-Stockfish's notation; what players read (``staged``, ``undo``, refusals, words,
labels) is the readable form in the board's coordinates (TS1, TS12), which ``apply`` reads too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Self

from rules.errors import IllegalAction
from rules.grouped import choices_of, headers, menu_and_choices_of
from rules.protocol import Choice, ChoiceGroup, NoPoints, rounds_since
from rules.sides import Outcome, Side
from rules.turn import OneMoveMachine, Staged
from rules.words import Text, msg

from .events import Event, Turn
from .fen import START_FEN, parse_fen, write_fen
from .menu import build_menu
from .movegen import in_check, legal_moves
from .moves import Move, describe
from .notation import read_spec, resolve
from .position import Key, Position
from .rulings import REASONS, no_move_outcome, repetition_outcome, repetition_warnings
from .view import View, build_view

TURN_RULE = "TS1"  # the players take turns, one move each
_RULE_OF_REASON = {
    "checkmate": "TS9",
    "stalemate": "TS9",
    "fourfold repetition": "TS10",
    "perpetual check": "TS10",
    "mutual perpetual check": "TS10",
}


class ToriShogiGame(NoPoints, OneMoveMachine[Move, Event, Position, Turn]):
    """One game; ``headers`` are record headers the host wants kept (player names...)."""

    game_type = "torishogi"

    def __init__(self, fen: str = START_FEN) -> None:
        self.settled = parse_fen(fen)
        self.start_fen = write_fen(self.settled)
        self.turns: list[Turn] = []
        self.current: list[Staged[Move, Event, Position]] = []
        self.headers: dict[str, str] = {}
        self.result: Outcome | None = None
        # (key, side to move in check) of every confirmed position, for TS10
        self.history: list[tuple[Key, bool]] = [(self.pos.key(), in_check(self.pos))]
        self._legal: list[Move] | None = None
        if not self.legal_moves():  # a FEN may start where the side to move has lost (TS9)
            self.result = no_move_outcome(self.side, self.history[-1][1])

    # ---- the state ---------------------------------------------------------------------
    @property
    def pos(self) -> Position:
        """The confirmed position (a staged move is not in it)."""
        return self.settled

    @property
    def side(self) -> Side:
        return Side(self.pos.side)

    @property
    def actions_left(self) -> int:
        return 0 if self.result is not None or self.current else 1

    def fen(self) -> str:
        """The confirmed position (a staged move is not in it)."""
        return write_fen(self.pos)

    def in_check(self) -> bool:
        return self.history[-1][1]

    def quiet_rounds(self) -> int:
        """Rounds since the last capture."""
        return rounds_since(self.turns, lambda turn: any(ev.captured for ev in turn.events))

    def key(self) -> tuple[object, ...]:
        """Everything that tells two games apart (for integrity checks)."""
        return (
            tuple((turn.side, tuple(turn.texts)) for turn in self.turns),
            tuple(self.staged()),
            self.start_fen,
            self.fen(),
            str(self.result),
        )

    def copy(self) -> Self:
        twin = super().copy()
        twin.history = list(self.history)
        return twin

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "_legal": None}  # the legal-move cache is rebuilt on demand

    # ---- moves -------------------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        """Every legal move in the confirmed position (whether or not one is staged)."""
        if self.result is not None:
            return []
        if self._legal is None:
            board = self.pos.board
            self._legal = [describe(board, code) for code in legal_moves(self.pos)]
        return self._legal

    def legal_actions(self) -> list[Move]:
        return self.legal_moves() if self.actions_left else []

    def notation(self, action: Move | str) -> str:
        if isinstance(action, Move):
            return action.uci
        return self._parse(action).uci

    def menu(self) -> tuple[ChoiceGroup, ...]:
        return headers(build_menu(self.pos, self.legal_actions()))

    def choices(self, key: str | None = None) -> tuple[Choice, ...]:
        return choices_of(build_menu(self.pos, self.legal_actions()), key)

    def menu_and_choices(self) -> tuple[tuple[ChoiceGroup, ...], tuple[Choice, ...]]:
        return menu_and_choices_of(build_menu(self.pos, self.legal_actions()))

    def warnings(self, notations: Sequence[str]) -> tuple[str, ...]:
        """TS10 before a move is staged: one that would make a position the fourth time and
        lose (or draw) by it. Judged on the confirmed position, which a staged move that
        another would replace is not in."""
        return repetition_warnings(self.pos, self.history, self.legal_moves(), notations)

    def prompt(self) -> Text:
        return msg("Choose a piece, on the board or in hand")

    def parse_action(self, text: str) -> Move:
        self._check_open()
        return self._parse(text)

    def _parse(self, text: str) -> Move:
        return resolve(self.pos, self.legal_moves(), read_spec(text), text)

    def _admit(self, action: Move) -> Move:
        """The legal move equal to ``action``, else the one its notation names."""
        self._check_open()
        if action in self.legal_moves():
            return action
        return self._parse(action.uci)

    def _stage(self, action: Move) -> Staged[Move, Event, Position]:
        after = self.pos.copy()
        after.make(action.code)
        note = ""
        if in_check(after):
            note = "check" if legal_moves(after) else "checkmate"
        event = Event(
            side=self.side,
            text=action.uci,
            note=note,
            kind=action.kind,
            origin=action.origin,
            target=action.target,
            captured=action.captured,
            promoted=action.promotes,
        )
        return Staged(action, action.uci, action.readable, event, after)

    # ---- ending turns and games --------------------------------------------------------
    def _complete(self, deadline: bool) -> None:
        """Nothing staged is refused, at the deadline too: a turn in ToriShogi cannot pass
        without a move (the host counts it as missed)."""
        if not self.current:
            if deadline:
                said = msg(
                    "the deadline came with no move: a turn is one move and cannot be passed"
                )
            else:
                said = msg("no move is staged: a turn is one move and cannot be passed")
            raise IllegalAction(TURN_RULE, said)

    def _copy_position(self, position: Position) -> Position:
        return position.copy()

    def _play(self, staged: list[Staged[Move, Event, Position]]) -> Turn:
        """The move is played: repetition (TS10) and the end of the game (TS9) judged."""
        event = staged[0].event
        self._legal = None
        checked = in_check(self.pos)
        self.history.append((self.pos.key(), checked))
        turn = Turn(event.side, [event.text], [event])
        self.turns.append(turn)
        self.result = repetition_outcome(self.history)
        if self.result is None and not self.legal_moves():
            self.result = no_move_outcome(self.side, checked)
        return turn

    def _act_event(self, side: Side, word: str) -> Event:
        """TS11: a resignation, an agreed draw or a forfeit, on its own record line."""
        return Event(side, word)

    def _act_turn(self, side: Side, word: str, event: Event) -> Turn:
        return Turn(side, [word], [event])

    # ---- refusals ----------------------------------------------------------------------
    def _refuse_over(self) -> IllegalAction:
        assert self.result is not None
        rule = _RULE_OF_REASON.get(self.result.reason, "TS11")
        return IllegalAction(
            rule, msg("the game is over: {result}", result=self.result.words(REASONS))
        )

    def _refuse_full(self) -> IllegalAction:
        return IllegalAction(
            TURN_RULE,
            msg(
                "{move} is already staged: end the turn or take it back first",
                move=self.current[0].said,
            ),
        )

    def _refuse_undo(self) -> IllegalAction:
        return IllegalAction(TURN_RULE, msg("no move is staged to take back"))

    def _refuse_take_back(self, index: int) -> IllegalAction:
        if not self.current:
            return self._refuse_undo()
        return IllegalAction(TURN_RULE, msg("a turn has one move: only move 0 can be taken back"))

    def _refuse_agreement(self, kind: str) -> IllegalAction:
        return IllegalAction(
            "TS11", msg("the players may agree a draw only, not {kind}", kind=repr(kind))
        )

    # ---- views -------------------------------------------------------------------------
    def view_for(self, viewer: Side | None) -> View:
        return build_view(
            viewer,
            self.side,
            self.actions_left,
            self.seen_by(viewer),
            self.staged_events(viewer),
            self.turns,
            self.result,
            self.in_check(),
        )
