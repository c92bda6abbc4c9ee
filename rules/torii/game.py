"""A game of Torii: the ``rules.protocol.GameState`` the host plays.

A normal turn is one action (the whole ``Move``, or ``pass`` when TI8 leaves nothing else),
staged with ``apply`` and confirmed with ``end_turn``. When the turn built Torii and the
opponent's Spirit is a Monkey (TI15), ``side`` then becomes the Monkey's owner, who stages
one ``flip`` decision per Torii (``actions_left`` of them) and ends that decision turn; the
builder's reset (TI11) follows, and the Monkey's owner plays their normal turn. When that turn
went on to build the builder's 4th Torii, the decisions for the Torii before it are still
asked, and ending them ends the game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.errors import IllegalAction
from rules.grouped import Grouped, choices_of, headers
from rules.protocol import FORFEIT, Choice, ChoiceGroup, NoPoints, rounds_since
from rules.sides import Outcome, Side

from . import events as ev
from . import fen as position_string
from .actions import DECISIONS, PASS, PASS_TEXT, Action, Decision, Move, Pass, flip_text
from .building import WIN_FOLLOWERS, WIN_TORII
from .events import Event, move_event
from .generate import whole_turns
from .menu import build_menu
from .monkey import decide, pass_turn
from .notation import Spec, read, write
from .resolve import resolve
from .state import Position, Setup, start_position
from .turn import Work
from .view import View, build_view

DRAW = "draw"


@dataclass(frozen=True)
class Turn:
    """A finished turn (``GameTurn``): who played it, its actions' notations, their events."""

    side: Side
    texts: list[str]
    events: tuple[Event, ...]


@dataclass(frozen=True)
class Staged:
    action: Action
    text: str
    event: Event
    after: Position  # the position if the turn ended now


