"""A game of TORA as the rules judge it: setup, actions, turns and rounds, outcomes, series
(R4-R12, R24-R30, R40-R44), played through the turn machine (``rules.turn``).

``Play`` keeps the state and applies the rulings, each of them judged by a collaborator it
hands what that needs: reading and writing actions (``Resolver``), the Assassins' book
(``Assassins``, ``check_search``, ``settle_event``), jeopardy (R30) and trapped (R25), the
ends of rounds and series (``endings``). ``rules.tora.game.Game`` adds what is shown of it.

``pos`` is the position the staged actions leave, the turn being played (``latest``);
``settled`` is the one the last finished turn left.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Self

from ..errors import IllegalAction
from ..protocol import UNFINISHED, rounds_since
from ..sides import Outcome, Side
from ..turn import DRAW, RESIGN, Staged, TurnMachine
from ..words import msg
from . import endings, restriction, trapped
from .actions import GAME_LEVEL, RESET, SEARCH, Action
from .assassin import Assassins, check_assassin_start, check_search, settle_event
from .deploy import deploy
from .endings import REASONS
from .events import Event, Turn, act_event, action_event, letter_of
from .geometry import name
from .movegen import all_actions, piece_actions, search_actions
from .notation import parse
from .options import Options
from .pieces import Piece
from .position import Position
from .resolve import Resolver

AGREEMENTS = (DRAW, RESET)
_SEARCH_STAYS = msg(
    "a search revealed what it found: it cannot be taken back, nor anything before it"
)
_TURN_SEARCHED = msg(
    "it holds a search, which revealed what it found, and nothing is taken back past a search"
)


class Play(TurnMachine[Action, Event, Position, Turn]):
    game_type = "tora"

    def __init__(
        self,
        options: Options | None = None,
        assassin_starts: tuple[str | None, str | None] = (None, None),
        **kwargs: Any,
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
        self.assassins = Assassins((starts[0], starts[1]))
        self.turns: list[Turn] = []
        self.current: list[Staged[Action, Event, Position]] = []
        self.waived: set[int] = set()  # R30 offenders the last search of this turn made (R10)
        self.result: Outcome | None = None
        self.game_number = 1
        self.headers: dict[str, str] = {}  # a record's headers, kept as read
        # Replaying history that was judged when it was played: R25's search (the costly part
        # of ending a turn) can wait until the end, see ``judge_trapped``.
        self.skip_trapped = False
        # ... and a turn its player ended is not judged by R30 again: a later rules core
        # that refuses it (a correction of R30) must still load the match it was played in
        self.judged_log = False
        self.settled = deploy(self.options, self.terrain, self.assassins.starts)
        self.settled.start_turn(Side.CHALLENGER)

    def copy(self) -> Self:
        new = super().copy()
        new.turns = [  # a Turn is a mutable record: each copy has its own
            Turn(t.side, t.round, t.game, list(t.texts), list(t.events), t.round_end)
            for t in self.turns
        ]
        new.assassins = self.assassins.copy()
        new.waived = set(self.waived)
        return new

    def for_player(self, side: Side) -> Self:
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
        new = super().for_player(side)
        new.settled = _without_hidden(new.settled, other)
        new.current = [replace(s, after=_without_hidden(s.after, other)) for s in new.current]
        new.turns = [self._seen_turn(turn, side) for turn in new.turns]
        new.assassins = self.assassins.known_to(side)
        new.headers = {k: v for k, v in new.headers.items() if "Assassin" not in k}
        return new

    def _seen_turn(self, turn: Turn, viewer: Side) -> Turn:
        """A finished turn as ``viewer`` may know it (its texts those of the events it sees)."""
        if turn.side == viewer or self.assassins.is_published(turn.side, turn.game):
            return turn
        events = [self.assassins.seen(event, viewer, turn.game) for event in turn.events]
        texts = [event.text for event in events] + turn.texts[len(events) :]
        return Turn(turn.side, turn.round, turn.game, texts, events, turn.round_end)

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
            self.turns, lambda turn: bool(turn.round_end) or any(ev.removed for ev in turn.events)
        )

    # ---- queries -------------------------------------------------------------------------
    @property
    def pos(self) -> Position:
        """The position of the turn being played, its staged actions applied."""
        return self.latest

    @property
    def side(self) -> Side:
        return self.pos.side

    @property
    def round(self) -> int:
        return self.pos.round

    @property
    def actions_left(self) -> int:
        return self.pos.actions_left

    @property
    def assassin_starts(self) -> tuple[int, int]:
        """Each side's Assassin start square (R41), 0 for none fielded."""
        return self.assassins.starts

    @assassin_starts.setter
    def assassin_starts(self, starts: tuple[int, int]) -> None:
        self.assassins.starts = starts

    def scores(self) -> tuple[int, int]:
        """Booked points (R27): points of the running round are booked when it ends."""
        return self.pos.score[0], self.pos.score[1]

    def pending(self) -> tuple[int, int]:
        return self.pos.pending[0], self.pos.pending[1]

    def pieces(self) -> list[Piece]:
        """Every piece, hidden ones included: the judge's list. Players get ``view_for``."""
        return pieces_of(self.pos)

    def letter(self, piece: Piece) -> str:
        return letter_of(piece, self.rulers)

    def assassin_record(self, side: Side, game: int | None = None) -> list[str]:
        """``side``'s private Assassin record of a game (the current one by default)."""
        return self.assassins.record(side, self.game_number if game is None else game)

    def is_published(self, side: Side, game: int | None = None) -> bool:
        return self.assassins.is_published(side, self.game_number if game is None else game)

    def r30_offenders(self) -> list[Piece]:
        """R30 offenders, less those a search of this turn put in jeopardy by revealing an
        Assassin: the search cannot be undone, so they may end the turn where it left them,
        until they are operated again (``_still_waived``)."""
        waived = self._still_waived()
        return [p for p in restriction.r30_offenders(self.pos) if p.id not in waived]

    def _still_waived(self) -> set[int]:
        """The pieces of ``waived`` no action after the last search operated: one operated
        again (the search's free take aside) answers to R30 for what it then does."""
        waived = set(self.waived)
        staged = self.current
        last = max((i for i, s in enumerate(staged) if s.action.kind == SEARCH), default=None)
        if not waived or last is None:
            return waived
        for before, later in zip(staged[last:], staged[last + 1 :], strict=False):
            costs = later.after.actions_used > before.after.actions_used  # not a free take
            if costs and not later.event.hidden:  # a hidden Assassin is no command piece
                waived.discard(before.after.board.get(later.action.origin, 0))
        return waived

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

    def free_takes(self) -> list[str]:
        """R43: the actions that take the Assassin a search has just revealed at no cost
        (the searching piece's, as the very next action); none otherwise."""
        pos = self.pos
        if self.result is not None or pos.free_take is None:
            return []
        searcher = pos.pieces[pos.free_take[0]]
        free = [action for action, effect in piece_actions(pos, searcher) if effect.free]
        return self.notations(free)

    # ---- reading and writing actions -----------------------------------------------------
    def reader(self) -> Resolver:
        """Reads and writes actions on the position being played."""
        return Resolver(self.pos, self.rulers, self.legal_actions)

    def notation(self, action: Action) -> str:
        """Canonical text (R51): the shortest form that names exactly this action here."""
        return self.reader().notation(action)

    def notations(self, actions: Sequence[Action]) -> list[str]:
        """``notation`` of many actions at once (each piece's ways to act worked out once)."""
        return self.reader().notations(actions)

    def parse_action(self, text: str) -> Action:
        """Text to a legal action; raises MalformedAction, IllegalAction or AmbiguousAction."""
        spec = parse(text, self.pos.size)
        if spec.kind in GAME_LEVEL:
            self._check_game_level(spec.kind)
            return Action(spec.kind)
        self._check_open()
        return self.reader().resolve(spec)[0]

    def _check_game_level(self, kind: str) -> None:
        self._check_open()
        if kind == RESET and not self.can_reset():
            raise IllegalAction(
                "R28",
                msg(
                    "a reset needs a series to a point target on the long board and a player "
                    "down to 1 action"
                ),
            )

    # ---- acting --------------------------------------------------------------------------
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
        event = super().apply(action)
        if action.kind == SEARCH:  # R30 offenders its reveal made stay where they are
            self.waived = {p.id for p in restriction.r30_offenders(self.pos)}
        return event

    def _admit(self, action: Action) -> Action:
        self._check_open()
        return action

    def _stage(self, action: Action) -> Staged[Action, Event, Position]:
        pos = self.pos
        reader = self.reader()
        pairs = reader.pairs(action)
        effect = reader.effect(action, pairs)
        if action.kind == SEARCH:
            check_search(pos, effect, self.r30_offenders())
        text = reader.written(action, effect, pairs)
        event = action_event(pos, self.rulers, action, effect, text)
        before = pos.pieces.get(effect.piece)
        after = pos.copy()
        reveal = after.commit(effect)
        event = settle_event(event, action, before, after, reveal)
        if effect.free:
            event = replace(event, note=msg("the free take of the Assassin the search revealed"))
        return Staged(action, text, text, event, after)

    def _check_take_back(self, index: int) -> None:
        """R10: a search revealed what it found, so neither it nor anything before it is
        taken back."""
        if any(staged.action.kind == SEARCH for staged in self.current[index:]):
            raise IllegalAction("R10", _SEARCH_STAYS)

    def check_takeback(self) -> None:
        """R10: a finished turn that holds a search is not taken back either, so that its
        player cannot play it again knowing what the search found."""
        if self.turns and any(event.searched for event in self.turns[-1].events):
            raise IllegalAction("R10", _TURN_SEARCHED)

    def discard_turn(self) -> list[str]:
        """Drop every action staged in the running turn, searches included: the turn never
        ended (R12), so nothing of it is applied, scored or published. Returns their
        notations. For the host, before a resignation, an agreed draw or an abort."""
        dropped = super().discard_turn()
        self.waived = set()
        return dropped

    # ---- ending turns and rounds ---------------------------------------------------------
    def _complete(self, deadline: bool) -> None:
        """R30: refused while a piece that moved or attacked would end in jeopardy, unless the
        deadline ends the turn: then the latest actions are dropped until none would (what a
        player could still undo)."""
        if self.judged_log and not deadline:
            return  # ended by its player when it was played, R30 judged it then
        offenders = self.r30_offenders()
        while offenders and deadline and self.current[-1].action.kind != SEARCH:
            self.undo()
            offenders = self.r30_offenders()
        if offenders:
            listed = ", ".join(f"{self.letter(p)} {name(p.sq)}" for p in offenders)
            raise IllegalAction(
                "R30",
                msg(
                    "the turn cannot end: {pieces} moved or attacked this turn and would be in "
                    "jeopardy; undo or move it to safety",
                    pieces=listed,
                ),
                [f"undo ({t})" for t in reversed(self.staged())][:3],
            )

    def _play(self, staged: list[Staged[Action, Event, Position]]) -> Turn:
        """R11, R12: the turn is recorded; the Opposition's closes the round; the other side
        is to act, unless it is trapped (R25)."""
        turn = self._record(staged)
        if turn.side == Side.OPPOSITION:
            turn.round_end = self._end_round()
        if self.result is None:
            self.settled.start_turn(self.side.other)
            if not self.skip_trapped:
                self.judge_trapped()
        return turn

    def _record(self, staged: list[Staged[Action, Event, Position]], *acts: str) -> Turn:
        """The turn of the side to act, its ``staged`` actions (played) and game-level
        ``acts``, into the record and the Assassins' book."""
        pos = self.settled
        texts = [s.text for s in staged]
        turn = Turn(
            pos.side, pos.round, self.game_number, [*texts, *acts], [s.event for s in staged]
        )
        self.turns.append(turn)
        self.waived = set()
        self.assassins.log_turn(turn, pos, self.game_number)
        return turn

    def judge_trapped(self) -> None:
        """R25 at the start of the running turn (nothing staged yet): the player to act loses
        if no turn they could end saves a live command piece."""
        if self.result is None and not self.current and trapped.is_trapped(self.pos):
            self._finish(Outcome(self.pos.side.other, "trapped"))

    def _end_round(self) -> tuple[tuple[Side, str, int], ...]:
        """R11, R24, R27, R28: remove doomed pieces, book points, succession, outcomes."""
        pos = self.settled
        gone = tuple((p.side, self.letter(p), p.sq) for p in endings.end_round(pos))
        if self._target_reached():
            return gone
        outcome = endings.command_outcome(pos)
        if outcome is not None:
            if self.options.target:
                self._next_game()
            else:
                self._finish(outcome)
        return gone

    def _target_reached(self) -> bool:
        outcome = endings.target_outcome(self.settled.score, self.options.target)
        if outcome is not None:
            self._finish(outcome)
        return outcome is not None

    def _next_game(self) -> None:
        """R28: the points carry over and a fresh board is set up."""
        self.assassins.publish(self.game_number)
        self.game_number += 1
        score = self.settled.score
        self.settled = deploy(
            self.options, self.terrain, self.assassins.starts, (score[0], score[1])
        )
        self.settled.side = Side.OPPOSITION  # the caller starts the next turn: the Challenger's

    def publish(self) -> None:
        """R44: the game ends where it stands without a result (the host's abort or
        cancellation): every Assassin record of it is published, as at any other end."""
        self.assassins.publish(self.game_number)

    def _finish(self, outcome: Outcome) -> None:
        """The game is over: the running round's points are booked and every Assassin
        record of it is published (R44)."""
        endings.book_pending(self.settled)
        self.assassins.publish(self.game_number)
        self.result = outcome

    # ---- game-level acts (R26, R28) and the host's verdicts ------------------------------
    def resign(self, side: Side) -> Event:
        """``side`` resigns, on its turn or not; actions already staged by the side to act
        stay in the record as played: on its own turn, in the same line as ``resign``; on
        the opponent's, in a line of their own marked ``UNFINISHED`` (that turn never
        ended), before the ``resign`` line."""
        self._check_open()
        if side == self.side:
            self._record(self._settle(), RESIGN)
        else:
            staged = self._settle()
            if staged:
                self._record(staged, UNFINISHED)
            self.waived = set()
            self.turns.append(Turn(side, self.pos.round, self.game_number, [RESIGN]))
        self._finish(Outcome(side.other, "resignation"))
        return act_event(side, RESIGN)

    def _act_event(self, side: Side, word: str) -> Event:
        return act_event(side, word)

    def _act_turn(self, side: Side, word: str, event: Event) -> Turn:
        """The host's verdict on missed turns (``forfeit``): recorded like a resignation,
        the running turn discarded first (an unfinished turn is never played, R12)."""
        return Turn(side, self.pos.round, self.game_number, [word])

    def agreements(self, proposer: Side | None = None) -> tuple[str, ...]:
        """What the players (or ``proposer``) may agree on now besides resigning (the
        seam's ``agreements``)."""
        return AGREEMENTS if self.can_reset(proposer) else AGREEMENTS[:1]

    def agree(self, kind: str) -> Event:
        """Both players agreed to ``kind``: ``draw`` or ``reset``."""
        if kind not in AGREEMENTS:
            raise self._refuse_agreement(kind)
        return self.agree_draw() if kind == DRAW else self.agree_reset()

    def agree_draw(self) -> Event:
        """Both players agreed to a draw (R26); recorded in the turn of the side to act."""
        self._check_open()
        side = self.side
        self._record(self._settle(), DRAW)
        self._finish(Outcome(None, "agreed draw"))
        return act_event(side, DRAW)

    def can_reset(self, proposer: Side | None = None) -> bool:
        """R28: a reset may be proposed (by ``proposer``, or by one of the players)."""
        return endings.can_reset(self.pos, self.options.target, proposer)

    def agree_reset(self) -> Event:
        """R28: with a point target on the long board, a player down to one action may
        propose a reset; when the opponent agrees, this round's points are booked and a new
        game begins."""
        self._check_game_level(RESET)
        side = self.side
        self._record(self._settle(), RESET)
        endings.book_pending(self.settled)
        if not self._target_reached():
            self._next_game()
            self.settled.start_turn(Side.CHALLENGER)
        return act_event(side, RESET)

    # ---- refusals ------------------------------------------------------------------------
    def _refuse_over(self) -> IllegalAction:
        assert self.result is not None
        return IllegalAction(
            endings.ruling(self.result),
            msg("the game is over: {result}", result=self.result.words(REASONS)),
        )

    def _refuse_undo(self) -> IllegalAction:
        return IllegalAction("R10", msg("there is no action of this turn to take back"))

    def _refuse_take_back(self, index: int) -> IllegalAction:
        return IllegalAction(
            "R10", msg("this turn has actions 1 to {last}", last=len(self.current))
        )

    def _refuse_agreement(self, kind: str) -> ValueError:
        return ValueError(f"TORA has no agreement {kind!r}")

    def _copy_position(self, position: Position) -> Position:
        return position.copy()


def pieces_of(pos: Position) -> list[Piece]:
    """Every piece on ``pos``, hidden ones included, by side and in reading order."""
    return sorted(pos.pieces.values(), key=lambda p: (p.side, p.sq & 31, p.sq >> 5))


def _without_hidden(pos: Position, side: Side) -> Position:
    """A copy of ``pos`` without ``side``'s hidden Assassin."""
    new = pos.copy()
    hidden = new.hidden_assassin(side)
    if hidden is not None:
        new.remove(hidden.id)
        new.stunned.pop(hidden.id, None)
    return new
