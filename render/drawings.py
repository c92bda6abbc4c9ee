"""Which drawing draws which game. A game's drawing package (``render/tora``,
``render/torishogi``, ``render/torii``) registers its ``Drawing`` when it is imported; the
first look-up imports every drawing package under ``render/`` once. A game of the registry
(``rules.registry``) that registered none is drawn by the generic drawing (``generic``), from
the square map its view says (``rules.protocol.Mapped``)."""

from __future__ import annotations

import functools
import importlib
import pkgutil
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from PIL import Image

from rules import game_type

from . import generic
from .pointing import Cell, MarkFields
from .status import StatusFields, StatusInfo
from .words import Words

V = TypeVar("V")  # the views a drawing draws, its game's


@dataclass(frozen=True)
class Turned(Generic[V]):
    """A game's pictures drawn from the other side (the board turned half round, its labels
    upright): ``board`` and ``own`` as the ``Drawing``'s, ``cells`` where each square is on
    them."""

    board: Callable[[V, StatusFields], bytes]
    own: Callable[[V, StatusFields, MarkFields | None], bytes]
    cells: Callable[[V], dict[str, Cell]]


@dataclass(frozen=True)
class Drawing(Generic[V]):
    """How one game is drawn, from its views ``V``: ``board`` the public board (of
    ``view_for(None)``); ``own`` a player's own (of ``view_for(side)``, pointing out
    ``marks``: TORA's shows their hidden Assassin); ``views`` the public views of a record,
    at the start and after each turn, and ``frame`` one of them as a frame of its animated
    GIF (``render.replays.replay_of``); ``coordinates`` the
    start position with the board's coordinates, for the game's quick start, its own words
    in the language of the ``Words`` it is given. ``cells`` says
    where each square is on the ``board`` and ``own`` pictures of a view (x, y of its
    top-left corner and its size, in pixels), and each place off the board the viewer's
    actions can start from (a hand, as ``rules.protocol.Touch`` names it; the other hand
    too, for a screen reader to reach): what a web page overlays to click. ``turned``, the
    pictures from the other side, for a game whose drawing can turn the board (None: it
    cannot). ``seen``, the view as ``board`` and ``own`` draw it:
    what they never show put to one value (Torii's: whose view it is), so that two views that
    differ only there are one picture (``render.replays.picture_of``); None: the view itself."""

    game: str
    board: Callable[[V, StatusFields], bytes]
    own: Callable[[V, StatusFields, MarkFields | None], bytes]
    views: Callable[[str], Sequence[V]]
    frame: Callable[[V, StatusInfo], Image.Image]
    coordinates: Callable[[Words], bytes]
    cells: Callable[[V], dict[str, Cell]]
    turned: Turned[V] | None = None
    seen: Callable[[V], V] | None = None


# Any: each drawing takes its own game's views, and a look-up by game id matches them.
_DRAWINGS: dict[str, Drawing[Any]] = {}
_found = threading.Event()
_finding = threading.Lock()


def register(drawing: Drawing[Any]) -> None:
    """A game's drawing, by its game's id (a later one replaces an earlier)."""
    _DRAWINGS[drawing.game] = drawing


def drawing_of(game: str) -> Drawing[Any]:
    """The drawing of ``game``: its own, else the generic one (ValueError for a game the
    registry does not know)."""
    _find_packages()
    found = _DRAWINGS.get(game)
    if found is not None:
        return found
    game_type(game)  # a game of the registry
    return Drawing(
        game,
        generic.board_png,
        generic.own_png,
        generic.views_from_record,
        generic.board_image,
        functools.partial(generic.coordinates_png, game),
        generic.cells,
        Turned(generic.turned_board_png, generic.turned_own_png, generic.turned_cells),
    )


def _find_packages() -> None:
    """Import every drawing package under ``render/`` once (each registers its drawing)."""
    if _found.is_set():
        return
    with _finding:
        if not _found.is_set():
            render = importlib.import_module(__name__.rpartition(".")[0])
            for module in pkgutil.iter_modules(render.__path__):
                if module.ispkg:
                    importlib.import_module(f"{render.__name__}.{module.name}")
            _found.set()
