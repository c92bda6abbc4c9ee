"""What a player or a spectator sees of a game (``rules.protocol.GameView``).

Nothing in ToriShogi is hidden except the acting player's staged move: their own view shows
the board with it played (the preview of ending the turn), everyone else's the board before
it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.sides import Outcome, Side
from rules.words import Text, frame, listing, msg

from .board import NAMES, SQUARES
from .events import Event, Turn
from .fen import write_fen
from .menu import held_place
from .movegen import attacked
from .pieces import HAND_KINDS, NAME, PLURAL, PROMOTES_TO, kind_of, side_of
from .position import Position
from .rulings import REASONS

PROMOTED_FROM = {promoted: base for base, promoted in PROMOTES_TO.items()}


@dataclass(frozen=True)
class PieceView:
    sq: int
    side: Side
    kind: int

    @property
    def name(self) -> str:
        return NAME[self.kind]

    @property
    def promoted(self) -> bool:
        return self.kind in PROMOTES_TO.values()


@dataclass(frozen=True)
class LastMove:
    """The squares to highlight: ``origin`` None for a drop, ``dropped`` its kind (else 0)."""

    origin: int | None
    target: int
    dropped: int = 0


@dataclass(frozen=True)
class View:
    """``pieces`` and ``hands`` (``hands[side][kind]`` counts) are the board the viewer may
    see; ``last_move`` is what to highlight on it: the last move played (a resignation moves
    nothing), or the staged move in the acting player's preview. ``in_check``: the side to
    move is in check; ``check_square``: the attacked Phoenix on the shown board (in a
    preview, the one the staged move checks)."""

    viewer: Side | None
    side: Side
    actions_left: int
    staged: tuple[Event, ...]
    last_turn: tuple[Event, ...]
    outcome: str | None
    winner: Side | None
    pieces: tuple[PieceView, ...]
    hands: tuple[tuple[int, ...], tuple[int, ...]]
    last_move: LastMove | None
    in_check: bool
    check_square: int | None
    move_number: int
    fen: str
    game: str = "torishogi"
    deciding: bool = False  # nobody answers in the opponent's turn in ToriShogi
    decision: str = ""
    forced_pass: bool = False  # no turn is a forced pass in ToriShogi

    def at(self, sq: int) -> PieceView | None:
        for piece in self.pieces:
            if piece.sq == sq:
                return piece
        return None

    def hand(self, side: Side) -> list[tuple[int, int]]:
        """(kind, count) of what ``side`` holds, in the order of the hand kinds."""
        return [(kind, self.hands[side][kind]) for kind in HAND_KINDS if self.hands[side][kind]]

    def contents(self, names: Sequence[str]) -> dict[str, str]:
        """Each piece in words by its square's machine name ("bob's Goose, a promoted
        Swallow"), and each kind in each hand by its place (``held_place``: ``S@``, "Swallows
        in hand: ann 2"); empty squares left out."""
        said: dict[str, str] = {NAMES[p.sq]: _piece_said(p, names) for p in self.pieces}
        for side in Side:
            for kind, count in self.hand(side):
                holder = frame("{player} {n}", player=names[side], n=count)
                said[held_place(kind, side, self.viewer)] = msg(
                    "{pieces} in hand: {holders}", pieces=PLURAL[kind], holders=holder
                )
        return said

    def summary(self, names: Sequence[str]) -> str:
        """ "In hand: ann 10 Swallows, 2 Cranes and 1 Falcon; bob 1 Falcon; bob to move, in
        check"."""
        hands = self._in_hand(names)
        if self.outcome is not None:
            said = self.outcome.partition("(")[2].rstrip(")")
            reason = REASONS.get(said, said)
            if self.winner is None:
                return msg("{hands}; a draw ({reason})", hands=hands, reason=reason)
            return msg(
                "{hands}; {player} wins ({reason})",
                hands=hands,
                player=names[self.winner],
                reason=reason,
            )
        if self.in_check:
            return msg("{hands}; {player} to move, in check", hands=hands, player=names[self.side])
        return msg("{hands}; {player} to move", hands=hands, player=names[self.side])

    def final_summary(self, names: Sequence[str]) -> str:
        """The line of a game over: ``summary``'s, or for a game its rules did not end (the
        match called off), what is in hand alone: nobody is to move any more."""
        if self.outcome is not None:
            return self.summary(names)
        return self._in_hand(names)

    def _in_hand(self, names: Sequence[str]) -> Text:
        """ "In hand: ann 10 Swallows, 2 Cranes and 1 Falcon; bob 1 Falcon"."""
        held = [
            frame(
                "{player} {pieces}",
                player=names[side],
                pieces=listing([_count(kind, n) for kind, n in self.hand(side)]),
            )
            for side in Side
            if self.hand(side)
        ]
        return _hands(held)


