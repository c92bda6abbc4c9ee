"""Building a whole legal turn through the game seam, whatever the game: actions are staged
one at a time while any is legal (a game offers none once the turn has no action left, but
for a free one: TORA's take of the Assassin its search found, R43), and a turn the rules
refuse to end (TORA's R30) gives back its last action for another."""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Sequence
from typing import Any

from rules import ActionError, GameState

# Picks the next action among the legal ones (never empty) of ``game``.
Chooser = Callable[[GameState, Sequence[Any]], Any]


RETRIES = 4  # other actions tried at one place of a turn that would not end
ATTEMPTS = 40  # turns tried in all before taking actions back until the turn can end
LATE_ATTEMPTS = 2  # turns tried once the deadline has passed (else a turn could end empty)
CUTS = 6  # turns cut down from the last one tried (a TORA turn of 3 actions has 6)


def build_turn(game: GameState, choose: Chooser, deadline: float | None = None) -> list[str]:
    """Stage a whole turn on ``game`` (a copy the caller may spend) with ``choose``; returns
    its actions' notations, ready for ``end_turn``. A turn that cannot end (R30) gives back
    its last action for another (up to ``RETRIES`` at each place, then the place before it
    changes too, and so on back to the first); after ``ATTEMPTS``, or ``LATE_ATTEMPTS``
    once the clock has passed ``deadline``, it is cut down to the most of its actions
    that can end it (a turn may end with fewer actions, R12)."""
    texts: list[str] = []
    refused: list[set[str]] = [set()]  # per place in the turn: actions that led nowhere
    attempts = late = 0
    while True:
        actions = playable(game.legal_actions())
        if refused[-1]:  # a notation costs the rules a search for ambiguity: only if needed
            actions = [a for a in actions if game.notation(a) not in refused[-1]]
        if actions:
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
            return _most_that_ends(game, texts)
        refused.pop()
        refused[-1].add(texts.pop())
        game.undo()
        while len(refused[-1]) > RETRIES and texts:  # hopeless here: change the one before
            refused.pop()
            refused[-1].add(texts.pop())
            game.undo()


def _most_that_ends(game: GameState, texts: list[str]) -> list[str]:
    """The turn ``texts`` (staged on ``game``, which cannot end it) cut down to the most of
    its actions, in their order, that are still legal and let it end: dropping only the
    one R30 refuses keeps the others, where taking actions back from the last would lose
    every one after it (the whole turn, for the first). Tried largest first, at most
    ``CUTS`` of them (each a turn end); [] if none ends."""
    for _ in texts:
        game.undo()
    cuts = (
        kept
        for size in range(len(texts) - 1, 0, -1)
        for kept in itertools.combinations(texts, size)
    )
    for kept in itertools.islice(cuts, CUTS):
        trial = game.copy()
        if _staged(trial, kept) and can_end(trial):
            _staged(game, kept)
            return list(kept)
    return []


def _staged(game: GameState, texts: Sequence[str]) -> bool:
    """Whether ``texts`` could all be staged on ``game`` (which then holds them)."""
    try:
        for text in texts:
            game.apply(text)
    except ActionError:
        return False
    return True


def playable(actions: Sequence[Any]) -> list[Any]:
    """The actions an engine considers: all but TORA's searches, which find only hidden
    Assassins (not played by the engines) and cannot be taken back (R43)."""
    return [action for action in actions if not is_search(action)]


def is_search(action: Any) -> bool:
    """Whether ``action`` is TORA's search for hidden Assassins (R43): what it finds, no
    engine can know before it is played."""
    return getattr(action, "kind", None) == "search"


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
