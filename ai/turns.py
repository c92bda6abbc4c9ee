"""Building a whole legal turn through the game seam, whatever the game: actions are staged
one at a time until none is left (or none is legal), and a turn the rules refuse to end
(TORA's R30) gives back its last action for another."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from rules import ActionError, GameState

# Picks the next action among the legal ones (never empty) of ``game``.
Chooser = Callable[[GameState, Sequence[Any]], Any]


RETRIES = 4  # other actions tried at one place of a turn that would not end
ATTEMPTS = 40  # turns tried in all before taking actions back until the turn can end
LATE_ATTEMPTS = 2  # turns tried once the deadline has passed (else a turn could end empty)


def build_turn(game: GameState, choose: Chooser, deadline: float | None = None) -> list[str]:
    """Stage a whole turn on ``game`` (a copy the caller may spend) with ``choose``; returns
    its actions' notations, ready for ``end_turn``. A turn that cannot end (R30) gives back
    its last action for another (up to ``RETRIES`` at each place, then the place before it
    changes too); after ``ATTEMPTS``, or ``LATE_ATTEMPTS`` once the clock has passed
    ``deadline``, it is taken back action by action until it can end (a turn may end with
    fewer actions, R12)."""
    texts: list[str] = []
    refused: list[set[str]] = [set()]  # per place in the turn: actions that led nowhere
    attempts = late = 0
    while True:
        actions = playable(game.legal_actions())
        if refused[-1]:  # a notation costs the rules a search for ambiguity: only if needed
            actions = [a for a in actions if game.notation(a) not in refused[-1]]
        if game.actions_left and actions:
            action = choose(game, actions)
            texts.append(game.notation(action))
            game.apply(action)
            refused.append(set())
            continue
        if not texts or can_end(game):
            return texts
        attempts += 1
        if deadline is not None and time.monotonic() > deadline:
            late += 1  # past the deadline: a few more tries, each one turn end
        if attempts > ATTEMPTS or late > LATE_ATTEMPTS:
            while texts and not can_end(game):
                texts.pop()
                game.undo()
            return texts
        refused.pop()
        refused[-1].add(texts.pop())
        game.undo()
        if len(refused[-1]) > RETRIES and texts:  # this place is hopeless: change the one before
            refused.pop()
            refused[-1].add(texts.pop())
            game.undo()


def playable(actions: Sequence[Any]) -> list[Any]:
    """The actions an engine considers: all but TORA's searches, which find only hidden
    Assassins (not played by the engines) and cannot be taken back (R43)."""
    return [action for action in actions if getattr(action, "kind", None) != "search"]


def can_end(game: GameState) -> bool:
    """Whether the turn played so far in ``game`` can end (R30 may refuse it)."""
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
