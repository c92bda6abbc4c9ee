"""What one player, or a spectator, may know of a game (R40-R44).

Hidden information leaves the rules core only through ``Game.view_for(viewer)``: the public
board of the last finished turn, plus, for a player, their own hidden Assassin, the actions
they have staged in the running turn, and their private record. Images, messages and records
are all built from a view, never from the Game itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from ..sides import Side
from ..words import Text, joined, listing, msg
from .actions import DRAW, FORFEIT, RESIGN
from .events import COMPASS_WORDS, LETTERS, Event, Turn, act_event, piece_words
from .geometry import DIRECTIONS, name
from .pieces import CANNON, RULER, SOLDIER, Piece
from .play import Play, pieces_of
from .terrain import Terrain

GAME_ENDERS = (RESIGN, DRAW, FORFEIT)  # the acts that end a game in a turn (not a reset)


@dataclass(frozen=True)
class PieceView:
    side: Side
    kind: str  # G R A S H C X (R is the Ruler, shown as ``letter``)
    letter: str  # the Ruler's K or Q, otherwise the kind
    sq: int
    defending: bool = False
    ready: bool = True
    doomed: bool = False
    hidden: bool = False  # True only in its owner's view
    stunned: bool = False  # an Assassin that may not act this turn (R42)

    @classmethod
    def of(cls, piece: Piece, rulers: tuple[str, str], stunned: bool = False) -> PieceView:
        letter = rulers[piece.side] if piece.kind == RULER else piece.kind
        return cls(
            piece.side,
            piece.kind,
            letter,
            piece.sq,
            piece.defending,
            piece.ready,
            piece.doomed,
            piece.hidden,
            stunned,
        )


@dataclass(frozen=True)
class View:
    """A snapshot of a game as ``viewer`` (None: a spectator) may see it.

    ``pieces`` is the board after the last finished turn, or, for the player to act, after
    the actions they have staged (``staged``): the preview of ending the turn now.
    ``last_turn`` is the previous finished turn (public forms, except the viewer's own hidden
    actions), ``round_end`` the command pieces removed when that turn closed a round;
    ``new_board`` when that turn ended a game of the series (R28: a lost command, an agreed
    reset), so that it happened on the board before this one (images draw none of it).
    """

    viewer: Side | None
    board: str
    terrain: Terrain
    assassins: bool
    rulers: tuple[str, str]
    game_number: int
    round: int
    side: Side  # to act
    actions_total: int
    actions_left: int
    score: tuple[int, int]
    pending: tuple[int, int]  # points of the running round, booked at its end (R27)
    pieces: tuple[PieceView, ...]
    last_turn: tuple[Event, ...]
    last_turn_side: Side | None
    round_end: tuple[tuple[Side, str, int], ...]
    staged: tuple[Event, ...]
    outcome: str | None
    winner: Side | None
    private_record: tuple[str, ...]  # the viewer's Assassin record (R44), lines with rounds
    published: tuple[tuple[Side, tuple[str, ...]], ...]  # Assassin records made public
    game: str = "tora"  # the GameType id (rules.protocol.GameView)
    deciding: bool = False  # nobody answers in the opponent's turn in TORA
    decision: str = ""
    forced_pass: bool = False  # no turn is a forced pass in TORA
    new_board: bool = False

    def removed_at_round_end(self, names: Sequence[str]) -> list[Text]:
        """The doomed pieces removed when the last turn closed a round (R11), in words:
        "bob's General on v4h5"."""
        return [piece_words(names, side, letter, sq) for side, letter, sq in self.round_end]

    def summary(self, names: Sequence[str]) -> Text:
        """The score (R27), with this round's points so far."""
        if any(self.pending):
            return msg(
                "Score: {challenger} {challenger_points}, {opposition} {opposition_points} "
                "(this round so far: +{challenger_round}, +{opposition_round})",
                **self._points(names),
            )
        return msg(
            "Score: {challenger} {challenger_points}, {opposition} {opposition_points}",
            **self._points(names),
        )

    def final_summary(self, names: Sequence[str]) -> Text:
        """The score a game ended with (its round's points so far, if it did not end
        with its round)."""
        if any(self.pending):
            return msg(
                "Final score: {challenger} {challenger_points}, {opposition} "
                "{opposition_points} (this round so far: +{challenger_round}, "
                "+{opposition_round})",
                **self._points(names),
            )
        return msg(
            "Final score: {challenger} {challenger_points}, {opposition} {opposition_points}",
            **self._points(names),
        )

    def _points(self, names: Sequence[str]) -> dict[str, str | int]:
        return {
            "challenger": names[0],
            "challenger_points": self.score[0],
            "opposition": names[1],
            "opposition_points": self.score[1],
            "challenger_round": self.pending[0],
            "opposition_round": self.pending[1],
        }

    @property
    def size(self) -> int:
        return self.terrain.size

    def at(self, sq: int) -> list[PieceView]:
        return [p for p in self.pieces if p.sq == sq]

    def contents(self, names: Sequence[str]) -> dict[str, str]:
        """What each square holds as this view shows it (its pieces, then its terrain), in
        words by square name; empty squares left out. Only the view's pieces: a hidden
        Assassin is in its owner's view alone."""
        said: dict[str, list[Text]] = {}
        for piece in self.pieces:
            said.setdefault(name(piece.sq), []).append(_piece_said(piece, names))
        for sq, ground in _grounds(self.terrain):
            said.setdefault(name(sq), []).append(ground)
        return {square: joined(parts) for square, parts in said.items()}


