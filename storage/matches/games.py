"""What storage keeps of a match's game, one way for every game of the registry: the game's
checked options and each side's setup answers (a ``Spec``), as its ``GameType`` reads them
off a game (``setup_of``) and makes a game of them (``new_game``).

A match row names its game (``matches.game``) and holds the options with the answers that
are not secret, as JSON: ``{"options": {...}, "answers": [{...}, {...}]}`` (public once the
game has started). The secret answers (``SetupQuestion.secret``: TORA's Assassin square,
R41) are rows of ``match_secrets``, which only the loader and each side's own reads see."""

from __future__ import annotations

import json
from collections.abc import Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any

from rules import DEFAULT, GameState, Side, game_type

DEFAULT_GAME = DEFAULT


@dataclass(frozen=True)
class Spec:
    """A game's checked options and each side's setup answers (Challenger's first)."""

    options: Mapping[str, Any] = field(default_factory=dict)
    answers: tuple[Mapping[str, str], Mapping[str, str]] = ({}, {})


Secret = tuple[Side, str, str]  # a side, a question's name, the answer


def spec_of(game: GameState) -> Spec:
    """Everything ``game`` was made with, secret answers included."""
    options, answers = game_type(game.game_type).setup_of(game)
    return Spec(options, answers)


def new_game(game_id: str, spec: Spec) -> GameState:
    """A fresh game of ``game_id`` (ValueError, or the rules core's refusal of an answer)."""
    return game_type(game_id).new_game(spec.options, spec.answers)


def _secret_names(game_id: str, options: Mapping[str, Any]) -> frozenset[str]:
    return frozenset(q.name for q in game_type(game_id).setup_questions(options) if q.secret)


def split(game_id: str, spec: Spec) -> tuple[Spec, list[Secret]]:
    """The part of ``spec`` a match row keeps (the options, the answers that are not
    secret), and the secret answers."""
    hidden = _secret_names(game_id, spec.options)
    public = tuple({k: v for k, v in given.items() if k not in hidden} for given in spec.answers)
    secrets = [
        (side, name, given[name])
        for side, given in zip(Side, spec.answers, strict=True)
        for name in sorted(hidden)
        if name in given
    ]
    return Spec(spec.options, (public[0], public[1])), secrets


def joined(spec: Spec, secrets: tuple[Mapping[str, str], Mapping[str, str]]) -> Spec:
    """A match row's spec with its secret answers back in: what made its game."""
    first, second = (
        dict(public) | dict(hidden) for public, hidden in zip(spec.answers, secrets, strict=True)
    )
    return Spec(spec.options, (first, second))


def spec_to_json(spec: Spec) -> str:
    body = {"options": dict(spec.options), "answers": [dict(given) for given in spec.answers]}
    return json.dumps(body, sort_keys=True)


def spec_from_json(game_id: str, text: str) -> Spec:
    """ValueError if the text is not a spec of a game the rules core knows, with options it
    accepts (checked as they are stored)."""
    try:
        fields = json.loads(text)
        if not isinstance(fields, dict) or set(fields) != {"options", "answers"}:
            raise ValueError("not a JSON object of options and answers")
        answers = fields["answers"]
        if not isinstance(answers, list) or len(answers) != 2:
            raise ValueError("answers are a list of two objects")
        first, second = ({str(k): str(v) for k, v in given.items()} for given in answers)
        return Spec(game_type(game_id).check_options(fields["options"]), (first, second))
    except (TypeError, ValueError, AttributeError) as exc:
        raise ValueError(f"unreadable match options {text[:80]!r}: {exc}") from None


def same_setup(game_id: str, game: GameState, spec: Spec) -> bool:
    """Whether a game (a snapshot's) is of ``game_id`` and was made with ``spec``."""
    if game.game_type != game_id:
        return False
    made = spec_of(game)
    return dict(made.options) == dict(spec.options) and tuple(map(dict, made.answers)) == tuple(
        map(dict, spec.answers)
    )


def heavy(game: GameState) -> bool:
    """Whether ending a turn of ``game`` costs the rules core much (``GameType.heavy``):
    storage snapshots after each such turn end."""
    return game_type(game.game_type).heavy(game)


def state_version(game: GameState) -> int:
    """The shape of ``game``'s pickled state (``GameType.state_version``): its snapshot's."""
    return game_type(game.game_type).state_version


def replaying(game: GameState) -> AbstractContextManager[None]:
    """Replay a log judged when it was played (``GameType.replaying``)."""
    return game_type(game.game_type).replaying(game)
