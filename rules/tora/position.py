"""The mutable state of one game between two turns, and the changes actions make to it."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from ..sides import Side
from .actions import SEARCH
from .geometry import distance
from .pieces import ASSASSIN, ASSASSIN_VALUES, COMMAND_KINDS, SOLDIER, VALUES, Piece
from .terrain import Terrain

_tuple = tuple.__new__
_NONE: frozenset[int] = frozenset()


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
    free: bool = False  # the free take of an Assassin a search revealed (R43): costs no action


class Reveal(NamedTuple):
    """An Assassin becoming visible (R42, R43, R44) and what that did on its square."""

    sq: int
    taken: bool = False  # it shared the square with an enemy piece, or a friend (R43)
    friend: Piece | None = None  # its own piece on that square, removed with it


class Position:
    """Board and counters. Pieces are immutable, so ``copy`` only copies small containers."""

    __slots__ = (
        "actions_total",
        "actions_used",
        "assassins",
        "attacked",
        "board",
        "crown_pending",
        "free_take",
        "guards",
        "long",
        "occupied",
        "operated",
        "pending",
        "pieces",
        "round",
        "score",
        "searched",
        "side",
        "side_bits",
        "size",
        "slew",
        "spent",
        "stunned",
        "target",
        "terrain",
        "values",
    )

    def __init__(
        self, terrain: Terrain, assassins: bool = False, source: Position | None = None
    ) -> None:
        """A fresh position, or with ``source`` a copy of it (see ``copy``)."""
        if source is not None:
            self._copy_from(source)
            return
        self.size = terrain.size
        self.long = terrain.size == 17
        self.terrain = terrain
        self.assassins = assassins
        self.values = ASSASSIN_VALUES if assassins else VALUES
        self.pieces: dict[int, Piece] = {}
        self.board: dict[int, int] = {}  # square -> id of the visible piece there
        self.occupied = 0  # the squares of ``board`` as a bitboard (bits.py)
        self.guards = 0  # the squares of defending Soldiers (R17, R18) as a bitboard
        self.side_bits = [0, 0]  # the squares of each side's visible pieces
        self.side = Side.CHALLENGER
        self.round = 1
        self.score = [0, 0]
        self.pending = [0, 0]  # points of this round, booked at its end (R27)
        self.crown_pending = [False, False]
        self.actions_total = 0
        self.actions_used = 0
        # What the turn did, by piece id: frozen, so a copy shares them and a search's keys
        # (``frozenset(pos.spent)``...) take them as they are; a change makes a new one.
        self.spent: frozenset[int] = _NONE
        self.searched: frozenset[int] = _NONE  # searched this turn and found nothing (R43)
        self.attacked: frozenset[int] = _NONE
        self.operated: frozenset[int] = _NONE
        self.slew: frozenset[int] = _NONE  # attacked an enemy command piece this turn (R30)
        self.stunned: dict[int, int] = {}  # Assassin id -> last round it may not act (R42)
        self.free_take: tuple[int, int] | None = None  # (searcher, Assassin) right after R43
        self.target = 0  # a series' point target (R28; 0: none): no turn follows reaching it

    def copy(self) -> Position:
        """Built through the constructor, not ``Position.__new__``: compiled by mypyc
        (``make compiled``), a class's ``__new__`` runs ``__init__`` (docs/RULES.md)."""
        return Position(self.terrain, self.assassins, self)

    def _copy_from(self, source: Position) -> None:
        self.size, self.long, self.terrain = source.size, source.long, source.terrain
        self.assassins, self.values = source.assassins, source.values
        self.side, self.round = source.side, source.round
        self.actions_total, self.actions_used = source.actions_total, source.actions_used
        self.pieces = source.pieces.copy()
        self.board = source.board.copy()
        self.occupied, self.guards = source.occupied, source.guards
        self.side_bits = source.side_bits.copy()
        self.score = source.score.copy()
        self.pending = source.pending.copy()
        self.crown_pending = source.crown_pending.copy()
        self.spent, self.searched = source.spent, source.searched
        self.attacked, self.operated, self.slew = source.attacked, source.operated, source.slew
        self.stunned = source.stunned.copy()
        self.free_take = source.free_take
        self.target = source.target

    def __reduce__(self) -> tuple[Callable[..., Position], tuple[object, ...]]:
        """Pickled as its fields, unpickled through the constructor (``_restore``): pickle's
        default calls ``Position.__new__``, which a compiled class cannot (see ``copy``)."""
        return _restore, (self.terrain, self.assassins, *[getattr(self, n) for n in _FIELDS])

    def public(self) -> Position:
        """A copy without hidden Assassins: what jeopardy and trapped are judged on (R29)."""
        new = self.copy()
        if self.assassins:  # no other piece is ever hidden
            for piece in list(new.pieces.values()):
                if piece.hidden:
                    new.remove(piece.id)
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

    def can_act(self, piece: Piece) -> bool:
        """Not stunned: an Assassin skips its owner's next turn after a kill (R42)."""
        return self.stunned.get(piece.id, 0) < self.round

    def hidden_assassin(self, side: Side) -> Piece | None:
        for piece in self.pieces.values():
            if piece.hidden and piece.side == side:
                return piece
        return None

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
            self.occupied |= 1 << piece.sq
            self.side_bits[piece.side] |= 1 << piece.sq
            self._guard(piece)

    def remove(self, pid: int) -> Piece:
        piece = self.pieces.pop(pid)
        self._vacate(piece)
        return piece

    def move(self, pid: int, sq: int) -> None:
        """The piece leaves its square for ``sq``: ``_vacate`` and ``place``, inlined (every
        node of a search moves a piece)."""
        piece = self.pieces[pid]
        id_, side, kind, old, defending, ready, doomed, hidden = piece
        board = self.board
        if board.get(old) == pid:
            del board[old]
            keep = ~(1 << old)
            self.occupied &= keep
            self.guards &= keep
            self.side_bits[side] &= keep
        # ``Piece(...)``, as a tuple: a named tuple's ``__new__`` fills in defaults in Python
        self.pieces[pid] = _tuple(Piece, (id_, side, kind, sq, defending, ready, doomed, hidden))
        if not hidden:
            bit = 1 << sq
            board[sq] = pid
            self.occupied |= bit
            self.side_bits[side] |= bit
            if kind == SOLDIER and defending:
                self.guards |= bit
            else:
                self.guards &= ~bit

    def _vacate(self, piece: Piece) -> None:
        if self.board.get(piece.sq) == piece.id:
            del self.board[piece.sq]
            self.occupied &= ~(1 << piece.sq)
            self.guards &= ~(1 << piece.sq)
            self.side_bits[piece.side] &= ~(1 << piece.sq)

    def _guard(self, piece: Piece) -> None:
        """Keep ``guards`` in step with a visible piece's stance."""
        if piece.kind == SOLDIER and piece.defending:
            self.guards |= 1 << piece.sq
        else:
            self.guards &= ~(1 << piece.sq)

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

    def commit(self, effect: Effect) -> Reveal | None:
        """Apply an effect produced by the action generator for the side to act.

        Returns the Reveal when the action made an Assassin visible (a search that found
        one, or a hidden Assassin attacking a command piece, R42-R43).
        """
        kind, pid, rest, hits, losses, stance, ready, spent, attacks, crown, _aim, free = effect
        side = self.side
        pieces = self.pieces
        piece = pieces.get(pid)
        hidden = piece is not None and piece.hidden
        kills_command = bool(hits) and any(pieces[p].kind in COMMAND_KINDS for p in hits)
        self.free_take = None
        for hit in hits:
            if hit in pieces:
                if pieces[hit].kind in COMMAND_KINDS:
                    self.slew = self.slew | {pid}
                self.hit(hit, side)
        for loss in losses:
            lost = self.remove(loss)
            self.pending[side.other] += self.values[lost.kind]
        if piece is not None and pid not in losses:
            if rest and rest != piece.sq:
                self.move(pid, rest)
                piece = pieces[pid]
            if stance or ready >= 0 or crown:
                piece = self._changed(piece, stance, ready, crown)
        if attacks:
            self.attacked = self.attacked | {pid}
        if spent:
            self.spent = self.spent.union(spent)
        if not crown:
            if pid not in self.operated:
                self.operated = self.operated | {pid}
            if not free:
                self.actions_used += 1
        if kind == SEARCH:
            return self._search(effect)
        if piece is not None and piece.kind == ASSASSIN and hits:
            self.stunned[piece.id] = self.round + 1
            if hidden and kills_command:
                return self.reveal(piece.id)
        return None

    def _changed(self, piece: Piece, stance: str, ready: int, crown: bool) -> Piece:
        """The piece with an effect's new stance, readiness or crown, in place."""
        if stance:
            piece = piece._replace(defending=stance == "defend")
            self._guard(piece)
        if ready >= 0:
            piece = piece._replace(ready=bool(ready))
        if crown:
            piece = piece._replace(kind="R")
            self.crown_pending[self.side] = False
        self.pieces[piece.id] = piece
        return piece

    def _search(self, effect: Effect) -> Reveal | None:
        """R43: look at the searcher's square and its 8 neighbours for the enemy Assassin."""
        found = self.hidden_assassin(self.side.other)
        if found is None or distance(found.sq, effect.rest) > 1:
            self.spent = self.spent | {effect.piece}  # found nothing: it may do nothing else
            self.searched = self.searched | {effect.piece}  # this turn (R43, not a support)
            return None
        reveal = self.reveal(found.id)
        if not reveal.taken:
            self.free_take = (effect.piece, found.id)
        return reveal

    def reveal(self, pid: int) -> Reveal:
        """The Assassin becomes a visible standard piece for good (R44). On a square shared
        with an enemy it is taken at once; with a friend, both go and only it scores (R43)."""
        assassin = self.pieces[pid]
        sq = assassin.sq
        co = self.board.get(sq)
        if co is None:
            self.place(assassin._replace(hidden=False))
            return Reveal(sq)
        self.remove(pid)
        self.pending[assassin.side.other] += self.values[ASSASSIN]
        other = self.pieces[co]
        if other.side != assassin.side:
            return Reveal(sq, taken=True)
        if other.kind in COMMAND_KINDS:
            self.pieces[co] = other._replace(doomed=True)  # removed at the round's end (R11)
        else:
            self.remove(co)
        return Reveal(sq, taken=True, friend=other)

    def start_turn(self, side: Side) -> None:
        self.side = side
        self.actions_total = self.actions_for_turn(side)
        self.actions_used = 0
        self.spent = self.searched = self.attacked = self.operated = self.slew = _NONE
        self.free_take = None

    def end_round(self) -> list[Piece]:
        """R11, R27: remove doomed command pieces and book the round's points."""
        removed = [self.remove(p.id) for p in list(self.pieces.values()) if p.doomed]
        for side in (0, 1):
            self.score[side] += self.pending[side]
            self.pending[side] = 0
        self.round += 1
        return removed


# What ``__reduce__`` pickles besides the terrain and the assassins option, in this order:
# every other slot (a test checks).
_FIELDS = (
    "actions_total",
    "actions_used",
    "attacked",
    "board",
    "crown_pending",
    "free_take",
    "guards",
    "long",
    "occupied",
    "operated",
    "pending",
    "pieces",
    "round",
    "score",
    "searched",
    "side",
    "side_bits",
    "size",
    "slew",
    "spent",
    "stunned",
    "target",
    "values",
)


def _restore(terrain: Terrain, assassins: bool, *fields: object) -> Position:
    """An unpickled position (``Position.__reduce__``)."""
    position = Position(terrain, assassins)
    for name, value in zip(_FIELDS, fields, strict=True):
        setattr(position, name, value)
    return position
