"""A game of ToriShogi as the host plays it (``rules.protocol.GameState``).

Turn model: ``apply`` stages the turn's one move (validated at once; only the acting player's
own view shows it), ``undo``/``take_back(0)`` take it back, ``end_turn`` confirms it: then the
move is played, repetition (TS10) and the end of the game (TS9) are judged, and the turn
passes. The confirmed position is ``pos``; nothing staged ever touches it.

What is stored and recorded (``Event.text``, ``Turn.texts``, ``notation``, ``Choice.notation``)
is Fairy-Stockfish's notation; what players read (``staged``, ``undo``, refusals, words,
labels) is the readable form in the board's coordinates (TS1, TS12), which ``apply`` reads too.
"""

from __future__ import annotations

from rules.errors import IllegalAction
from rules.grouped import choices_of, headers
from rules.protocol import FORFEIT, Choice, ChoiceGroup, NoPoints, rounds_since
from rules.sides import Outcome, Side

from .events import DRAW, FORFEIT_WORD, RESIGN, Event, Turn
from .fen import START_FEN, parse_fen, write_fen
from .menu import build_menu
from .movegen import in_check, legal_moves
from .moves import Move, describe
from .notation import read_spec, resolve
from .position import Key
from .rulings import no_move_outcome, repetition_outcome
from .view import View, build_view

TURN_RULE = "TS1"  # the players take turns, one move each
_RULE_OF_REASON = {
    "checkmate": "TS9",
    "stalemate": "TS9",
    "fourfold repetition": "TS10",
    "perpetual check": "TS10",
    "mutual perpetual check": "TS10",
}


