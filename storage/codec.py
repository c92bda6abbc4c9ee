"""How values are written in the database: options as JSON, sides as letters, snapshots as
pickles tagged with the rules core's ``STATE_VERSION``."""

from __future__ import annotations

import dataclasses
import json
import pickle

from rules.tora import STATE_VERSION, Game, Options


def options_to_json(options: Options) -> str:
    return json.dumps(dataclasses.asdict(options), sort_keys=True)


def options_from_json(text: str) -> Options:
    """ValueError if the text is not the options of a game the rules core accepts."""
    try:
        fields = json.loads(text)
        if not isinstance(fields, dict):
            raise ValueError("not a JSON object")
        if "rulers" in fields:
            fields["rulers"] = tuple(fields["rulers"])
        options = Options(**fields)
        options.validate()
    except (TypeError, ValueError) as exc:
        raise ValueError(f"unreadable match options {text[:80]!r}: {exc}") from None
    return options


def dump_game(game: Game) -> bytes:
    return pickle.dumps(game, protocol=pickle.HIGHEST_PROTOCOL)


def load_game(data: bytes, state_version: int) -> Game | None:
    """The pickled game, or None when it is of another shape (``STATE_VERSION``) or does not
    unpickle: the caller then rebuilds the game from the whole log."""
    if state_version != STATE_VERSION:
        return None
    try:
        game = pickle.loads(data)
    except Exception:  # any damage or shape change: the log is the truth, rebuild from it
        return None
    return game if isinstance(game, Game) else None


def headers_to_json(headers: dict[str, str]) -> str:
    return json.dumps(headers, sort_keys=True)


def headers_from_json(text: str) -> dict[str, str]:
    headers = json.loads(text)
    if not isinstance(headers, dict):
        raise ValueError("match headers are not a JSON object")
    return {str(key): str(value) for key, value in headers.items()}
