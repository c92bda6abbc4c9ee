"""ToriShogi's engine (``ai.engines``): its evaluation (``evaluation``: material with hand
values, piece-square tables and Phoenix safety, ``tables``) and its own search (``search``:
the principal-variation search of ``ai.pvs`` on ``state.SearchState``, the position with its
incremental Zobrist key; quiescence on ``captures``)."""

from __future__ import annotations

from rules.torishogi import TORISHOGI, ToriShogiGame

from ..engines import Engine, register
from .evaluation import balance, evaluate
from .search import own_turn

HINT_DEPTH = 6  # plies a hint looks ahead, within the search's fixed node budget

register(
    Engine[ToriShogiGame](
        TORISHOGI.id,
        evaluate,
        balance,
        search=own_turn,
        hint_work=lambda _game: HINT_DEPTH,
        turn_limit=lambda _game: 300,
    )
)
