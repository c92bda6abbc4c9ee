"""Every game's drawings by its id: the public board and a player's own (``board_of``,
``own_board_of``, chosen by ``view.game``), and the animated replay of a record (its
``[Game]`` header picks the game, none: TORA; its ``Challenger`` and ``Opposition``
headers name the players)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rules.records import game_of, headers_of
from rules.registry import DEFAULT

from . import torii, torishogi
from .pointing import MarkFields
from .status import StatusFields, StatusInfo
from .tora import board as tora_board
from .tora import replay as tora

Draw1 = Callable[[Any, StatusFields], bytes]
DrawOwn = Callable[[Any, StatusFields, MarkFields | None], bytes]
# The public board and a player's own (with what they are choosing pointed out): TORA's
# shows their hidden Assassin; the other games hide nothing, and draw a player's board from
# their side.
BOARDS: dict[str, tuple[Draw1, DrawOwn]] = {
    "tora": (tora_board.board_png, tora_board.private_png),
    "torishogi": (torishogi.board_png, torishogi.board_png),
    "torii": (torii.board_png, torii.board_png),
}
ViewsOf = Callable[[str], Sequence[Any]]
Draw = Callable[[Sequence[Any], StatusInfo], bytes]
REPLAYS: dict[str, tuple[ViewsOf, Draw]] = {
    "tora": (tora.views_from_record, tora.replay_gif),
    "torishogi": (torishogi.views_from_record, torishogi.replay_gif),
    "torii": (torii.views_from_record, torii.replay_gif),
}


def board_of(view: Any, info: StatusFields) -> bytes:
    """The public board of any game (``view_for(None)``)."""
    return BOARDS[view.game][0](view, info)


def own_board_of(view: Any, info: StatusFields, marks: MarkFields | None = None) -> bytes:
    """A player's own board of any game (``view_for(side)``), pointing out ``marks``."""
    return BOARDS[view.game][1](view, info, marks)


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
    a game there is no drawing of."""
    game = game_of(text, DEFAULT)
    if game not in REPLAYS:
        raise ValueError(f"no replay is drawn for the game {game[:40]!r}")
    views_of, draw = REPLAYS[game]
    return draw(views_of(text), record_status(text))
