"""The turn machine every game is played through, written once: staging, undo, take-back, the
one-move confirmation, discarding an unfinished turn, and the acts that end a game.

A turn is built out of sight. The side to act stages actions one at a time (``apply``), each
checked at once and kept with the position it leaves (``Staged.after``); nothing of it is
played before ``end_turn``. The position the last finished turn left (``settled``) is never
touched by staging, so taking the last action back is dropping it (``undo``), and taking back
an earlier one is dropping it with the ones after it, then staging those again on the position
before it (``take_back``); if one of them is illegal there, the turn stays as it was. These are
the snapshots of python-chess's move stack and boardgame.io's undo log, one per staged action.

A one-move game (``OneMoveMachine``: ToriShogi's move, Torii's whole turn) stages its move and
refuses another until it is taken back: ``end_turn`` confirms it, so a mis-click costs nothing.

A game subclasses ``TurnMachine`` (or ``OneMoveMachine``) over its own action, event, position
and turn types and says what only it knows: how a text is read and an action checked
(``parse_action``, ``_admit``), what staging an action leaves (``_stage``), how a turn is
completed and played (``_complete``, ``_play``), what a game-ending act records
(``_act_event``, ``_act_turn``), and its refusals in the words of its own rulings.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Generic, Self, TypeVar

from .errors import IllegalAction
from .protocol import FORFEIT
from .sides import Outcome, Side
from .words import Text, msg

RESIGN = "resign"  # the record's word for a resignation
DRAW = "draw"  # for a draw the players agreed

# The reasons of the endings every game shares, worded (``Outcome.words``).
ENDINGS = {
    "resignation": msg("resignation"),
    "agreed draw": msg("agreed draw"),
    FORFEIT: msg("forfeit"),
}
A = TypeVar("A")  # a game's action
E = TypeVar("E")  # what an action did (a ``GameEvent``)
P = TypeVar("P")  # a position
T = TypeVar("T")  # a finished turn (a ``GameTurn``)


@dataclass(frozen=True)
class Staged(Generic[A, E, P]):
    """One staged action: ``text`` its notation as the record writes it, ``said`` as players
    read it (what ``staged`` and ``undo`` answer; the same text in most games), its event,
    and the position the turn would leave if it ended now (never changed once made)."""

    action: A
    text: str
    said: str
    event: E
    after: P


class TurnMachine(ABC, Generic[A, E, P, T]):
    """The seam's turn methods (``rules.protocol.GameState``) for one game."""

    settled: P  # the position the last finished turn left
    current: list[Staged[A, E, P]]  # the running turn's staged actions, in order
    turns: list[T]  # finished turns, in order
    result: Outcome | None
    headers: dict[str, str]  # record headers the host keeps (player names...)

    # ---- what every game says of itself ------------------------------------------------
    @property
    @abstractmethod
    def side(self) -> Side:
        """Who must decide now."""

    @property
    @abstractmethod
    def actions_left(self) -> int: ...

    @abstractmethod
    def parse_action(self, text: str) -> A:
        """The legal action ``text`` names, checked as the game checks a typed one."""

    @abstractmethod
    def _admit(self, action: A) -> A:
        """``action`` (given as the game's object) checked for staging now; the action to
        stage (the game may return its canonical form)."""

    @abstractmethod
    def _stage(self, action: A) -> Staged[A, E, P]:
        """``action``, legal now, staged on ``latest``: its texts, event and position. Raises
        IllegalAction if it is not legal there (an action staged again by ``take_back``)."""

    @abstractmethod
    def _complete(self, deadline: bool) -> None:
        """Refuse to end the turn as it stands, or, at its ``deadline``, make it one that
        may end (drop or add actions)."""

    @abstractmethod
    def _play(self, staged: list[Staged[A, E, P]]) -> T:
        """The turn of ``staged`` (already ``settled``) is over: record it and judge what
        follows (the outcome, the next side's turn)."""

    @abstractmethod
    def _act_event(self, side: Side, word: str) -> E:
        """The event of a game-ending act (``resign``, ``draw``, ``forfeit``) by ``side``."""

    @abstractmethod
    def _act_turn(self, side: Side, word: str, event: E) -> T:
        """The record line of a game-ending act."""

    def copy(self) -> Self:
        """A copy that plays on by itself: its own turns, staged actions and settled position
        (the staged positions, never changed, are shared)."""
        new = type(self).__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.turns = list(self.turns)
        new.current = list(self.current)
        new.headers = dict(self.headers)
        new.settled = self._copy_position(self.settled)
        return new

    def _copy_position(self, position: P) -> P:
        """A copy of ``position`` this game may change in place: a staged position becomes
        the settled one when its turn is played, and copies of a game share their staged
        positions. A game whose positions never change returns the position itself."""
        return position

    def _check_take_back(self, index: int) -> None:
        """Refuse to take back the staged actions from ``index`` on (an action whose effect
        cannot be undone, such as TORA's search)."""

    def publish(self) -> None:
        """Make public what the game keeps hidden until it ends (TORA's Assassin records,
        R44), where it stands: the host ends the match without a result (an abort, a
        cancellation). Nothing is hidden in a game that does not say otherwise."""

    def check_takeback(self) -> None:
        """Refuse (IllegalAction) to take back the last finished turn, as the players may
        agree to, when it holds an action whose effect cannot be undone (TORA's search):
        what the staged turn could not take back, the finished one cannot either."""

    def check_discard(self) -> None:
        """Refuse (IllegalAction) to drop the staged actions while the game goes on, when
        one of them could not be taken back (``_check_take_back`` from the first)."""
        if self.current:
            self._check_take_back(0)

    # ---- refusals, in each game's words -------------------------------------------------
    @abstractmethod
    def _refuse_over(self) -> IllegalAction: ...

    @abstractmethod
    def _refuse_undo(self) -> IllegalAction:
        """Nothing is staged to take back."""

    @abstractmethod
    def _refuse_take_back(self, index: int) -> IllegalAction:
        """No staged action has ``index``."""

    @abstractmethod
    def _refuse_agreement(self, kind: str) -> ValueError:
        """The players may not agree to ``kind``."""

    # ---- the state of play ----------------------------------------------------------------
    def outcome(self) -> Outcome | None:
        return self.result

    def is_over(self) -> bool:
        return self.result is not None

    @property
    def latest(self) -> P:
        """The position the staged actions leave (``settled`` while none is staged)."""
        return self.current[-1].after if self.current else self.settled

    def acting(self, viewer: Side | None) -> bool:
        """Whether ``viewer`` is the player to act in a game going on: the one who sees the
        staged actions."""
        return viewer is not None and viewer == self.side and self.result is None

    def seen_by(self, viewer: Side | None) -> P:
        """The position ``viewer`` sees: the player to act their staged actions played (the
        preview of ending the turn now), everyone else the position before them."""
        return self.latest if self.acting(viewer) else self.settled

    def staged_events(self, viewer: Side | None) -> tuple[E, ...]:
        """The events of the staged actions, for the player to act; nobody else sees them."""
        return tuple(staged.event for staged in self.current) if self.acting(viewer) else ()

    def staged(self) -> list[str]:
        return [staged.said for staged in self.current]

    def for_player(self, side: Side) -> Self:
        """A copy; what the opponent has staged in their running turn is left out (it stays
        private until the turn ends)."""
        new = self.copy()
        if new.side != side:
            new.discard_turn()
        return new

    # ---- staging --------------------------------------------------------------------------
    def apply(self, action: A | str) -> E:
        """Stage one action of ``side``: a text (read and checked) or the game's object."""
        chosen = self.parse_action(action) if isinstance(action, str) else self._admit(action)
        staged = self._stage(chosen)
        self.current.append(staged)
        return staged.event

    def undo(self) -> str:
        """Take the last staged action back; returns it as players read it."""
        if not self.current:
            raise self._refuse_undo()
        self._check_take_back(len(self.current) - 1)
        return self.current.pop().said

    def can_undo(self) -> bool:
        """Whether ``undo`` would take an action back: one is staged, and it is not held
        by a search before it or itself (TORA's R10)."""
        if not self.current:
            return False
        try:
            self._check_take_back(len(self.current) - 1)
        except IllegalAction:
            return False
        return True

    def take_back(self, index: int) -> str:
        """Take back staged action ``index`` (from 0), staging the later ones again."""
        if not 0 <= index < len(self.current):
            raise self._refuse_take_back(index)
        self._check_take_back(index)
        kept = list(self.current)
        del self.current[index:]
        try:
            for staged in kept[index + 1 :]:
                self.current.append(self._stage(staged.action))
        except IllegalAction as exc:
            self.current = kept
            raise IllegalAction(
                exc.rule,
                _later(index, exc.reason),
            ) from None
        return kept[index].said

    def discard_turn(self) -> list[str]:
        """Drop every staged action (the turn never ended, so nothing of it is played);
        returns them as players read them."""
        dropped = self.staged()
        self.current = []
        return dropped

    def _check_not_over(self) -> None:
        if self.result is not None:
            raise self._refuse_over()

    def _check_open(self) -> None:
        """Whether anything may be staged now: not once the game is over."""
        self._check_not_over()

    # ---- ending turns and games -------------------------------------------------------
    def end_turn(self, deadline: bool = False) -> T:
        """End the turn of ``side`` (at its deadline with ``deadline``)."""
        self._check_not_over()
        self._complete(deadline)
        return self._play(self._settle())

    def _settle(self) -> list[Staged[A, E, P]]:
        """The staged actions leave the running turn; the position they leave is settled."""
        staged, self.current = self.current, []
        if staged:
            self.settled = self._copy_position(staged[-1].after)
        return staged

    def resign(self, side: Side) -> E:
        """``side`` resigns, on its turn or not."""
        side = Side(side)
        return self._conclude(side, RESIGN, Outcome(side.other, "resignation"))

    def forfeit(self, side: Side) -> E:
        """``side`` loses on missed turns (reason ``FORFEIT``)."""
        side = Side(side)
        return self._conclude(side, FORFEIT, Outcome(side.other, FORFEIT))

    def agreements(self, proposer: Side | None = None) -> tuple[str, ...]:
        return () if self.result is not None else (DRAW,)

    def agree(self, kind: str) -> E:
        """Both players agreed a draw, recorded in the turn of the side to act."""
        if kind != DRAW:
            raise self._refuse_agreement(kind)
        return self._conclude(self.side, DRAW, Outcome(None, "agreed draw"))

    def _conclude(self, side: Side, word: str, outcome: Outcome) -> E:
        """A game-ending act: staged actions are dropped (the turn never ended), and the act
        is a record line of its own."""
        self._check_not_over()
        self.discard_turn()
        event = self._act_event(side, word)
        self.turns.append(self._act_turn(side, word, event))
        self._finish(outcome)
        return event

    def _finish(self, outcome: Outcome) -> None:
        """The game is over with ``outcome``."""
        self.result = outcome


class OneMoveMachine(TurnMachine[A, E, P, T]):
    """A game whose turn is one action, or one decision per question the opponent's turn
    asked: staged, it waits for ``end_turn`` to confirm it, and nothing more is staged
    until it is taken back."""

    def _check_open(self) -> None:
        super()._check_open()
        if not self.actions_left:
            raise self._refuse_full()

    @abstractmethod
    def _refuse_full(self) -> IllegalAction:
        """The turn is staged in full."""


def _later(index: int, reason: Text) -> Text:
    """Why staged action ``index`` cannot be taken back."""
    return msg(
        "taking back action {number} would make a later one illegal: {reason}",
        number=index + 1,
        reason=reason,
    )
