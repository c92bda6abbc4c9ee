"""Every game's drawings by its id (``drawings``): the public board and a player's own
(``board_of``, ``own_board_of``, chosen by ``view.game``), and the animated replay of a record
(its ``[Game]`` header picks the game, none: TORA; its ``Challenger`` and ``Opposition``
headers name the players)."""

from __future__ import annotations

from typing import Any

from rules.records import game_of, headers_of
from rules.registry import DEFAULT, GAMES

from .drawings import drawing_of
from .pointing import MarkFields
from .status import StatusFields, StatusInfo


def board_of(view: Any, info: StatusFields) -> bytes:
    """The public board of any game (``view_for(None)``)."""
    return drawing_of(view.game).board(view, info)


def own_board_of(view: Any, info: StatusFields, marks: MarkFields | None = None) -> bytes:
    """A player's own board of any game (``view_for(side)``), pointing out ``marks``: TORA's
    shows their hidden Assassin; the games that hide nothing draw it from their side."""
    return drawing_of(view.game).own(view, info, marks)


def record_status(text: str) -> StatusInfo:
    """Player names from a record's ``Challenger`` and ``Opposition`` headers."""
    headers = headers_of(text)
    return StatusInfo(
        challenger=headers.get("Challenger", "Challenger"),
        opposition=headers.get("Opposition", "Opposition"),
    )


def replay_of(text: str) -> bytes:
    """The GIF of a public record of any game: RecordError or ReplayError (``rules.records``)
    if it does not replay (TORA: a hidden Assassin's ``X ?`` before the end), ValueError for
    a game the registry does not know."""
    game = game_of(text, DEFAULT)
    if game not in GAMES:
        raise ValueError(f"no replay is drawn for the game {game[:40]!r}")
    drawing = drawing_of(game)
    return drawing.replay(drawing.views(text), record_status(text))