def _piece_said(piece: PieceView, names: Sequence[str]) -> Text:
    """ "bob's Soldier, defending": its owner, its kind and what its picture marks on it."""
    said = msg("{player}'s {piece}", player=names[piece.side], piece=LETTERS[piece.letter])
    marks = [
        word
        for shown, word in (
            (piece.hidden, msg("hidden")),
            (piece.kind == SOLDIER and piece.defending, msg("defending")),
            (piece.kind == CANNON and not piece.ready, msg("unready")),
            (piece.stunned, msg("stunned")),
            (piece.doomed, msg("doomed")),
        )
        if shown
    ]
    return msg("{piece}, {marks}", piece=said, marks=listing(marks)) if marks else said


def _grounds(terrain: Terrain) -> list[tuple[int, Text]]:
    """Each square of ``terrain`` with its ground in words ("hill, downhill to the north")."""
    hills = [
        (sq, msg("hill, downhill to the {direction}", direction=COMPASS_WORDS[DIRECTIONS[arrow]]))
        for sq, arrow in terrain.hills.items()
    ]
    return [
        *((sq, msg("water")) for sq in terrain.water),
        *((sq, msg("forest")) for sq in terrain.forest),
        *hills,
    ]


def build_view(game: Play, viewer: Side | None) -> View:
    """``Game.view_for``: see there."""
    pos = game.seen_by(viewer)
    pieces = tuple(
        _piece_view(p, game.rulers, not pos.can_act(p))
        for p in pieces_of(pos)
        if not p.hidden or p.side == viewer
    )
    last = game.turns[-1] if game.turns else None
    outcome = game.outcome()
    number = game.game_number
    return View(
        viewer=viewer,
        board=game.options.board,
        terrain=game.terrain,
        assassins=game.options.assassins,
        rulers=game.rulers,
        game_number=number,
        round=pos.round,
        side=pos.side,
        actions_total=pos.actions_total,
        actions_left=pos.actions_left,
        score=(pos.score[0], pos.score[1]),
        pending=(pos.pending[0], pos.pending[1]),
        pieces=pieces,
        last_turn=() if last is None else _last_turn(game, last, viewer),
        last_turn_side=None if last is None else last.side,
        round_end=() if last is None else last.round_end,
        new_board=last is not None and last.game != number,
        staged=game.staged_events(viewer),
        outcome=None if outcome is None else str(outcome),
        winner=None if outcome is None else outcome.winner,
        private_record=() if viewer is None else _own_record(game, viewer),
        published=tuple(
            (side, tuple(game.assassin_record(side)))
            for side in Side
            if game.assassin_starts[side] and game.is_published(side)
        ),
    )


def _last_turn(game: Play, turn: Turn, viewer: Side | None) -> tuple[Event, ...]:
    """A finished turn's events as ``viewer`` may see them, then the act that ended the game
    in it (a resignation, an agreed draw, a forfeit), which moved nothing but is the turn's
    last entry all the same (in a replay's last frame, a move list)."""
    seen = tuple(game.assassins.seen(ev, viewer, game.game_number) for ev in turn.events)
    ending = [text for text in turn.texts[len(turn.events) :] if text in GAME_ENDERS]
    return seen + tuple(act_event(turn.side, text) for text in ending)


# An engine judges each candidate action by a view of the position it leaves, and a panel or
# an image is drawn from a view: the same pieces come back view after view, each made once.
@lru_cache(maxsize=8192)
def _piece_view(piece: Piece, rulers: tuple[str, str], stunned: bool) -> PieceView:
    """``PieceView.of``, kept (a PieceView is immutable, shared safely)."""
    return PieceView.of(piece, rulers, stunned)


def _own_record(game: Play, viewer: Side) -> tuple[str, ...]:
    if not (game.options.assassins and game.assassin_starts[viewer]):
        return ()
    return tuple(game.assassin_record(viewer))