class ToriiGame(NoPoints):
    game_type = "torii"

    def __init__(self, setup: Setup, position: Position | None = None) -> None:
        self.setup = setup
        self.start = start_position() if position is None else position
        self.pos = self.start
        self.turns: list[Turn] = []
        self.current: list[Staged] = []
        self.headers: dict[str, str] = {}  # extra record headers (player names...), kept as read
        self.result: Outcome | None = _won(self.pos)
        self._table: tuple[Position, dict[Move, tuple[str, Work]]] | None = None

    # ---- state ---------------------------------------------------------------------------
    @property
    def side(self) -> Side:
        return self.pos.side

    @property
    def actions_left(self) -> int:
        if self.result is not None:
            return 0
        return max(self.pos.owed, 1) - len(self.current)

    @property
    def deciding(self) -> bool:
        """The side to act owes Monkey decisions (TI15)."""
        return self.pos.owed > 0 and self.result is None

    def outcome(self) -> Outcome | None:
        return self.result

    def for_player(self, side: Side) -> ToriiGame:
        """A copy; nothing is hidden but what the opponent has staged in their running
        turn, which is left out (it stays private until the turn ends)."""
        new = self.copy()
        if new.side != side:
            new.discard_turn()
        return new

    def key(self) -> tuple[object, ...]:
        """Everything that tells two games apart (for integrity checks)."""
        return (
            tuple((turn.side, tuple(turn.texts)) for turn in self.turns),
            tuple(self.staged()),
            self.setup,
            self.start,
            self.pos,
            str(self.result),
        )

    def is_over(self) -> bool:
        return self.result is not None

    def quiet_rounds(self) -> int:
        """Rounds since a Torii was last built: Followers come and go every turn, a Torii
        stays (TI10). The Monkey's decisions (TI15) belong to the turn they answer."""
        return rounds_since(
            self.turns,
            lambda turn: any(event.builds for event in turn.events),
            lambda turn: not any(event.kind == ev.DECISION for event in turn.events),
        )

    def copy(self) -> ToriiGame:
        new = ToriiGame.__new__(ToriiGame)
        new.__dict__.update(self.__dict__)
        new.turns = list(self.turns)
        new.current = list(self.current)
        new.headers = dict(self.headers)
        return new

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "_table": None}  # the legal-turn cache is rebuilt on demand

    def fen(self) -> str:
        """The position (before any staged action) as a position string (see ``fen``)."""
        return position_string.write(self.pos, self.setup)

    def view_for(self, viewer: Side | None) -> View:
        return build_view(self, viewer)

    def shown_position(self, viewer: Side | None) -> Position:
        """The acting player sees their staged actions applied; everyone else the position
        before them."""
        if self.current and viewer == self.side and self.result is None:
            return self.current[-1].after
        return self.pos

    # ---- legal actions -------------------------------------------------------------------
    def turn_table(self) -> dict[Move, tuple[str, Work]]:
        """Every legal move of the position with its notation and finished turn (cached)."""
        if self._table is None or self._table[0] is not self.pos:
            works = whole_turns(self.pos, self.setup)
            self._table = (self.pos, {w.move(): (write(w), w) for w in works})
        return self._table[1]

    def legal_actions(self) -> list[Action]:
        if self.actions_left == 0:
            return []
        if self.pos.owed:
            return list(DECISIONS)
        return list(self.turn_table()) or [PASS]

    def notation(self, action: Action) -> str:
        if isinstance(action, Pass):
            return PASS_TEXT
        if isinstance(action, Decision):
            return flip_text(action.flip)
        entry = self.turn_table().get(action)
        if entry is None:
            raise IllegalAction("TI19", "that is not a legal turn in this position")
        return entry[0]

    def menu(self) -> tuple[ChoiceGroup, ...]:
        return headers(self._groups())

    def choices(self, key: str | None = None) -> tuple[Choice, ...]:
        return choices_of(self._groups(), key)

    def prompt(self) -> str:
        if self.pos.owed:
            return "Choose the Monkey's flip"
        return "Choose a tile, or a power first"

    def _groups(self) -> tuple[Grouped, ...]:
        return build_menu(self) if self.actions_left else ()

    def parse_action(self, text: str) -> Action:
        action = read(text)
        if not isinstance(action, Spec):
            self._check(type(action))
            return action
        self._check(Move)
        move = resolve(self.pos, self.setup, action, text).move()
        if move not in self.turn_table():
            raise AssertionError(f"{text!r} was read as a turn the generator does not make")
        return move

    def _check(self, kind: type) -> None:
        """Whether an action of ``kind`` may be staged now (TI8, TI15, TI18)."""
        self._check_can_act()
        decisions = [flip_text(d.flip) for d in DECISIONS]
        if self.pos.owed and kind is not Decision:
            raise IllegalAction(
                "TI15", "the Monkey's owner first decides on the Torii just built", decisions
            )
        if not self.pos.owed and kind is Decision:
            raise IllegalAction(
                "TI15", "a Monkey decision is due only after the opponent builds a Torii"
            )
        moves = self.turn_table()
        if kind is Pass and moves:
            raise IllegalAction(
                "TI8",
                "a turn is a pass only when no unused tile has a path (a turn left to its "
                "deadline passes by itself)",
                [text for text, _work in list(moves.values())[:12]],
            )
        if kind is Move and not moves:
            raise IllegalAction("TI8", "no unused tile has a path: the turn is a pass", ["pass"])

    def _check_can_act(self) -> None:
        if self.result is not None:
            raise IllegalAction("TI18", f"the game is over: {self.result}")
        if self.actions_left == 0:
            raise IllegalAction(
                "TI19", "the turn is staged in full: end it, or undo to change it", ["undo"]
            )

    # ---- staging -------------------------------------------------------------------------
    def apply(self, action: Action | str) -> Event:
        if isinstance(action, str):
            action = self.parse_action(action)
        else:
            self._check(type(action))
        staged = self._stage(action)
        self.current.append(staged)
        return staged.event

    def _stage(self, action: Action) -> Staged:
        """The staged form of an action already checked to be of an allowed kind."""
        side, spirit = self.side, self.setup.spirits[self.side]
        if isinstance(action, Decision):
            before = self.current[-1].after if self.current else self.pos
            text = flip_text(action.flip)
            event = Event(side, text, spirit, ev.DECISION, flip=action.flip)
            return Staged(action, text, event, decide(before, action.flip))
        if isinstance(action, Pass):
            event = Event(side, PASS_TEXT, spirit, ev.PASS)
            return Staged(action, PASS_TEXT, event, pass_turn(self.pos))
        entry = self.turn_table().get(action)
        if entry is None:
            raise IllegalAction("TI19", "that is not a legal turn in this position")
        text, work = entry
        return Staged(action, text, move_event(work, text), work.result())

    def undo(self) -> str:
        if not self.current:
            raise IllegalAction("TI19", "nothing is staged to take back")
        return self.current.pop().text

    def take_back(self, index: int) -> str:
        if not 0 <= index < len(self.current):
            raise IllegalAction("TI19", f"there is no staged action {index + 1}")
        later = [staged.action for staged in self.current[index + 1 :]]
        text = self.current[index].text
        del self.current[index:]
        for action in later:  # only Monkey decisions stand after another action
            self.current.append(self._stage(action))
        return text

    def staged(self) -> list[str]:
        return [staged.text for staged in self.current]

    def discard_turn(self) -> list[str]:
        """Drop what is staged (the turn never ended); returns what was dropped."""
        dropped = self.staged()
        self.current = []
        return dropped

    # ---- ending a turn -------------------------------------------------------------------
    def end_turn(self, deadline: bool = False) -> Turn:
        """End the turn of ``side``. At the deadline, decisions not staged are none (TI15),
        and a normal turn with nothing staged lapses: played as a pass (TI8's effect)."""
        if self.result is not None:
            raise IllegalAction("TI18", f"the game is over: {self.result}")
        if self.actions_left and not deadline:
            if self.pos.owed:
                raise IllegalAction(
                    "TI15",
                    f"decide on each Torii built ({self.actions_left} left) before ending",
                    [flip_text(d.flip) for d in DECISIONS],
                )
            raise IllegalAction("TI19", "stage a turn before ending it")
        if self.actions_left:
            self._lapse()
        after = self.current[-1].after
        turn = Turn(self.side, self.staged(), tuple(staged.event for staged in self.current))
        self.turns.append(turn)
        self.current = []
        self.pos = after
        self.result = _won(after)
        return turn

    def _lapse(self) -> None:
        side, spirit = self.side, self.setup.spirits[self.side]
        if not self.pos.owed:
            event = Event(side, PASS_TEXT, spirit, ev.LAPSE)
            self.current.append(Staged(PASS, PASS_TEXT, event, pass_turn(self.pos)))
            return
        while self.actions_left:
            before = self.current[-1].after if self.current else self.pos
            text = flip_text(None)
            event = Event(side, text, spirit, ev.DECISION, lapsed=True)
            self.current.append(Staged(Decision(None), text, event, decide(before, None)))

    # ---- game-level acts -----------------------------------------------------------------
    def resign(self, side: Side) -> Event:
        return self._end_game(side, ev.RESIGN, Outcome(side.other, "resignation"))

    def forfeit(self, side: Side) -> Event:
        return self._end_game(side, ev.FORFEIT, Outcome(side.other, FORFEIT))

    def agreements(self) -> tuple[str, ...]:
        return () if self.result is not None else (DRAW,)

    def agree(self, kind: str) -> Event:
        if kind != DRAW:
            raise IllegalAction("TI18", f"players may agree a draw, not {kind!r}", [DRAW])
        return self._end_game(self.side, ev.DRAW, Outcome(None, "agreed draw"))

    def _end_game(self, side: Side, kind: str, outcome: Outcome) -> Event:
        """TI18: staged actions are dropped; the act is a record line of its own."""
        if self.result is not None:
            raise IllegalAction("TI18", f"the game is over: {self.result}")
        self.current = []
        event = Event(side, kind, self.setup.spirits[side], kind)
        self.turns.append(Turn(side, [kind], (event,)))
        self.result = outcome
        return event


def _won(pos: Position) -> Outcome | None:
    """The outcome of a won position; none yet while the winning turn's opponent still owes
    Monkey decisions for the Torii before the winning one (TI15)."""
    winner = pos.winner()
    if winner is None or pos.owed:
        return None
    return Outcome(winner, WIN_FOLLOWERS if pos.supply(winner) == 0 else WIN_TORII)
