"""Building a whole legal turn through the game seam, whatever the game: actions are staged
one at a time until none is left (or none is legal), and a turn the rules refuse to end
(TORA's R30) gives back its last action for another."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rules import ActionError, GameState

# Picks the next action among the legal ones (never empty) of ``game``.
Chooser = Callable[[GameState, Sequence[Any]], Any]


def build_turn(game: GameState, choose: Chooser) -> list[str]:
    """Stage a whole turn on ``game`` (a copy the caller may spend) with ``choose``; returns
    its actions' notations, ready for ``end_turn``. A turn that cannot end is unwound one
    action at a time, each time excluding the action that failed."""
    texts: list[str] = []
    refused: list[set[str]] = [set()]
    while True:
        actions = [a for a in playable(game.legal_actions()) if game.notation(a) not in refused[-1]]
        if game.actions_left and actions:
            action = choose(game, actions)
            texts.append(game.notation(action))
            game.apply(action)
            refused.append(set())
            continue
        if _ends(game) or not texts:
            return texts
        # The turn cannot end: take the last action back and try another in its place.
        last = texts.pop()
        game.undo()
        refused.pop()
        refused[-1].add(last)


def playable(actions: Sequence[Any]) -> list[Any]:
    """The actions an engine considers: all but TORA's searches, which find only hidden
    Assassins (not played by the engines) and cannot be taken back (R43)."""
    return [action for action in actions if getattr(action, "kind", None) != "search"]


def _ends(game: GameState) -> bool:
    trial = game.copy()
    try:
        trial.end_turn()
    except ActionError:
        return False
    return True


def after_turn(game: GameState, texts: Sequence[str]) -> GameState:
    """A copy of ``game`` with the turn ``texts`` played and ended."""
    child = game.copy()
    for text in texts:
        child.apply(text)
    child.end_turn()
    return child
