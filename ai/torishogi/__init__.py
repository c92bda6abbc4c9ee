"""ToriShogi's engine (``ai.engines``): material and check (``evaluation``), and its own
alpha-beta on the engine's position (``search``), about ten times the nodes of the seam's."""

from __future__ import annotations

from rules.torishogi import TORISHOGI, ToriShogiGame

from ..engines import Engine, register
from .evaluation import balance, evaluate
from .search import own_turn

register(
    Engine[ToriShogiGame](
        TORISHOGI.id,
        evaluate,
        balance,
        search=own_turn,
        hint_work=lambda _game: 5,  # its own search looks 5 moves ahead in a hosted turn's time
        turn_limit=lambda _game: 300,
    )
)
