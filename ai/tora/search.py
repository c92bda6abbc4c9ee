"""The search for the enemy's hidden Assassin (R43) that TORA's sampling players play alone
(``ai.engines.Engine.forced``), the rest of their turn chosen once it is known what it found."""

from __future__ import annotations

from typing import Any

from rules import ActionError
from rules.tora import Game, neighbours

from ..turns import is_search
from .belief import cached_belief

SEARCH_SHARE = 0.5  # of the belief a search must look at to be worth a turn (R43)


def worth_searching(game: Game) -> str | None:
    """A search (R43) that looks where the enemy's hidden Assassin most likely is, if it
    covers ``SEARCH_SHARE`` of the belief, at the start of a turn: played alone, as a search
    cannot be taken back and what it finds decides the rest of the turn."""
    if game.current:
        return None
    belief = cached_belief(game, game.side)
    if not belief.squares:
        return None
    scored = []
    for action in game.legal_actions():
        if is_search(action):
            looked = (action.dest, *neighbours(game.terrain.size)[action.dest])
            share = belief.share(looked)
            if share >= SEARCH_SHARE:
                scored.append((share, action))
    for _share, action in sorted(scored, key=lambda pair: -pair[0]):
        if _allowed(game, action):
            return game.notation(action)
    return None


def _allowed(game: Game, action: Any) -> bool:
    """Whether the rules take the action now: a command piece's search is listed before
    R43 checks that it is not in jeopardy after its move (judged without hidden Assassins,
    R29, so the engine's copy answers as the real game does)."""
    try:
        game.copy().apply(action)
    except ActionError:
        return False
    return True
