"""Log entries and the one dispatcher that plays them on a Game, live and on replay.

A match's state is its action log: every act of a player or of the bot, in order, including
the staged actions of the running turn and their undos, so a restart loses nothing. The live
path (``Match``) and the loader both go through ``play``, so what was logged is exactly what
replays; the loader compares each replayed entry with the stored one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from rules import UNFINISHED, GameState, Side
from rules.protocol import GameEvent, GameTurn

ACT, UNDO, TAKE_BACK, END, DEADLINE, RESIGN, DRAW, RESET = (
    "act",
    "undo",
    "take_back",
    "end",
    "deadline",
    "resign",
    "draw",
    "reset",
)
FORFEIT, DISCARD = "forfeit", "discard"
# A finished turn taken back by agreement: the game goes back to what it was after log entry
# ``arg`` (the end of the turn before). Not played through ``play``: the loader and
# ``Match.rewind`` put that earlier game in place (migration 16).
REWIND = "rewind"
KINDS = (ACT, UNDO, TAKE_BACK, END, DEADLINE, RESIGN, DRAW, RESET, FORFEIT, DISCARD, REWIND)
# entries that end a turn (a rewind ends the running one: the turn taken back runs anew)
CLOSING = frozenset({END, DEADLINE, RESIGN, DRAW, RESET, FORFEIT, REWIND})
# What a player may type as an action to end the game, in every game's records too.
RESIGN_TEXT, FORFEIT_TEXT = "resign", "forfeit"
_GAME_LEVEL = {RESIGN_TEXT: RESIGN, "draw": DRAW, "reset": RESET}
GAME_LEVEL_WORDS = frozenset(_GAME_LEVEL)  # typed as an action, each is a log entry of its own


@dataclass(frozen=True)
class Entry:
    """One row of the action log (without its row id, sequence number and time).

    ``side`` is who acted: the side to act, or the resigning side. ``turn`` counts the game's
    finished turns plus one when the entry was made. ``arg`` is the full action text (act) or
    the index taken back (take_back), and is private when ``hidden``; ``public`` is what
    every one may see.
    """

    kind: str
    side: Side
    turn: int
    arg: str = ""
    public: str = ""
    hidden: bool = False

    @property
    def closing(self) -> bool:
        return self.kind in CLOSING


@dataclass(frozen=True)
class Step:
    """What to play: a kind, its argument, and the side for a resignation."""

    kind: str
    arg: str = ""
    side: Side | None = None


def play(game: GameState, step: Step) -> tuple[Entry, Any]:
    """Play ``step`` on ``game`` (raises rules.ActionError if it is refused, leaving the game
    unchanged); returns the log entry and what the game's call returned."""
    if step.kind == ACT:
        kind = _GAME_LEVEL.get(step.arg.strip().lower())
        if kind is not None:
            step = Step(kind, side=step.side)
    turn = len(game.turns) + 1
    side = step.side if step.kind in (RESIGN, FORFEIT) and step.side is not None else game.side
    handler = _HANDLERS.get(step.kind)
    if handler is None:
        raise ValueError(f"unknown log entry kind {step.kind!r}")
    result, arg, public, hidden = handler(game, step, side)
    return Entry(step.kind, side, turn, arg, public, hidden), result


Played = tuple[Any, str, str, bool]  # what the Game call returned, arg, public text, hidden


def _act(game: GameState, step: Step, side: Side) -> Played:
    event: GameEvent = game.apply(step.arg)
    return event, event.text, event.public().text, event.hidden


def _undo(game: GameState, step: Step, side: Side) -> Played:
    return game.undo(), "", "undo", False


def _take_back(game: GameState, step: Step, side: Side) -> Played:
    index = int(step.arg)
    return game.take_back(index), str(index), f"take back action {index + 1}", False


def _end(game: GameState, step: Step, side: Side) -> Played:
    return game.end_turn(), "", "end turn", False


def _deadline(game: GameState, step: Step, side: Side) -> Played:
    return game.end_turn(deadline=True), "", "turn ended by its deadline", False


def _resign(game: GameState, step: Step, side: Side) -> Played:
    return game.resign(side), "", "resign", False


def _forfeit(game: GameState, step: Step, side: Side) -> Played:
    return game.forfeit(side), "", "forfeit", False


def _discard(game: GameState, step: Step, side: Side) -> Played:
    return game.discard_turn(), "", "unfinished turn discarded", False


def _draw(game: GameState, step: Step, side: Side) -> Played:
    return game.agree(DRAW), "", "draw (agreed)", False


def _reset(game: GameState, step: Step, side: Side) -> Played:
    return game.agree(RESET), "", "reset (agreed)", False


_HANDLERS: dict[str, Callable[[GameState, Step, Side], Played]] = {
    ACT: _act,
    UNDO: _undo,
    TAKE_BACK: _take_back,
    END: _end,
    DEADLINE: _deadline,
    RESIGN: _resign,
    DRAW: _draw,
    RESET: _reset,
    FORFEIT: _forfeit,
    DISCARD: _discard,
}


def step_of(entry: Entry) -> Step:
    """The step that replays a stored entry."""
    return Step(entry.kind, entry.arg, entry.side if entry.kind in (RESIGN, FORFEIT) else None)


def steps_from_turns(turns: list[GameTurn]) -> Iterator[Step]:
    """The log of a game known only by its finished turns (an imported record)."""
    for turn in turns:
        if turn.texts == [RESIGN_TEXT]:
            yield Step(RESIGN, side=turn.side)
            continue
        if turn.texts == [FORFEIT_TEXT]:
            yield Step(FORFEIT, side=turn.side)
            continue
        cut_short = turn.texts[-1:] == [UNFINISHED]  # by the opponent's resignation: left open
        texts = turn.texts[:-1] if cut_short else turn.texts
        for text in texts:
            yield Step(_GAME_LEVEL.get(text, ACT), "" if text in _GAME_LEVEL else text)
        if not cut_short and not (texts and texts[-1] in _GAME_LEVEL):
            yield Step(END)


def fingerprint(game: GameState) -> tuple[object, ...]:
    """Everything that tells two games apart, hidden state included (for checks and tests)."""
    return (game.game_type, game.key())
