"""What a player or a spectator sees of a game (``GameView``): the input of images and texts.

Torii hides nothing; the only difference between viewers is the staged turn: the player to
act sees it applied (the preview of ending the turn now) and how many actions are left,
everyone else the position before and the actions the turn began with.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.sides import Outcome, Side
from rules.words import Text, frame, joined, msg

from .board import FILES, SIZE, lanes, name, square
from .building import REASONS
from .events import DECISION, MOVE, Event, Turn
from .state import Position, Setup, follower, gate


@dataclass(frozen=True)
class SpiritView:
    side: Side
    kind: str
    square: int


@dataclass(frozen=True)
class View:
    """``followers``: each side's squares with a Follower (under a Torii or not); ``torii``:
    each side's squares with a Torii. ``tiles``: for each side, tiles 1, 2, 3 used or not.
    ``actions_left``: the actions ``side`` may still stage, in their own view; in anyone
    else's, those the turn began with (what is staged is private until the turn ends).
    ``monkey_decision``: ``side`` owes ``actions_left`` Monkey decisions (TI15).
    ``forced_pass``: ``side``'s turn may only be a pass (TI8). ``lanes``:
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
    forced_pass: bool
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
        return msg(
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

    def contents(self, names: Sequence[str]) -> dict[str, str]:
        """What each square holds in words, by its name (``c3``): its Follower, the Torii
        built over it, a Spirit; empty squares left out."""
        said: dict[int, list[Text]] = {}
        for side in Side:
            owner = names[side]
            for sq in self.followers[side]:
                said.setdefault(sq, []).append(msg("{player}'s Follower", player=owner))
            for sq in self.torii[side]:
                said.setdefault(sq, []).append(msg("{player}'s Torii", player=owner))
        for spirit in self.spirits:
            said.setdefault(spirit.square, []).append(
                msg(
                    "{player}'s Spirit, the {spirit}", player=names[spirit.side], spirit=spirit.kind
                )
            )
        return {name(sq): joined(parts) for sq, parts in said.items()}

    def summary(self, names: Sequence[str]) -> str:
        players = self._players(names)
        if self.outcome is not None:
            said = self.outcome.partition("(")[2].rstrip(")")
            reason = REASONS.get(said, said)
            if self.winner is None:
                return msg("{players} · a tie ({reason})", players=players, reason=reason)
            return msg(
                "{players} · {player} wins ({reason})",
                players=players,
                player=names[self.winner],
                reason=reason,
            )
        me, them = names[self.side], names[self.side.other]
        if not self.monkey_decision:
            return msg("{players} · {player} to play", players=players, player=me)
        if self.torii_left[self.side.other] == 0:
            return msg(
                "{players} · {player} decides for the Monkey, then {opponent} wins "
                "(all 4 Torii built)",
                players=players,
                player=me,
                opponent=them,
            )
        return msg("{players} · {player} decides for the Monkey", players=players, player=me)

    def final_summary(self, names: Sequence[str]) -> str:
        """The line of a game over: ``summary``'s, or for a game its rules did not end (the
        match called off), each player's standing alone: nobody is to play any more."""
        if self.outcome is not None:
            return self.summary(names)
        return self._players(names)

    def _players(self, names: Sequence[str]) -> Text:
        """Each player's Spirit, supply, Torii left and tiles, separated by middots."""
        return _middots(
            [
                msg(
                    "{player} ({spirit} on {square}): {supply} in supply, {torii} Torii left, "
                    "tiles {tiles}",
                    player=names[s],
                    spirit=self.spirits[s].kind,
                    square=name(self.spirits[s].square),
                    supply=self.supply[s],
                    torii=self.torii_left[s],
                    tiles=_tiles(self.tiles[s]),
                )
                for s in Side
            ]
        )


def _middots(parts: list[Text]) -> Text:
    joined = parts[0]
    for part in parts[1:]:
        joined = frame("{list} · {item}", list=joined, item=part)
    return joined


def _tiles(used: tuple[bool, bool, bool]) -> Text:
    unused = [str(t) for t, is_used in zip((1, 2, 3), used, strict=True) if not is_used]
    return msg("{tiles} unused", tiles=" ".join(unused)) if unused else msg("all used")


def build_view(
    viewer: Side | None,
    side: Side,
    actions_left: int,
    shown: Position,
    staged: tuple[Event, ...],
    turns: Sequence[Turn],
    outcome: Outcome | None,
    setup: Setup,
    deciding: bool,
    forced_pass: bool,
) -> View:
    """``ToriiGame.view_for``: ``shown`` is the position ``viewer`` sees, with the actions
    ``staged`` played when it is the acting player's preview. Anyone but the player to act
    gets the count of actions the turn began with, not ``actions_left``: how much of it is
    staged stays private until the turn ends, as the staged actions themselves."""
    last = turns[-1] if turns else None
    return View(
        viewer=viewer,
        side=side,
        actions_left=actions_left if viewer == side else _at_turn_start(shown, outcome),
        staged=staged,
        last_turn=() if last is None else last.events,
        outcome=None if outcome is None else str(outcome),
        winner=None if outcome is None else outcome.winner,
        spirits=(
            SpiritView(Side.CHALLENGER, setup.spirits[0], shown.spirits[0]),
            SpiritView(Side.OPPOSITION, setup.spirits[1], shown.spirits[1]),
        ),
        followers=(_squares(shown, Side.CHALLENGER), _squares(shown, Side.OPPOSITION)),
        torii=(_gates(shown, Side.CHALLENGER), _gates(shown, Side.OPPOSITION)),
        supply=(shown.supply(Side.CHALLENGER), shown.supply(Side.OPPOSITION)),
        torii_left=(shown.torii_left(Side.CHALLENGER), shown.torii_left(Side.OPPOSITION)),
        tiles=(_used(shown, Side.CHALLENGER), _used(shown, Side.OPPOSITION)),
        powers=setup.powers,
        monkey_decision=deciding,
        forced_pass=forced_pass,
        lanes=() if outcome is not None else tuple(sorted(lanes(shown.spirits[side.other]))),
        move=_shown_move(turns, staged),
    )


def _at_turn_start(settled: Position, outcome: Outcome | None) -> int:
    """The actions the turn began with (``settled``: the position before any staged)."""
    return 0 if outcome is not None else settled.actions


def _squares(pos: Position, side: Side) -> tuple[int, ...]:
    return tuple(sq for sq, cell in enumerate(pos.cells) if cell in (follower(side), gate(side)))


def _gates(pos: Position, side: Side) -> tuple[int, ...]:
    return tuple(sq for sq, cell in enumerate(pos.cells) if cell == gate(side))


def _used(pos: Position, side: Side) -> tuple[bool, bool, bool]:
    mask = pos.used[side]
    return (bool(mask & 1), bool(mask & 2), bool(mask & 4))


def _shown_move(turns: Sequence[Turn], staged: tuple[Event, ...]) -> Event | None:
    for event in staged:
        if event.kind == MOVE:
            return event
    for turn in reversed(turns):
        if all(event.kind == DECISION for event in turn.events):
            continue
        return next((event for event in turn.events if event.kind == MOVE), None)
    return None
