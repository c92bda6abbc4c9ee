"""The match service's board images, drawn by ``render``: its PNGs behind the service's
``Renderer`` protocol (the service's ``Status`` is a status ``render`` accepts as is).

Images are cached by exactly what they are drawn from (the view, the status and the
language of the image's own words), so a board asked for again is not drawn again; a public
view holds nothing hidden, so whether an image comes from the cache tells nothing about
hidden state either. The service's drawing workers get a copy without a cache: they keep
what they drew by their jobs' bytes (``bot.service.offload.Kept``)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable, Sized
from typing import Any, Generic, TypeVar

from bot.i18n.words import Language
from bot.service import Pointing, Status
from render import Picture, StatusInfo, picture_of
from rules import GameView

IMAGE_CACHE = 16 * 1024 * 1024  # bytes of board images kept
S = TypeVar("S", bound=Sized)  # what a cache keeps: bytes, or what counts its bytes


class BytesCache(Generic[S]):
    """The most recently used results, up to ``most`` bytes in all (a result's ``len``), by
    a key that names exactly what they were made from (so a hit is the very same answer as a
    miss)."""

    def __init__(self, most: int) -> None:
        self.most = most
        self._items: OrderedDict[Hashable, S] = OrderedDict()
        self._size = 0
        self._lock = threading.Lock()  # images are drawn in worker threads

    def get(self, key: Hashable) -> S | None:
        with self._lock:
            data = self._items.get(key)
            if data is not None:
                self._items.move_to_end(key)
            return data

    def put(self, key: Hashable, data: S) -> None:
        if len(data) > self.most:
            return
        with self._lock:
            old = self._items.pop(key, None)
            self._size -= 0 if old is None else len(old)
            self._items[key] = data
            self._size += len(data)
            while self._size > self.most:
                _key, dropped = self._items.popitem(last=False)
                self._size -= len(dropped)


class PillowRenderer:
    def __init__(self, cache_bytes: int = IMAGE_CACHE) -> None:
        self._cache: BytesCache[bytes] = BytesCache(cache_bytes)

    def __reduce__(self) -> tuple[type[PillowRenderer], tuple[int]]:
        """A copy without a cache: what the service's drawing workers get
        (``bot.service.offload``), which keep the images they drew by their jobs' bytes."""
        return PillowRenderer, (0,)

    def board(self, view: GameView, status: Status, language: str = "en") -> bytes:
        return self._drawn(self.picture("board", view, status, language))

    def private(
        self, view: GameView, status: Status, marks: Pointing | None = None, language: str = "en"
    ) -> bytes:
        return self._drawn(self.picture("private", view, status, marks, language))

    def picture(self, method: str, *args: Any) -> Picture:
        """Exactly what ``method`` (``board`` or ``private``) draws of ``args``: equal
        pictures are the same image, so the service draws them once for all they are for
        (``bot.service.offload``: a Torii turn's end, the public board and the next player's
        own). A player's own picture that may show anything the public one does not is never
        equal to it (``render.picture_of``)."""
        if method == "board":
            return _board_picture(*args)
        if method == "private":
            return _own_picture(*args)
        raise ValueError(f"no picture {method!r}")

    def _drawn(self, picture: Picture) -> bytes:
        if not self._cache.most:
            return picture.png()
        key = (picture.draw, repr(picture.view), picture.info, picture.marks, picture.own)
        data = self._cache.get(key)
        if data is None:
            data = picture.png()
            self._cache.put(key, data)
        return data


def _board_picture(view: GameView, status: Status, language: str = "en") -> Picture:
    return picture_of(view, worded(status, language))


def _own_picture(
    view: GameView, status: Status, marks: Pointing | None = None, language: str = "en"
) -> Picture:
    return picture_of(view, worded(status, language), marks, own=True)


def worded(status: Status, language: str) -> StatusInfo:
    """What ``render`` draws beside a view: the service's ``status``, its words in
    ``language`` (a code: the drawing worker makes its ``Language`` itself)."""
    return StatusInfo(
        status.challenger, status.opposition, status.deadline, status.headline, Language(language)
    )
