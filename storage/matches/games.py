"""What storage keeps of a match's game, for every game of the registry.

A match row names its game (``matches.game``, TORA's by default) and holds its options as
JSON. TORA's options are the fields of ``rules.tora.Options`` (the players' setup choices
included; the Assassins' squares are secrets, in ``match_secrets``). Every other game stores
a ``Spec``: the ``GameType``'s checked options and
the players' setup answers, public once the game has started."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from rules import GameState, game_type
from rules.tora import LONG, TORA, Game, Options, name

DEFAULT_GAME = TORA.id


@dataclass(frozen=True)
class Spec:
    """A game's options and each side's setup answers (Challenger's first)."""

    options: Mapping[str, Any] = field(default_factory=dict)
    answers: tuple[Mapping[str, str], Mapping[str, str]] = ({}, {})


MatchOptions = Options | Spec  # what a match row's options hold


def options_to_json(options: MatchOptions) -> str:
    if isinstance(options, Options):
        return json.dumps(dataclasses.asdict(options), sort_keys=True)
    body = {"options": dict(options.options), "answers": [dict(a) for a in options.answers]}
    return json.dumps(body, sort_keys=True)


def options_from_json(game: str, text: str) -> MatchOptions:
    """ValueError if the text is not the options of a game the rules core accepts."""
    try:
        fields = json.loads(text)
        if not isinstance(fields, dict):
            raise ValueError("not a JSON object")
        if game == DEFAULT_GAME:
            return _tora_options(fields)
        kind = game_type(game)
        answers = fields.get("answers", [{}, {}])
        if not isinstance(answers, list) or len(answers) != 2:
            raise ValueError("answers are a list of two objects")
        first, second = ({str(k): str(v) for k, v in given.items()} for given in answers)
        return Spec(kind.check_options(fields.get("options", {})), (first, second))
    except (TypeError, ValueError, AttributeError) as exc:
        raise ValueError(f"unreadable match options {text[:80]!r}: {exc}") from None


def _tora_options(fields: dict[str, Any]) -> Options:
    if "rulers" in fields:
        fields["rulers"] = tuple(fields["rulers"])
    options = Options(**fields)
    options.validate()
    return options


def new_game(
    game: str, options: MatchOptions, starts: tuple[str | None, str | None] = (None, None)
) -> GameState:
    """A fresh game of ``game``; ``starts`` are TORA's secret Assassin squares (R41)."""
    if isinstance(options, Options):
        return Game(options, assassin_starts=starts)
    return game_type(game).new_game(options.options, options.answers)


def same_options(game_id: str, game: GameState, options: MatchOptions) -> bool:
    """Whether a game (a snapshot's) is of ``game_id`` and was made with ``options``."""
    if game.game_type != game_id:
        return False
    if isinstance(options, Options):
        return getattr(game, "options", None) == options
    made, answers = game_type(game_id).setup_of(game)
    return made == dict(options.options) and answers == tuple(dict(a) for a in options.answers)


def spec_of(game: GameState) -> MatchOptions:
    """The options to store for ``game`` (an imported record's)."""
    if isinstance(game, Game):
        return game.options
    made, answers = game_type(game.game_type).setup_of(game)
    return Spec(made, answers)


def heavy(game: GameState) -> bool:
    """Whether ending a turn can cost the rules core much (TORA's long board, R25 and the
    jeopardy search): such turn ends are snapshotted and run in a worker process."""
    return isinstance(game, Game) and game.options.board == LONG


def secrets_of(game: GameState) -> tuple[str | None, str | None]:
    """A game's secret setup answers: TORA's Assassin squares (R41), None where not fielded."""
    if not isinstance(game, Game):
        return None, None
    first, second = (name(sq) if sq else None for sq in game.assassin_starts)
    return first, second


@contextmanager
def replaying(game: GameState) -> Iterator[None]:
    """Replay a log judged when it was played: TORA's trapped search (R25) is skipped
    inside and run once at the end, where the log ends."""
    if not isinstance(game, Game):
        yield
        return
    game.skip_trapped = True
    try:
        yield
    finally:
        game.skip_trapped = False
    game.judge_trapped()
