"""The hosted games, by id. The only place that names every game package."""

from __future__ import annotations

from typing import Any

from .protocol import GameType
from .tora import TORA
from .torii import TORII
from .torishogi import TORISHOGI

# Each game type makes its own games (``GameType[Game]``...); held together, any game.
GAMES: dict[str, GameType[Any]] = {game.id: game for game in (TORA, TORISHOGI, TORII)}
DEFAULT = TORA.id  # a record without a [Game] header, a challenge without a game


def game_type(game_id: str) -> GameType:
    """The game ``game_id`` names (case-insensitive); ValueError lists the games there are."""
    found = GAMES.get(game_id.strip().lower())
    if found is None:
        raise ValueError(f"no game {game_id[:40]!r}; the games are {', '.join(GAMES)}")
    return found
