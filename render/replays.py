"""The animated replay of any game's record: the record's ``[Game]`` header picks the drawing
package (none: TORA), its ``Challenger`` and ``Opposition`` headers name the players."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rules.records import game_of, headers_of
from rules.registry import DEFAULT

from . import torii, torishogi
from .status import StatusInfo
from .tora import replay as tora

ViewsOf = Callable[[str], Sequence[Any]]
Draw = Callable[[Sequence[Any], StatusInfo], bytes]
REPLAYS: dict[str, tuple[ViewsOf, Draw]] = {
    "tora": (tora.views_from_record, tora.replay_gif),
    "torishogi": (torishogi.views_from_record, torishogi.replay_gif),
    "torii": (torii.views_from_record, torii.replay_gif),
}


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
