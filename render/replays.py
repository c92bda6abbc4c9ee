"""Every game's drawings by its id (``drawings``): the public board and a player's own
(``board_of``, ``own_board_of``, chosen by ``view.game``), and the animated replay of a record
(its ``[Game]`` header picks the game, none: TORA; its ``Challenger`` and ``Opposition``
headers name the players)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rules.records import RecordError, game_of, headers_of
from rules.registry import DEFAULT, GAMES

from .drawings import drawing_of
from .encode import TooLarge, gif_bytes, most_frames
from .pointing import MarkFields
from .status import StatusFields, StatusInfo
from .words import ENGLISH, Words


@dataclass(frozen=True)
class Picture:
    """Exactly what a board picture is drawn from: its drawing's function (``Drawing.board``,
    called with the view and ``info``, or ``Drawing.own``, called with ``marks`` too), the view
    as that drawing draws it (``Drawing.seen``), ``info`` and ``marks``. Equal pictures are the
    same bytes, whoever they are for: a player's own picture equals the public one only
    where its drawing is the public board's very function, nothing is pointed out and the
    views it draws are equal, field by field (hashable where the view is: a key)."""

    draw: Callable[..., bytes]
    view: Any
    info: StatusFields
    marks: MarkFields | None = None
    own: bool = False

    def png(self) -> bytes:
        if self.own:
            return self.draw(self.view, self.info, self.marks)
        return self.draw(self.view, self.info)


def picture_of(
    view: Any, info: StatusFields, marks: MarkFields | None = None, *, own: bool = False
) -> Picture:
    """The public board of ``view`` (``view_for(None)``), or with ``own`` a player's own
    board (``view_for(side)``, pointing out ``marks``), as a ``Picture``. An own picture
    drawn by the public board's function with nothing pointed out is that board (its
    ``marks`` are None by default): Torii's and ToriShogi's, which hide nothing."""
    drawing = drawing_of(view.game)
    seen = view if drawing.seen is None else drawing.seen(view)
    public: object = drawing.board  # (mypy: the two differ in type, not always in identity)
    if own and (marks is not None or drawing.own is not public):
        return Picture(drawing.own, seen, info, marks, own=True)
    return Picture(drawing.board, seen, info)


def board_of(view: Any, info: StatusFields) -> bytes:
    """The public board of any game (``view_for(None)``)."""
    return picture_of(view, info).png()


def own_board_of(view: Any, info: StatusFields, marks: MarkFields | None = None) -> bytes:
    """A player's own board of any game (``view_for(side)``), pointing out ``marks``: TORA's
    shows their hidden Assassin; the games that hide nothing draw it from their side."""
    return picture_of(view, info, marks, own=True).png()


def record_status(text: str, words: Words = ENGLISH) -> StatusInfo:
    """Player names from a record's ``Challenger`` and ``Opposition`` headers, the pictures'
    own words in ``words``."""
    headers = headers_of(text)
    return StatusInfo(
        challenger=headers.get("Challenger", "Challenger"),
        opposition=headers.get("Opposition", "Opposition"),
        words=words,
    )


@dataclass(frozen=True)
class Replay:
    """A record's animated GIF, of its last ``shown`` turns out of ``turns`` (all of them but
    in a long match: ``encode.most_frames``)."""

    gif: bytes
    turns: int
    shown: int

    def __len__(self) -> int:
        """Its size in bytes, as a cache of bytes counts it."""
        return len(self.gif)


def replay_of(text: str, words: Words = ENGLISH) -> Replay:
    """The replay of a public record of any game, its words in ``words``. Its last frame is
    drawn first: its size bounds how many frames the GIF may hold (``most_frames``), and a
    longer match's replay shows its last turns, no frame drawn in vain. RecordError or
    ReplayError (``rules.records``) if the record does not replay (TORA: a hidden Assassin's
    ``X ?`` before the end), ``TooLarge`` if the GIF still passes Discord's limit,
    ValueError for a game the registry does not know."""
    game = game_of(text, DEFAULT)
    if game not in GAMES:
        raise ValueError(f"no replay is drawn for the game {game[:40]!r}")
    drawing = drawing_of(game)
    views = drawing.views(text)
    info = record_status(text, words)
    last = drawing.frame(views[-1], info)
    kept = views[-most_frames(last.size) :]
    frames = [drawing.frame(view, info) for view in kept[:-1]]
    return Replay(gif_bytes([*frames, last]), len(views) - 1, len(kept) - 1)


HIDDEN, TOO_LARGE = "hidden", "too large"  # why a replay is not drawn (``replay_or_why``)


def replay_or_why(text: str, words: Words = ENGLISH) -> Replay | str:
    """``replay_of``, or why it is not drawn: ``HIDDEN`` (a RecordError: a hidden
    Assassin's action before the end) or ``TOO_LARGE`` (``TooLarge``). Answered, not raised:
    a replay is drawn in a drawing worker, where a raise is a failed drawing, drawn again
    in the bot's own process."""
    try:
        return replay_of(text, words)
    except RecordError:
        return HIDDEN
    except TooLarge:
        return TOO_LARGE
