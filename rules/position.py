"""The mutable state of one game between two turns, and the changes actions make to it."""

from __future__ import annotations

from typing import NamedTuple

from .pieces import ASSASSIN_VALUES, COMMAND_KINDS, VALUES, Piece, Side
from .terrain import Terrain


class Effect(NamedTuple):
    """What one action does. Two actions with equal effects are the same action (R51)."""

    kind: str
    piece: int  # id of the operated piece (0 for none)
    rest: int  # square the piece ends on; 0 when it is removed
    hits: tuple[int, ...] = ()  # enemy pieces attacked: standard ones die, command ones are doomed
    losses: tuple[int, ...] = ()  # own pieces removed (the Cavalry in a trade, R18)
    stance: str = ""  # new Soldier stance
    ready: int = -1  # new Cannon readiness (0/1), -1 unchanged
    spent: tuple[int, ...] = ()  # supporters spent (R19)
    attacks: bool = False  # the action used the piece's attack (R14, R15 one attack a turn)
    crown: bool = False
    aim: int = -1  # direction of a Cannon shot: shots into nothing differ only by it


class Position:
    """Board and counters. Pieces are immutable, so ``copy`` only copies small containers."""

    __slots__ = (
        "actions_total",
        "actions_used",
        "assassins",
        "attacked",
        "board",
        "crown_pending",
        "long",
        "operated",
        "pending",
        "pieces",
        "round",
        "score",
        "side",
        "size",
        "slew",
        "spent",
        "terrain",
        "values",
    )

    def __init__(self, terrain: Terrain, assassins: bool = False) -> None:
        self.size = terrain.size
        self.long = terrain.size == 17
        self.terrain = terrain
        self.assassins = assassins
        self.values = ASSASSIN_VALUES if assassins else VALUES
        self.pieces: dict[int, Piece] = {}
        self.board: dict[int, int] = {}  # square -> id of the visible piece there
        self.side = Side.CHALLENGER
        self.round = 1
        self.score = [0, 0]
        self.pending = [0, 0]  # points of this round, booked at its end (R27)
        self.crown_pending = [False, False]
        self.actions_total = 0
        self.actions_used = 0
        self.spent: set[int] = set()
        self.attacked: set[int] = set()
        self.operated: set[int] = set()
        self.slew: set[int] = set()  # pieces that attacked an enemy command piece this turn (R30)

    def copy(self) -> Position:
        new = Position.__new__(Position)
        for slot in ("size", "long", "terrain", "assassins", "values", "side", "round"):
            setattr(new, slot, getattr(self, slot))
        new.actions_total, new.actions_used = self.actions_total, self.actions_used
        new.pieces = self.pieces.copy()
        new.board = self.board.copy()
        new.score = self.score.copy()
        new.pending = self.pending.copy()
        new.crown_pending = self.crown_pending.copy()
        new.spent = self.spent.copy()
        new.attacked = self.attacked.copy()
        new.operated = self.operated.copy()
        new.slew = self.slew.copy()
        return new

    # ---- queries -------------------------------------------------------------------------
    def at(self, sq: int) -> Piece | None:
        """The visible piece on a square (hidden Assassins are never returned)."""
        pid = self.board.get(sq)
        return None if pid is None else self.pieces[pid]

    def side_pieces(self, side: Side) -> list[Piece]:
        return [p for p in self.pieces.values() if p.side == side]

    def commanders(self, side: Side) -> list[Piece]:
        return [p for p in self.pieces.values() if p.side == side and p.kind in COMMAND_KINDS]

    def actions_for_turn(self, side: Side) -> int:
        """R8: two on the short board; one per command piece (doomed ones too) on the long."""
        return len(self.commanders(side)) if self.long else 2

    @property
    def actions_left(self) -> int:
        return self.actions_total - self.actions_used

    # ---- changes -------------------------------------------------------------------------
    def place(self, piece: Piece) -> None:
        self.pieces[piece.id] = piece
        if not piece.hidden:
            self.board[piece.sq] = piece.id

    def remove(self, pid: int) -> Piece:
        piece = self.pieces.pop(pid)
        if self.board.get(piece.sq) == pid:
            del self.board[piece.sq]
        return piece

    def move(self, pid: int, sq: int) -> None:
        piece = self.pieces[pid]
        if self.board.get(piece.sq) == pid:
            del self.board[piece.sq]
        self.place(piece._replace(sq=sq))

    def hit(self, pid: int, by: Side) -> None:
        """An attack lands on a piece: standard pieces die at once, command pieces are doomed."""
        piece = self.pieces[pid]
        if piece.kind in COMMAND_KINDS:
            if not piece.doomed:
                self.pieces[pid] = piece._replace(doomed=True)
                self.pending[by] += self.values[piece.kind]
        else:
            self.remove(pid)
            self.pending[by] += self.values[piece.kind]

    def commit(self, effect: Effect) -> None:
        """Apply an effect produced by the action generator for the side to act."""
        side = self.side
        piece = self.pieces.get(effect.piece)
        for pid in effect.hits:
            if pid in self.pieces:
                if self.pieces[pid].kind in COMMAND_KINDS:
                    self.slew.add(effect.piece)
                self.hit(pid, side)
        for pid in effect.losses:
            lost = self.remove(pid)
            self.pending[side.other] += self.values[lost.kind]
        if piece is not None and effect.piece not in effect.losses:
            if effect.rest and effect.rest != piece.sq:
                self.move(effect.piece, effect.rest)
            piece = self.pieces[effect.piece]
            if effect.stance:
                piece = piece._replace(defending=effect.stance == "defend")
            if effect.ready >= 0:
                piece = piece._replace(ready=bool(effect.ready))
            if effect.crown:
                piece = piece._replace(kind="R")
                self.crown_pending[side] = False
            self.pieces[effect.piece] = piece
        if effect.attacks:
            self.attacked.add(effect.piece)
        self.spent.update(effect.spent)
        if not effect.crown:
            self.operated.add(effect.piece)
            self.actions_used += 1

    def start_turn(self, side: Side) -> None:
        self.side = side
        self.actions_total = self.actions_for_turn(side)
        self.actions_used = 0
        self.spent.clear()
        self.attacked.clear()
        self.operated.clear()
        self.slew.clear()

    def end_round(self) -> list[Piece]:
        """R11, R27: remove doomed command pieces and book the round's points."""
        removed = [self.remove(p.id) for p in list(self.pieces.values()) if p.doomed]
        for side in (0, 1):
            self.score[side] += self.pending[side]
            self.pending[side] = 0
        self.round += 1
        return removed
