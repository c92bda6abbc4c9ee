"""A game of Torii: the ``rules.protocol.GameState`` the host plays, through the turn machine
(``rules.turn.OneMoveMachine``).

A normal turn is one action (the whole ``Move``, or ``pass`` when TI8 leaves nothing else),
staged with ``apply`` and confirmed with ``end_turn``. When the turn built Torii and the
opponent's Spirit is a Monkey (TI15), ``side`` then becomes the Monkey's owner, who stages
one ``flip`` decision per Torii (``actions_left`` of them) and ends that decision turn; the
builder's reset (TI11) follows, and the Monkey's owner plays their normal turn. When that turn
went on to build the builder's 4th Torii, the decisions for the Torii before it are still
asked, and ending them ends the game.
"""

from __future__ import annotations

from typing import Any

from rules.errors import IllegalAction
from rules.grouped import Grouped, choices_of, headers, menu_and_choices_of
from rules.protocol import Choice, ChoiceGroup, NoPoints, rounds_since
from rules.sides import Outcome, Side
from rules.turn import DRAW, OneMoveMachine, Staged
from rules.words import msg, msg_n

from . import events as ev
from . import fen as position_string
from .actions import DECISIONS, PASS, PASS_TEXT, Action, Decision, Move, Pass, flip_text
from .building import REASONS, WIN_FOLLOWERS, WIN_TORII
from .events import Event, Turn, move_event
from .generate import whole_turns
from .menu import build_menu, monkey_group
from .monkey import decide, pass_turn
from .notation import Spec, read, write
from .resolve import resolve
from .state import ALL_TILES, Position, Setup, start_position
from .turn import Work
from .view import View, build_view


