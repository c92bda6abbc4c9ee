"""The hosted games, by id: the one list of games. Everything that offers a choice of games
or ladders (commands, ladders, drawings, engines, the command lines) reads it here.

TORA, ToriShogi and Torii are registered when the rules core is imported; another game is
registered with ``register`` before the layers above ask (the tests register a game of their
own this way). Its ladders come with it (``GameType.ladders``), so a new game needs no change
elsewhere and no schema migration."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .protocol import GameType, Ladder
from .tora import TORA
from .torii import TORII
from .torishogi import TORISHOGI
from .words import msg

# A game's or a ladder's id: in records, commands' choices, stored rows and custom ids.
ID = re.compile(r"[a-z][a-z0-9-]{0,15}")
TITLE = 40  # characters of a game's title (it heads choices and posts)

# Each game type makes its own games (``GameType[Game]``...); held together, any game.
GAMES: dict[str, GameType[Any]] = {}
DEFAULT = TORA.id  # a record without a [Game] header, a challenge without a game


def register(kind: GameType[Any]) -> None:
    """Add a game: ValueError if its id, title or a ladder's id is malformed, or its id or
    a ladder's is taken."""
    if not ID.fullmatch(kind.id):
        raise ValueError(f"a game's id is 1 to 16 lower-case letters, digits or -: {kind.id!r}")
    if kind.id in GAMES:
        raise ValueError(f"there is a game {kind.id!r} already")
    if not 0 < len(kind.title) <= TITLE:
        raise ValueError(f"a game's title is 1 to {TITLE} characters: {kind.title!r}")
    if not kind.ladders:
        raise ValueError(f"{kind.title} has no ladder")
    taken = {ladder.id for ladder in ladders()}
    for ladder in kind.ladders:
        if not ID.fullmatch(ladder.id):
            raise ValueError(f"a ladder's id is like a game's: {ladder.id!r}")
        if ladder.id in taken:
            raise ValueError(f"there is a ladder {ladder.id!r} already")
        taken.add(ladder.id)
    GAMES[kind.id] = kind


def unregister(game_id: str) -> None:
    """Take a game off the list again (a test's game, once the test is done)."""
    if game_id == DEFAULT:
        raise ValueError("the default game stays")
    GAMES.pop(game_id, None)


def game_type(game_id: str) -> GameType:
    """The game ``game_id`` names (case-insensitive); ValueError lists the games there are."""
    found = GAMES.get(game_id.strip().lower())
    if found is None:
        raise ValueError(
            msg(
                "no game {game}; the games are {games}",
                game=repr(game_id[:40]),
                games=", ".join(GAMES),
            )
        )
    return found


def ladders() -> tuple[Ladder, ...]:
    """Every game's ladders, the games in the order they were registered."""
    return tuple(ladder for kind in GAMES.values() for ladder in kind.ladders)


def ladder_game(ladder_id: str) -> tuple[GameType, Ladder] | None:
    """The game a ladder is of, and the ladder; None for no ladder of a registered game."""
    for kind in GAMES.values():
        for ladder in kind.ladders:
            if ladder.id == ladder_id:
                return kind, ladder
    return None


def ladder_of(game_id: str, options: Mapping[str, Any]) -> Ladder:
    """The ladder a rated match of ``game_id`` with these checked options counts on: the
    first of the game's ladders that holds them (ValueError for an unknown game, or options
    that none holds)."""
    kind = game_type(game_id)
    for ladder in kind.ladders:
        if ladder.holds(options):
            return ladder
    raise ValueError(msg("no ladder of {game} takes a match with these options", game=kind.title))


for _kind in (TORA, TORISHOGI, TORII):
    register(_kind)
