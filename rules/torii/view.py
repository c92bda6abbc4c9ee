"""What a player or a spectator sees of a game (``GameView``): the input of images and texts.

Torii hides nothing; the only difference between viewers is the staged turn: the player to
act sees it applied (the preview of ending the turn now), everyone else the position before.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules.sides import Side

from .board import FILES, SIZE, lanes, name, square
from .events import DECISION, MOVE, Event
from .state import Position, follower, gate

if TYPE_CHECKING:
    from .game import ToriiGame


@dataclass(frozen=True)
class SpiritView:
    side: Side
    kind: str
    square: int


@dataclass(frozen=True)
class View:
    """``followers``: each side's squares with a Follower (under a Torii or not); ``torii``:
    each side's squares with a Torii. ``tiles``: for each side, tiles 1, 2, 3 used or not.
    ``monkey_decision``: ``side`` owes ``actions_left`` Monkey decisions (TI15). ``lanes``:
    the squares in the lanes of the Spirit ``side`` must jump over (TI6; empty once the game
    is over). ``move``: the move drawn as the last turn's path: the staged one in the actor's
    own view, else the latest move, behind any Monkey decisions that followed it."""

    viewer: Side | None
    side: Side
    actions_left: int
    staged: tuple[Event, ...]
    last_turn: tuple[Event, ...]
    outcome: str | None
    winner: Side | None
    spirits: tuple[SpiritView, SpiritView]
    followers: tuple[tuple[int, ...], tuple[int, ...]]
    torii: tuple[tuple[int, ...], tuple[int, ...]]
    supply: tuple[int, int]
    torii_left: tuple[int, int]
    tiles: tuple[tuple[bool, bool, bool], tuple[bool, bool, bool]]
    powers: bool
    monkey_decision: bool
    lanes: tuple[int, ...]
    move: Event | None
    game: str = "torii"
    size: int = SIZE

    @property
    def deciding(self) -> bool:
        """The side to act answers for their Monkey in the opponent's turn (TI15)."""
        return self.monkey_decision

    @property
    def decision(self) -> str:
        """What the Monkey's owner decides in the opponent's turn (TI15), for anyone to read."""
        if not self.monkey_decision:
            return ""
        return (
            "the Monkey's: flip either player's tile 1 (used to unused or back), or neither (TI15)"
        )

    @property
    def path_start(self) -> int | None:
        return None if self.move is None else self.move.start

    @property
    def path(self) -> tuple[int, ...]:
        """The landing squares of the move drawn (jumped squares are not among them)."""
        return () if self.move is None else self.move.landings

    @property
    def builds(self) -> tuple[int, ...]:
        return () if self.move is None else tuple(b.square for b in self.move.builds)

    def grid(self) -> tuple[str, ...]:
        """The board as text, rank 6 first: ``c``/``o`` Followers, ``C``/``O`` under a
        Torii, ``.`` empty; a Spirit shows as ``@`` (Challenger) or ``&`` (Opposition)."""
        marks = {}
        for side in Side:
            for sq in self.followers[side]:
                marks[sq] = "co"[side]
            for sq in self.torii[side]:
                marks[sq] = "CO"[side]
        for spirit in self.spirits:
            marks[spirit.square] = "@&"[spirit.side]
        rows = []
        for rank in reversed(range(SIZE)):
            cells = " ".join(marks.get(square(f, rank), ".") for f in range(SIZE))
            rows.append(f"{rank + 1} {cells}")
        rows.append("  " + " ".join(FILES))
        return tuple(rows)

    def summary(self, names: Sequence[str]) -> str:
        players = " · ".join(
            f"{names[s]} ({self.spirits[s].kind} on {name(self.spirits[s].square)}): "
            f"{self.supply[s]} in supply, {self.torii_left[s]} Torii left, tiles "
            f"{_tiles(self.tiles[s])}"
            for s in Side
        )
        if self.outcome is not None:
            reason = self.outcome.partition("(")[2].rstrip(")")
            head = "a tie" if self.winner is None else f"{names[self.winner]} wins"
            return f"{players} · {head} ({reason})"
        doing = "decides for the Monkey" if self.monkey_decision else "to play"
        if self.monkey_decision and self.torii_left[self.side.other] == 0:
            doing += f", then {names[self.side.other]} wins (all 4 Torii built)"
        return f"{players} · {names[self.side]} {doing}"


def _tiles(used: tuple[bool, bool, bool]) -> str:
    unused = [str(t) for t, is_used in zip((1, 2, 3), used, strict=True) if not is_used]
    return " ".join(unused) + " unused" if unused else "all used"


def build_view(game: ToriiGame, viewer: Side | None) -> View:
    """``ToriiGame.view_for``: see there."""
    pos = game.shown_position(viewer)
    acting = pos is not game.pos
    over = game.result is not None
    last = game.turns[-1] if game.turns else None
    staged = tuple(s.event for s in game.current) if acting else ()
    return View(
        viewer=viewer,
        side=game.side,
        actions_left=game.actions_left,
        staged=staged,
        last_turn=() if last is None else last.events,
        outcome=None if game.result is None else str(game.result),
        winner=None if game.result is None else game.result.winner,
        spirits=(
            SpiritView(Side.CHALLENGER, game.setup.spirits[0], pos.spirits[0]),
            SpiritView(Side.OPPOSITION, game.setup.spirits[1], pos.spirits[1]),
        ),
        followers=(_squares(pos, Side.CHALLENGER), _squares(pos, Side.OPPOSITION)),
        torii=(_gates(pos, Side.CHALLENGER), _gates(pos, Side.OPPOSITION)),
        supply=(pos.supply(Side.CHALLENGER), pos.supply(Side.OPPOSITION)),
        torii_left=(pos.torii_left(Side.CHALLENGER), pos.torii_left(Side.OPPOSITION)),
        tiles=(_used(pos, Side.CHALLENGER), _used(pos, Side.OPPOSITION)),
        powers=game.setup.powers,
        monkey_decision=game.deciding,
        lanes=() if over else tuple(sorted(lanes(pos.spirits[game.side.other]))),
        move=_shown_move(game, staged),
    )


def _squares(pos: Position, side: Side) -> tuple[int, ...]:
    return tuple(sq for sq, cell in enumerate(pos.cells) if cell in (follower(side), gate(side)))


def _gates(pos: Position, side: Side) -> tuple[int, ...]:
    return tuple(sq for sq, cell in enumerate(pos.cells) if cell == gate(side))


def _used(pos: Position, side: Side) -> tuple[bool, bool, bool]:
    mask = pos.used[side]
    return (bool(mask & 1), bool(mask & 2), bool(mask & 4))


def _shown_move(game: ToriiGame, staged: tuple[Event, ...]) -> Event | None:
    for event in staged:
        if event.kind == MOVE:
            return event
    for turn in reversed(game.turns):
        if all(event.kind == DECISION for event in turn.events):
            continue
        return next((event for event in turn.events if event.kind == MOVE), None)
    return None
