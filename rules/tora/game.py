"""A game of TORA: setup, actions, turns and rounds, outcomes, series (R4-R12, R24-R30).

The API follows python-chess: ``legal_actions()``, ``parse_action(text)``, ``notation(action)``,
``apply``, ``undo``, ``end_turn``, ``outcome()``. A Game copies cheaply (``copy``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..errors import IllegalAction
from ..protocol import Choice, ChoiceGroup, rounds_since
from ..sides import Outcome
from . import menu as menus
from . import trapped
from .actions import (
    DRAW,
    FIRE,
    RESET,
    RESIGN,
    SEARCH,
    Action,
)
from .assassin import AssassinRules, check_assassin_start
from .endings import GameEndings
from .geometry import BOARD_SIZES, LONG, SHORT, distance, name, square
from .layouts import LONG_SETUPS, SHORT_SETUPS
from .movegen import all_actions, search_actions
from .pieces import COMMAND_KINDS, GENERAL, RULER, Piece, Side
from .position import Effect, Position
from .resolve import Resolver
from .terrain import Terrain, parse_map, preset
from .view import Event, Turn, View, build_view, seen_event

STRATEGIES = ("aggressive", "defensive")


@dataclass(frozen=True)
class Options:
    board: str = SHORT
    challenger_setup: str = "aggressive"
    opposition_setup: str = "aggressive"
    terrain: str = "none"
    terrain_map: str = ""
    assassins: bool = False
    rulers: tuple[str, str] = ("K", "K")
    target: int = 0

    def validate(self) -> None:
        if self.board not in BOARD_SIZES:
            raise ValueError(f"board must be short or long, not {self.board!r}")
        for who, setup in (
            ("Challenger", self.challenger_setup),
            ("Opposition", self.opposition_setup),
        ):
            if setup not in STRATEGIES:
                raise ValueError(f"{who} setup must be aggressive or defensive, not {setup!r}")
        for letter in self.rulers:
            if letter not in ("K", "Q"):
                raise ValueError(f"a Ruler is K or Q, not {letter!r}")
        if self.assassins and self.board != LONG:
            raise ValueError("Assassins are played on the long board only (rule book ch. 2)")
        if self.target < 0:
            raise ValueError("a point target must be positive")

    def make_terrain(self) -> Terrain:
        size = BOARD_SIZES[self.board]
        if self.terrain_map:
            return parse_map(self.terrain_map, size)
        return preset(self.board, self.terrain)


class Game(Resolver, AssassinRules, GameEndings):
    game_type = "tora"

    def __init__(
        self,
        options: Options | None = None,
        assassin_starts: tuple[str | None, str | None] = (None, None),
        **kwargs,
    ) -> None:
        """``assassin_starts``: each side's private choice of its Assassin's start square
        (R41), None for a side that does not field one."""
        self.options = options or Options(**kwargs)
        self.options.validate()
        self.terrain = self.options.make_terrain()
        self.rulers = self.options.rulers
        starts = [
            0 if text is None else check_assassin_start(self.options, side, text)
            for side, text in zip(Side, assassin_starts, strict=True)
        ]
        self.assassin_starts = (starts[0], starts[1])
        self.assassin_log = []
        self.published = set()
        self.waived = set()
        self.turns: list[Turn] = []
        self.current: list[tuple[Action, Effect, str, Event]] = []
        self.stack: list[Position] = []
        self.result: Outcome | None = None
        self.game_number = 1
        # Replaying history that was judged when it was played: R25's search (the costly part
        # of ending a turn) can wait until the end, see ``judge_trapped``.
        self.skip_trapped = False
        self.pos = self._setup_position(score=(0, 0))
        self.pos.start_turn(Side.CHALLENGER)

    # ---- setup ---------------------------------------------------------------------------
    def _setup_position(self, score: tuple[int, int]) -> Position:
        pos = Position(self.terrain, self.options.assassins)
        pos.score = list(score)
        size = pos.size
        layouts = LONG_SETUPS if pos.long else SHORT_SETUPS
        strategies = (self.options.challenger_setup, self.options.opposition_setup)
        pid = 1
        for side in Side:
            for letter, h, v in layouts[strategies[side]]:
                if side == Side.OPPOSITION:
                    h, v = size + 1 - h, size + 1 - v
                pos.place(Piece(pid, side, letter, square(h, v)))
                pid += 1
        self._place_assassins(pos)
        return pos

    def for_player(self, side: Side) -> Game:
        """A copy holding only what ``side`` may know, down to its pickled bytes (what an
        engine's worker process receives): the opponent's hidden Assassin is taken off the
        board (and off the positions of the running turn, which ``undo`` goes back to), an
        engine's belief being that it is nowhere it could matter; the opponent's hidden
        actions of finished turns are in their public form (texts and events), and their
        Assassin's start square and record are dropped until R44 publishes them; a running
        turn of the opponent's is taken back to its start (staged actions are private).
        Jeopardy and trapped are judged without hidden Assassins anyway (R29), so the legal
        actions and turn ends of ``side`` stay those of the real game."""
        other = side.other
        new = self.copy()
        if new.pos.side == other:
            new.discard_turn()
            new.pos = new.pos.copy()  # the running turn's start, shared with this game
        new.stack = [position.copy() for position in new.stack]
        for position in (new.pos, *new.stack):
            hidden = position.hidden_assassin(other)
            if hidden is not None:
                position.remove(hidden.id)
                position.stunned.pop(hidden.id, None)
        new.turns = [_seen_turn(self, turn, side) for turn in new.turns]
        known = {number for number, owner in self.published if owner == other}
        if not known:
            starts = list(new.assassin_starts)
            starts[other] = 0
            new.assassin_starts = (starts[0], starts[1])
        new.assassin_log = [
            entry for entry in self.assassin_log if entry[1] == side or entry[0] in known
        ]
        if "headers" in new.__dict__:  # a game read from a judge's record names both starts
            new.headers = {k: v for k, v in new.headers.items() if "Assassin" not in k}
        return new

    def key(self) -> tuple[object, ...]:
        """Everything that tells two games apart, hidden state included (for checks)."""
        return (
            tuple((turn.side, tuple(turn.texts)) for turn in self.turns),
            tuple(self.staged()),
            tuple(self.pieces()),
            self.scores(),
            self.pending(),
            self.side,
            self.round,
            self.actions_left,
            self.game_number,
            str(self.outcome()),
        )

    def quiet_rounds(self) -> int:
        """Rounds since a piece was last removed: by an attack or a search (hidden ones
        included, which the public record shows by their victims) or at a round's end."""
        return rounds_since(
            self.turns, lambda turn: turn.round_end or any(ev.removed for ev in turn.events)
        )

    def fen(self) -> str:
        """TORA has no FEN: its position string is the judge's full record (R50), exact down
        to hidden Assassins and a series' score; ``TORA.from_fen`` replays it."""
        from .record import write_record  # record builds on Game

        return write_record(self)

    def copy(self) -> Game:
        new = Game.__new__(Game)
        new.__dict__.update(self.__dict__)
        new.turns = [
            Turn(t.side, t.round, t.game, list(t.texts), list(t.events), t.round_end)
            for t in self.turns
        ]
        new.current = list(self.current)
        new.stack = list(self.stack)
        new.assassin_log = list(self.assassin_log)
        new.published = set(self.published)
        new.waived = set(self.waived)
        new.pos = self.pos.copy()
        return new

    # ---- queries -------------------------------------------------------------------------
    @property
    def side(self) -> Side:
        return self.pos.side

    @property
    def round(self) -> int:
        return self.pos.round

    @property
    def actions_left(self) -> int:
        return self.pos.actions_left

    def outcome(self) -> Outcome | None:
        return self.result

    def is_over(self) -> bool:
        return self.result is not None

    def scores(self) -> tuple[int, int]:
        """Booked points (R27): points of the running round are booked when it ends."""
        return self.pos.score[0], self.pos.score[1]

    def pending(self) -> tuple[int, int]:
        return self.pos.pending[0], self.pos.pending[1]

    def pieces(self) -> list[Piece]:
        """Every piece, hidden ones included: the judge's list. Players get ``view_for``."""
        return self.pieces_of(self.pos)

    @staticmethod
    def pieces_of(pos: Position) -> list[Piece]:
        return sorted(pos.pieces.values(), key=lambda p: (p.side, p.sq & 31, p.sq >> 5))

    def view_for(self, viewer: Side | None) -> View:
        """What ``viewer`` may know (None: a spectator). The opponent of the player to act
        sees the board as the last turn left it; staged actions stay private until the turn
        ends (R40-R44: hidden Assassins only in their owner's view)."""
        return build_view(self, viewer)

    def letter(self, piece: Piece) -> str:
        return self.rulers[piece.side] if piece.kind == RULER else piece.kind

    def legal_actions(self) -> list[Action]:
        """Every legal action of the side to act, its hidden Assassin's included (so only
        for that player's eyes): each piece's actions, then the searches (R43).

        Like a move into jeopardy (refused only when the turn ends, R30), a command piece's
        search is judged for jeopardy (R43) when it is applied, not here: that judgement
        costs a jeopardy search per square, and this list must stay fast."""
        if self.result is not None:
            return []
        pos = self.pos
        actions = [action for action, _effect in all_actions(pos)]
        if not pos.assassins or pos.crown_pending[pos.side] or self.r30_offenders():
            return actions  # no search while the turn could not end (R10, R30)
        for piece in sorted(pos.side_pieces(pos.side), key=lambda p: (p.sq & 31, p.sq >> 5)):
            actions += [action for action, _effect in search_actions(pos, piece)]
        return actions

    def menu(self) -> tuple[ChoiceGroup, ...]:
        """The legal actions grouped by the piece that acts, for menus (``rules.tora.menu``)."""
        return menus.menu(self)

    def choices(self, key: str | None = None) -> tuple[Choice, ...]:
        """The actions of one group of ``menu()`` (None: of all), in words and notation."""
        return menus.choices(self, key)

    def prompt(self) -> str:
        crowning = self.pos.crown_pending[self.side]
        return "Choose a General to crown" if crowning else "Choose a piece"

    def warnings(self, notations: Sequence[str]) -> tuple[str, ...]:
        """R30 before a command piece's action is staged (``rules.tora.menu.warnings``)."""
        return menus.warnings(self, notations)

    # ---- acting --------------------------------------------------------------------------
    def _check_can_act(self) -> None:
        if self.result is not None:
            raise IllegalAction("R24", f"the game is over: {self.result}")

    def _check_game_level(self, kind: str) -> None:
        self._check_can_act()
        if kind == RESET and not self.can_reset():
            raise IllegalAction(
                "R28",
                "a reset needs a series to a point target on the long board and a player "
                "down to 1 action",
            )

    def apply(self, action: Action | str) -> Event:
        """Play one action of the side to act (validated), or a game-level act by that side."""
        if isinstance(action, str):
            action = self.parse_action(action)
        if action.kind == RESIGN:
            return self.resign(self.side)
        if action.kind == DRAW:
            return self.agree_draw()
        if action.kind == RESET:
            return self.agree_reset()
        self._check_can_act()
        pairs = self._pairs(action)
        effect = self._effect(action, pairs)
        if action.kind == SEARCH:
            self._check_search(effect)
        text = self._notation(action, effect, pairs)
        event = self._event(action, effect, text)
        before = self.pos.pieces.get(effect.piece)
        self.stack.append(self.pos.copy())
        reveal = self.pos.commit(effect)
        event = self._settle_event(event, action, before, reveal)
        if effect.free:
            event = replace(event, note="the free take of the Assassin the search revealed")
        if action.kind == SEARCH:
            self._after_search()
        self.current.append((action, effect, text, event))
        return event

    def _event(self, action: Action, effect: Effect, text: str) -> Event:
        pos = self.pos
        side = pos.side
        removed: list[tuple[Side, str, int]] = []
        doomed: list[int] = []
        for pid in effect.hits:
            victim = pos.pieces[pid]
            if victim.kind in COMMAND_KINDS:
                doomed.append(victim.sq)
            else:
                removed.append((victim.side, self.letter(victim), victim.sq))
        for pid in effect.losses:
            lost = pos.pieces[pid]
            removed.append((lost.side, self.letter(lost), lost.sq))
        shots: list[tuple[int, int]] = []
        if action.kind == FIRE and effect.hits:
            shots.append((action.origin, pos.pieces[effect.hits[0]].sq))
        elif action.target and distance(effect.rest, action.target) > 1:
            shots.append((effect.rest, action.target))
        piece = pos.pieces.get(effect.piece)
        letter = self.letter(piece) if piece else ""
        return Event(
            side,
            text,
            letter,
            action.origin,
            effect.rest,
            action.path,
            tuple(shots),
            tuple(removed),
            tuple(doomed),
        )

    def undo(self) -> str:
        """Take back the last action of this turn (R10); returns its notation."""
        if not self.current:
            raise IllegalAction("R10", "there is no action of this turn to take back")
        if self.current[-1][0].kind == SEARCH:
            raise IllegalAction("R10", _SEARCH_STAYS)
        self.pos = self.stack.pop().copy()  # copies of this game share their stack's positions
        return self.current.pop()[2]

    def take_back(self, index: int) -> str:
        """Take back any action of this turn (R10), replaying the later ones after it."""
        if not 0 <= index < len(self.current):
            raise IllegalAction("R10", f"this turn has actions 1 to {len(self.current)}")
        if any(action.kind == SEARCH for action, *_rest in self.current[index:]):
            raise IllegalAction("R10", _SEARCH_STAYS)
        later = [action for action, _e, _t, _ev in self.current[index + 1 :]]
        snapshot = (list(self.current), list(self.stack), self.pos)
        while len(self.current) > index:
            text = self.undo()
        try:
            for action in later:
                self.apply(action)
        except IllegalAction as exc:
            self.current, self.stack, self.pos = snapshot
            raise IllegalAction(
                exc.rule,
                f"taking back action {index + 1} would make a later one illegal: {exc.reason}",
            ) from None
        return text

    def staged(self) -> list[str]:
        return [text for _a, _e, text, _ev in self.current]

    def end_turn(self, deadline: bool = False) -> Turn:
        """End the turn (R12). Refused if it breaks R30, unless the deadline ends it: then
        the latest actions are dropped until it does not (what a player could still undo)."""
        self._check_can_act()
        offenders = self.r30_offenders()
        while offenders and deadline and self.current[-1][0].kind != SEARCH:
            self.undo()
            offenders = self.r30_offenders()
        if offenders:
            listed = ", ".join(f"{self.letter(p)} {name(p.sq)}" for p in offenders)
            raise IllegalAction(
                "R30",
                f"the turn cannot end: {listed} moved or attacked this turn and would be in "
                "jeopardy; undo or move it to safety",
                [f"undo ({t})" for t in reversed(self.staged())][:3],
            )
        return self._finish_turn()

    def _finish_turn(self) -> Turn:
        pos = self.pos
        turn = self._close_turn()
        if pos.side == Side.OPPOSITION:
            turn.round_end = self._end_round()
        if self.result is None:
            pos = self.pos
            pos.start_turn(pos.side.other)
            if not self.skip_trapped:
                self.judge_trapped()
        return turn

    def judge_trapped(self) -> None:
        """R25 at the start of the running turn (nothing staged yet): the player to act loses
        if no turn they could end saves a live command piece."""
        if self.result is None and not self.current and trapped.is_trapped(self.pos):
            self._finish(Outcome(self.pos.side.other, "trapped"))

    def _end_round(self) -> tuple[tuple[Side, str, int], ...]:
        """R11, R24, R27, R28: remove doomed pieces, book points, succession, outcomes."""
        pos = self.pos
        rulers_before = {p.side for p in pos.pieces.values() if p.kind == RULER}
        removed = pos.end_round()
        gone = tuple((p.side, self.letter(p), p.sq) for p in removed)
        for side in Side:
            generals = [p for p in pos.pieces.values() if p.side == side and p.kind == GENERAL]
            ruler_lost = side in rulers_before and not any(
                p.side == side and p.kind == RULER for p in pos.pieces.values()
            )
            if ruler_lost and len(generals) == 1:
                pos.pieces[generals[0].id] = generals[0]._replace(kind=RULER)
            elif ruler_lost and generals:
                pos.crown_pending[side] = True
        if self._target_reached():
            return gone
        beaten = [side for side in Side if not pos.commanders(side)]
        if beaten:
            outcome = (
                Outcome(None, "both sides lost command")
                if len(beaten) == 2
                else Outcome(beaten[0].other, "loss of command")
            )
            if self.options.target:
                self._next_game()
            else:
                self._finish(outcome)
        return gone

    def _target_reached(self) -> bool:
        target = self.options.target
        score = self.pos.score
        if not target or max(score) < target:
            return False
        if score[0] == score[1]:
            self._finish(Outcome(None, f"both reached the target of {target}"))
        else:
            winner = Side.CHALLENGER if score[0] > score[1] else Side.OPPOSITION
            self._finish(Outcome(winner, f"reached the target of {target} points"))
        return True

    def _next_game(self) -> None:
        """R28: the points carry over and a fresh board is set up."""
        self._publish_game()
        self.game_number += 1
        self.pos = self._setup_position(score=(self.pos.score[0], self.pos.score[1]))
        self.pos.side = Side.OPPOSITION  # the caller starts the next turn: the Challenger's

    def _finish(self, outcome: Outcome) -> None:
        self._book_pending()
        self._publish_game()
        self.result = outcome

    def _close_turn(self, *acts: str) -> Turn:
        """Record the staged actions (and game-level ``acts``) as the turn of the side to act."""
        pos = self.pos
        turn = Turn(
            pos.side,
            pos.round,
            self.game_number,
            [*self.staged(), *acts],
            [ev for *_x, ev in self.current],
        )
        self.turns.append(turn)
        self.current, self.stack, self.waived = [], [], set()
        self._log_assassin_turn(turn)
        return turn

    def _book_pending(self) -> None:
        pos = self.pos
        for side in (0, 1):
            pos.score[side] += pos.pending[side]
            pos.pending[side] = 0

    def _record_partial_turn(self) -> None:
        if self.current:
            self._close_turn()
        self.current, self.stack, self.waived = [], [], set()


def _seen_turn(game: Game, turn: Turn, viewer: Side) -> Turn:
    """A finished turn as ``viewer`` may know it (its texts those of the events it sees)."""
    if turn.side == viewer or game.is_published(turn.side, turn.game):
        return turn
    events = [seen_event(game, event, viewer, turn.game) for event in turn.events]
    texts = [event.text for event in events] + turn.texts[len(events) :]
    return Turn(turn.side, turn.round, turn.game, texts, events, turn.round_end)


_SEARCH_STAYS = "a search revealed what it found: it cannot be taken back, nor anything before it"