class ToriShogiGame(NoPoints):
    """One game; ``headers`` are record headers the host wants kept (player names...)."""

    game_type = "torishogi"

    def __init__(self, fen: str = START_FEN) -> None:
        self.pos = parse_fen(fen)
        self.start_fen = write_fen(self.pos)
        self.turns: list[Turn] = []
        self.headers: dict[str, str] = {}
        self.result: Outcome | None = None
        # (key, side to move in check) of every confirmed position, for TS10
        self.history: list[tuple[Key, bool]] = [(self.pos.key(), in_check(self.pos))]
        self._staged: tuple[Move, Event] | None = None
        self._legal: list[Move] | None = None
        if not self.legal_moves():  # a FEN may start where the side to move has lost (TS9)
            self.result = no_move_outcome(self.side, self.history[-1][1])

    # ---- the state ---------------------------------------------------------------------
    @property
    def side(self) -> Side:
        return Side(self.pos.side)

    @property
    def actions_left(self) -> int:
        return 0 if self.result is not None or self._staged is not None else 1

    def outcome(self) -> Outcome | None:
        return self.result

    def is_over(self) -> bool:
        return self.result is not None

    def fen(self) -> str:
        """The confirmed position (a staged move is not in it)."""
        return write_fen(self.pos)

    def in_check(self) -> bool:
        return self.history[-1][1]

    def for_player(self, side: Side) -> ToriShogiGame:
        """A copy; nothing is hidden but what the opponent has staged in their running
        turn, which is left out (it stays private until the turn ends)."""
        new = self.copy()
        if new.side != side:
            new.discard_turn()
        return new

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

    def copy(self) -> ToriShogiGame:
        twin = ToriShogiGame.__new__(ToriShogiGame)
        twin.pos = self.pos.copy()
        twin.start_fen = self.start_fen
        twin.turns = list(self.turns)
        twin.headers = dict(self.headers)
        twin.result = self.result
        twin.history = list(self.history)
        twin._staged = self._staged
        twin._legal = self._legal
        return twin

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state["_legal"] = None
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)

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

    def prompt(self) -> str:
        return "Choose a piece, on the board or in hand"

    def parse_action(self, text: str) -> Move:
        self._check_can_move()
        return self._parse(text)

    def _parse(self, text: str) -> Move:
        return resolve(self.pos, self.legal_moves(), read_spec(text), text)

    def apply(self, action: Move | str) -> Event:
        self._check_can_move()
        move = self._parse(action) if isinstance(action, str) else self._known(action)
        event = self._event(move)
        self._staged = (move, event)
        return event

    def _known(self, move: Move) -> Move:
        legal = self.legal_moves()
        if move in legal:
            return move
        return self._parse(move.uci)

    def _event(self, move: Move) -> Event:
        pos = self.pos
        token = pos.make(move.code)
        note = ""
        if in_check(pos):
            note = "check" if legal_moves(pos) else "checkmate"
        pos.unmake(move.code, token)
        return Event(
            side=self.side,
            text=move.uci,
            note=note,
            kind=move.kind,
            origin=move.origin,
            target=move.target,
            captured=move.captured,
            promoted=move.promotes,
        )

    def undo(self) -> str:
        """Take the staged move back; returns it as players read it ("Falcon 4f-5f")."""
        if self._staged is None:
            raise IllegalAction(TURN_RULE, "no move is staged to take back")
        text = self._staged[0].readable
        self._staged = None
        return text

    def take_back(self, index: int) -> str:
        if index != 0 and self._staged is not None:
            raise IllegalAction(TURN_RULE, "a turn has one move: only move 0 can be taken back")
        return self.undo()

    def staged(self) -> list[str]:
        """The staged move as players read it ("Falcon 4f-5f"), which ``apply`` reads too."""
        return [] if self._staged is None else [self._staged[0].readable]

    def discard_turn(self) -> list[str]:
        """Drop a staged move (the turn never ended); returns what was dropped."""
        dropped = self.staged()
        self._staged = None
        return dropped

    def staged_move(self) -> Move | None:
        return None if self._staged is None else self._staged[0]

    def staged_event(self) -> Event | None:
        return None if self._staged is None else self._staged[1]

    def end_turn(self, deadline: bool = False) -> Turn:
        """Confirm the staged move. Nothing staged is refused, at the deadline too: a turn
        in ToriShogi cannot pass without a move (the host counts it as missed)."""
        self._check_not_over()
        if self._staged is None:
            when = "the deadline came with no move" if deadline else "no move is staged"
            raise IllegalAction(TURN_RULE, f"{when}: a turn is one move and cannot be passed")
        move, event = self._staged
        self._staged = None
        self._legal = None
        pos = self.pos
        pos.make(move.code)
        checked = in_check(pos)
        self.history.append((pos.key(), checked))
        turn = Turn(event.side, [move.uci], [event])
        self.turns.append(turn)
        self.result = repetition_outcome(self.history)
        if self.result is None and not self.legal_moves():
            self.result = no_move_outcome(self.side, checked)
        return turn

    # ---- game-level acts ---------------------------------------------------------------
    def resign(self, side: Side) -> Event:
        """TS11: ``side`` resigns, on its turn or not; a staged move is dropped."""
        return self._close(Side(side), RESIGN, Outcome(Side(side).other, "resignation"))

    def forfeit(self, side: Side) -> Event:
        return self._close(Side(side), FORFEIT_WORD, Outcome(Side(side).other, FORFEIT))

    def agreements(self) -> tuple[str, ...]:
        return () if self.result is not None else (DRAW,)

    def agree(self, kind: str) -> Event:
        """TS11: both players agreed a draw; recorded in the turn of the side to move."""
        if kind != DRAW:
            raise IllegalAction("TS11", f"the players may agree a draw only, not {kind!r}")
        return self._close(self.side, DRAW, Outcome(None, "agreed draw"))

    def _close(self, side: Side, word: str, outcome: Outcome) -> Event:
        self._check_not_over()
        self._staged = None
        self._legal = None
        event = Event(side, word)
        self.turns.append(Turn(side, [word], [event]))
        self.result = outcome
        return event

    def _check_not_over(self) -> None:
        if self.result is not None:
            rule = _RULE_OF_REASON.get(self.result.reason, "TS11")
            raise IllegalAction(rule, f"the game is over: {self.result}")

    def _check_can_move(self) -> None:
        self._check_not_over()
        if self._staged is not None:
            raise IllegalAction(
                TURN_RULE,
                f"{self._staged[0].readable} is already staged: end the turn or take it back first",
            )

    # ---- views -------------------------------------------------------------------------
    def view_for(self, viewer: Side | None) -> View:
        return build_view(self, viewer)