def _piece_said(piece: PieceView, names: Sequence[str]) -> Text:
    owned = msg("{player}'s {piece}", player=names[piece.side], piece=piece.name)
    if not piece.promoted:
        return owned
    return msg("{piece}, a promoted {base}", piece=owned, base=NAME[PROMOTED_FROM[piece.kind]])


def _hands(held: list[Text]) -> Text:
    """ "In hand: ann 2 Cranes; bob 1 Falcon", each player's a part of its own."""
    if not held:
        return msg("Nothing in hand")
    listed = held[0]
    for more in held[1:]:
        listed = frame("{list}; {item}", list=listed, item=more)
    return msg("In hand: {list}", list=listed)


def _count(kind: int, n: int) -> Text:
    """A number of pieces: the game's terms stay as the rule book names them."""
    return frame("{n} {pieces}", n=n, pieces=NAME[kind] if n == 1 else PLURAL[kind])


def build_view(
    viewer: Side | None,
    side: Side,
    actions_left: int,
    shown: Position,
    staged: tuple[Event, ...],
    turns: Sequence[Turn],
    outcome: Outcome | None,
    in_check: bool,
) -> View:
    """``ToriShogiGame.view_for``: ``shown`` is the board ``viewer`` sees, with the move
    ``staged`` played when it is the acting player's preview; ``in_check``: the side to move
    is, on the confirmed board."""
    preview = bool(staged)
    return View(
        viewer=viewer,
        side=side,
        actions_left=actions_left if viewer == side else int(outcome is None),
        staged=staged,
        last_turn=tuple(turns[-1].events) if turns else (),
        outcome=None if outcome is None else str(outcome),
        winner=None if outcome is None else outcome.winner,
        pieces=_pieces(shown),
        hands=(tuple(shown.hands[0]), tuple(shown.hands[1])),
        last_move=_last_move(staged if preview else _last_move_events(turns)),
        in_check=not preview and in_check,
        check_square=_check_square(shown),
        move_number=shown.fullmove,
        fen=write_fen(shown),
    )


def _pieces(pos: Position) -> tuple[PieceView, ...]:
    board = pos.board
    return tuple(
        PieceView(sq, Side(side_of(board[sq])), kind_of(board[sq])) for sq in SQUARES if board[sq]
    )


def _last_move_events(turns: Sequence[Turn]) -> tuple[Event, ...]:
    """The events of the last turn that moved a piece (a resignation moves nothing)."""
    for turn in reversed(turns):
        if any(event.target is not None for event in turn.events):
            return tuple(turn.events)
    return ()


def _last_move(events: tuple[Event, ...]) -> LastMove | None:
    for event in events:
        if event.target is not None:
            return LastMove(event.origin, event.target, event.kind if event.origin is None else 0)
    return None


def _check_square(pos: Position) -> int | None:
    for side in (0, 1):
        king = pos.kings[side]
        if attacked(pos.board, king, side ^ 1):
            return king
    return None
