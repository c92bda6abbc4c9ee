"""TORA's game-level acts (R26, R28) and the host's agreements: resigning, forfeiting,
agreed draws and resets, and dropping an unfinished turn. A mixin of ``Game``."""

from __future__ import annotations

from ..sides import Outcome
from .actions import DRAW, FORFEIT, RESET, RESIGN
from .pieces import Side
from .view import Event, Turn

AGREEMENTS = ("draw", "reset")


class GameEndings:
    """Needs ``Game``'s turn bookkeeping (``_close_turn``, ``_finish``...)."""

    def agreements(self) -> tuple[str, ...]:
        """What the players may agree on now besides resigning (the seam's ``agreements``)."""
        return AGREEMENTS if self.can_reset() else AGREEMENTS[:1]

    def agree(self, kind: str) -> Event:
        """Both players agreed to ``kind``: ``draw`` or ``reset``."""
        if kind not in AGREEMENTS:
            raise ValueError(f"TORA has no agreement {kind!r}")
        return self.agree_draw() if kind == "draw" else self.agree_reset()

    def resign(self, side: Side) -> Event:
        """``side`` resigns, on its turn or not; actions already staged by the side to act
        stay in the record as played (on its own turn, in the same line as ``resign``)."""
        self._check_can_act()
        if side == self.pos.side:
            self._close_turn(RESIGN)
        else:
            self._record_partial_turn()
            self.turns.append(Turn(side, self.pos.round, self.game_number, [RESIGN]))
        self._finish(Outcome(side.other, "resignation"))
        return Event(side, RESIGN, "", 0, 0, (), (), (), ())

    def forfeit(self, side: Side) -> Event:
        """``side`` loses on missed turns (the host's verdict): recorded like a resignation,
        as ``forfeit``, with the outcome's reason ``forfeit``. Actions staged by the side to
        act are discarded first: an unfinished turn is never played (R12)."""
        self._check_can_act()
        self.discard_turn()
        self.turns.append(Turn(side, self.pos.round, self.game_number, [FORFEIT]))
        self._finish(Outcome(side.other, FORFEIT))
        return Event(side, FORFEIT, "", 0, 0, (), (), (), ())

    def discard_turn(self) -> list[str]:
        """Drop every action staged in the running turn, searches included: the turn never
        ended (R12), so nothing of it is applied, scored or published. Returns their
        notations. For the host, before a resignation, an agreed draw or an abort."""
        dropped = self.staged()
        if self.stack:
            self.pos = self.stack[0].copy()  # copies of this game share their stack's positions
        self.current, self.stack, self.waived = [], [], set()
        return dropped

    def agree_draw(self) -> Event:
        """Both players agreed to a draw (R26); recorded in the turn of the side to act."""
        self._check_can_act()
        side = self.pos.side
        self._close_turn(DRAW)
        self._finish(Outcome(None, "agreed draw"))
        return Event(side, DRAW, "", 0, 0, (), (), (), ())

    def can_reset(self) -> bool:
        pos = self.pos
        return (
            pos.long
            and bool(self.options.target)
            and any(len(pos.commanders(side)) == 1 for side in Side)
        )

    def agree_reset(self) -> Event:
        """R28: with a point target on the long board, a player down to one action may
        propose a reset; when the opponent agrees, this round's points are booked and a new
        game begins."""
        self._check_game_level(RESET)
        side = self.pos.side
        self._close_turn(RESET)
        self._book_pending()
        if not self._target_reached():
            self._next_game()
            self.pos.start_turn(Side.CHALLENGER)
        return Event(side, RESET, "", 0, 0, (), (), (), ())