class ToriiGame(NoPoints, OneMoveMachine[Action, Event, Position, Turn]):
    game_type = "torii"

    def __init__(self, setup: Setup, position: Position | None = None) -> None:
        self.setup = setup
        self.start = start_position() if position is None else position
        self.settled = self.start
        self.turns: list[Turn] = []
        self.current: list[Staged[Action, Event, Position]] = []
        self.headers: dict[str, str] = {}  # extra record headers (player names...), kept as read
        self.result: Outcome | None = _won(self.pos)
        self._table: tuple[Position, dict[Move, tuple[str, Work]]] | None = None

    # ---- state ---------------------------------------------------------------------------
    @property
    def pos(self) -> Position:
        """The position before any staged action."""
        return self.settled

    @property
    def side(self) -> Side:
        return self.pos.side

    @property
    def actions_left(self) -> int:
        if self.result is not None:
            return 0
        return self.pos.actions - len(self.current)

    @property
    def deciding(self) -> bool:
        """The side to act owes Monkey decisions (TI15)."""
        return self.pos.owed > 0 and self.result is None

    @property
    def forced_pass(self) -> bool:
        """The side to act may only pass (TI8: no unused tile has a path). With a tile unused
        the turns are generated, though on 6x6 one always has a path (TI8's remark)."""
        if self.result is not None or self.pos.owed:
            return False
        return self.pos.used[self.side] == ALL_TILES or not self.turn_table()

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

    def quiet_rounds(self) -> int:
        """Rounds since a Torii was last built: Followers come and go every turn, a Torii
        stays (TI10). The Monkey's decisions (TI15) belong to the turn they answer."""
        return rounds_since(
            self.turns,
            lambda turn: any(event.builds for event in turn.events),
            lambda turn: not any(event.kind == ev.DECISION for event in turn.events),
        )

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "_table": None}  # the legal-turn cache is rebuilt on demand

    def fen(self) -> str:
        """The position (before any staged action) as a position string (see ``fen``)."""
        return position_string.write(self.pos, self.setup)

    def view_for(self, viewer: Side | None) -> View:
        return build_view(
            viewer,
            self.side,
            self.actions_left,
            self.seen_by(viewer),
            self.staged_events(viewer),
            self.turns,
            self.result,
            self.setup,
            self.deciding,
            self.forced_pass,
        )

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
            raise IllegalAction("TI19", msg("that is not a legal turn in this position"))
        return entry[0]

    def menu(self) -> tuple[ChoiceGroup, ...]:
        return headers(self._groups())

    def choices(self, key: str | None = None) -> tuple[Choice, ...]:
        return choices_of(self._groups(), key)

    def menu_and_choices(self) -> tuple[tuple[ChoiceGroup, ...], tuple[Choice, ...]]:
        return menu_and_choices_of(self._groups())

    def prompt(self) -> str:
        if self.pos.owed:
            return msg("Choose the Monkey's flip")
        if self.forced_pass:  # TI8: the menu holds the pass alone
            return msg("Choose the pass")
        return msg("Choose a tile, or a power first")

    def _groups(self) -> tuple[Grouped, ...]:
        if not self.actions_left:
            return ()
        if self.pos.owed:
            return (monkey_group(self.latest, self.side, self.actions_left),)
        return build_menu(self.turn_table(), self.side)

    def parse_action(self, text: str) -> Action:
        action = read(text)
        if not isinstance(action, Spec):
            return self._admit(action)
        self._check(Move)
        move = resolve(self.pos, self.setup, action, text).move()
        if move not in self.turn_table():
            raise AssertionError(f"{text!r} was read as a turn the generator does not make")
        return move

    def _admit(self, action: Action) -> Action:
        self._check(type(action))
        return action

    def _check(self, kind: type) -> None:
        """Whether an action of ``kind`` may be staged now (TI8, TI15, TI18)."""
        self._check_open()
        decisions = [flip_text(d.flip) for d in DECISIONS]
        if self.pos.owed and kind is not Decision:
            raise IllegalAction(
                "TI15", msg("the Monkey's owner first decides on the Torii just built"), decisions
            )
        if not self.pos.owed and kind is Decision:
            raise IllegalAction(
                "TI15", msg("a Monkey decision is due only after the opponent builds a Torii")
            )
        moves = self.turn_table()
        if kind is Pass and moves:
            raise IllegalAction(
                "TI8",
                msg(
                    "a turn is a pass only when no unused tile has a path (a turn left to its "
                    "deadline passes by itself)"
                ),
                [text for text, _work in list(moves.values())[:12]],
            )
        if kind is Move and not moves:
            said = msg("no unused tile has a path: the turn is a pass")
            raise IllegalAction("TI8", said, ["pass"])

    # ---- staging -------------------------------------------------------------------------
    def _stage(self, action: Action) -> Staged[Action, Event, Position]:
        """The staged form of an action already checked to be of an allowed kind."""
        side, spirit = self.side, self.setup.spirits[self.side]
        if isinstance(action, Decision):
            text = flip_text(action.flip)
            event = Event(side, text, spirit, ev.DECISION, flip=action.flip)
            return Staged(action, text, text, event, decide(self.latest, action.flip))
        if isinstance(action, Pass):
            event = Event(side, PASS_TEXT, spirit, ev.PASS)
            return Staged(action, PASS_TEXT, PASS_TEXT, event, pass_turn(self.pos))
        entry = self.turn_table().get(action)
        if entry is None:
            raise IllegalAction("TI19", msg("that is not a legal turn in this position"))
        text, work = entry
        return Staged(action, text, text, move_event(work, text), work.result())

    # ---- ending a turn -------------------------------------------------------------------
    def _complete(self, deadline: bool) -> None:
        """At the deadline, decisions not staged are none (TI15), and a normal turn with
        nothing staged lapses: played as a pass (TI8's effect)."""
        if self.actions_left and not deadline:
            if self.pos.owed:
                raise IllegalAction(
                    "TI15",
                    msg_n(
                        "decide on each Torii built ({n} left) before ending",
                        "decide on each Torii built ({n} left) before ending",
                        self.actions_left,
                    ),
                    [flip_text(d.flip) for d in DECISIONS],
                )
            raise IllegalAction("TI19", msg("stage a turn before ending it"))
        side, spirit = self.side, self.setup.spirits[self.side]
        if self.actions_left and not self.pos.owed:
            event = Event(side, PASS_TEXT, spirit, ev.LAPSE)
            self.current.append(Staged(PASS, PASS_TEXT, PASS_TEXT, event, pass_turn(self.pos)))
        while self.actions_left:
            text = flip_text(None)
            event = Event(side, text, spirit, ev.DECISION, lapsed=True)
            after = decide(self.latest, None)
            self.current.append(Staged(Decision(None), text, text, event, after))

    def _play(self, staged: list[Staged[Action, Event, Position]]) -> Turn:
        side = staged[0].event.side
        turn = Turn(side, [s.text for s in staged], tuple(s.event for s in staged))
        self.turns.append(turn)
        self.result = _won(self.pos)
        return turn

    def _act_event(self, side: Side, word: str) -> Event:
        """TI18: a resignation, an agreed draw or a forfeit, on its own record line."""
        return Event(side, word, self.setup.spirits[side], word)

    def _act_turn(self, side: Side, word: str, event: Event) -> Turn:
        return Turn(side, [word], (event,))

    # ---- refusals ------------------------------------------------------------------------
    def _refuse_over(self) -> IllegalAction:
        assert self.result is not None
        said = msg("the game is over: {result}", result=self.result.words(REASONS))
        return IllegalAction("TI18", said)

    def _refuse_full(self) -> IllegalAction:
        return IllegalAction(
            "TI19", msg("the turn is staged in full: end it, or undo to change it"), ["undo"]
        )

    def _refuse_undo(self) -> IllegalAction:
        return IllegalAction("TI19", msg("nothing is staged to take back"))

    def _refuse_take_back(self, index: int) -> IllegalAction:
        return IllegalAction("TI19", msg("there is no staged action {number}", number=index + 1))

    def _refuse_agreement(self, kind: str) -> IllegalAction:
        said = msg("players may agree a draw, not {kind}", kind=repr(kind))
        return IllegalAction("TI18", said, [DRAW])


def _won(pos: Position) -> Outcome | None:
    """The outcome of a won position; none yet while the winning turn's opponent still owes
    Monkey decisions for the Torii before the winning one (TI15)."""
    winner = pos.winner()
    if winner is None or pos.owed:
        return None
    return Outcome(winner, WIN_FOLLOWERS if pos.supply(winner) == 0 else WIN_TORII)
