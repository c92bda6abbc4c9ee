"""How values are written in the database: headers as JSON, snapshots as pickles tagged with
their game type's ``state_version`` (match options: ``games``)."""

from __future__ import annotations

import json
import pickle

from rules import GameState, game_type


def dump_game(game: GameState) -> bytes:
    return pickle.dumps(game, protocol=pickle.HIGHEST_PROTOCOL)


def load_game(data: bytes, state_version: int, game_id: str) -> GameState | None:
    """The pickled game, or None when it is of another shape (its game type's
    ``state_version``) or does not unpickle: the caller then rebuilds it from the whole log."""
    if state_version != game_type(game_id).state_version:
        return None
    try:
        game = pickle.loads(data)
    except Exception:  # any damage or shape change: the log is the truth, rebuild from it
        return None
    return game if isinstance(game, GameState) and game.game_type == game_id else None


def headers_to_json(headers: dict[str, str]) -> str:
    return json.dumps(headers, sort_keys=True)


def headers_from_json(text: str) -> dict[str, str]:
    headers = json.loads(text)
    if not isinstance(headers, dict):
        raise ValueError("match headers are not a JSON object")
    return {str(key): str(value) for key, value in headers.items()}
