"""A loaded match: its game, the version it was read at, and what was played since."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, cast

from rules import GameState, Side
from rules.protocol import GameEvent, GameTurn

from .log import (
    ACT,
    DEADLINE,
    DISCARD,
    DRAW,
    END,
    FORFEIT,
    RESET,
    RESIGN,
    REWIND,
    TAKE_BACK,
    UNDO,
    Entry,
    Step,
    play,
)
from .models import side_of


@dataclass(eq=False)
class Match:
    """The judge's copy of a match.

    ``game`` holds hidden state (Assassins): output for players and spectators is built from
    ``game.view_for(side)``, never from the game itself. Each method plays on the game at once
    (a refused action raises rules.ActionError and changes nothing) and queues a log entry;
    ``Store.save`` writes the queued entries if the match is still at ``version``. After a
    failed save, load the match again: this copy is ahead of the database.
    """

    id: int
    guild_id: int
    channel_id: int | None
    challenger_id: int
    opposition_id: int
    game: GameState
    version: int
    deadline: float | None = None  # when the running turn ends by deadline; saved by save()
    pending: list[Entry] = field(default_factory=list)  # played, not saved yet
    seq: int = 0  # log entries saved
    snapshot_seq: int = 0  # log entries in the latest snapshot
    rewinds: int = 0  # finished turns taken back so far (public: each is announced)

    def side_of(self, user_id: int) -> Side | None:
        return side_of(user_id, self.challenger_id, self.opposition_id)

    def act(self, text: str) -> GameEvent:
        """One action of the side to act (``resign``, ``draw`` and ``reset`` included)."""
        return cast("GameEvent", self._play(Step(ACT, text)))

    def undo(self) -> str:
        return cast("str", self._play(Step(UNDO)))

    def take_back(self, index: int) -> str:
        """Take back action ``index`` (from 0) of the running turn (R10)."""
        return cast("str", self._play(Step(TAKE_BACK, str(index))))

    def end_turn(self) -> GameTurn:
        return cast("GameTurn", self._play(Step(END)))

    def end_turn_by_deadline(self) -> GameTurn:
        return cast("GameTurn", self._play(Step(DEADLINE)))

    def resign(self, side: Side) -> GameEvent:
        return cast("GameEvent", self._play(Step(RESIGN, side=side)))

    def forfeit(self, side: Side) -> GameEvent:
        """``side`` loses on missed turns (what was staged is discarded first)."""
        return cast("GameEvent", self._play(Step(FORFEIT, side=side)))

    def discard(self) -> list[str]:
        """Drop the staged actions of the running turn (it never ended, R12)."""
        return cast("list[str]", self._play(Step(DISCARD)))

    def agree_draw(self) -> GameEvent:
        return cast("GameEvent", self._play(Step(DRAW)))

    def agree_reset(self) -> GameEvent:
        return cast("GameEvent", self._play(Step(RESET)))

    def close(self) -> None:
        """The match ends where it stands without a result (``Store.save`` with ``close``):
        its game publishes what it kept hidden until its end (R44), as every load of a
        closed match does (``loader.rebuild``). No log entry: the match row says it."""
        self.game.publish()

    def rewind(self, game: GameState, seq: int) -> None:
        """Take back the last finished turn: ``game`` is this match's game as it was after
        log entry ``seq``, the end of the turn before (``Store.before_last_turn``); what
        the side to act staged goes with it."""
        turn = len(self.game.turns)
        entry = Entry(REWIND, self.game.side, turn + 1, str(seq), f"turn {turn} taken back")
        self.game = game
        self.rewinds += 1
        self.pending.append(entry)

    def adopt(self, game: GameState, entry: Entry) -> None:
        """Take ``game`` as the match's game: a copy of it on which ``entry`` was played
        somewhere else (another process, with ``log.play``), so the entry is queued for
        saving as if it had been played here."""
        self.game = game
        self.pending.append(entry)

    def _play(self, step: Step) -> Any:
        entry, result = play(self.game, step)
        self.pending.append(entry)
        return result
