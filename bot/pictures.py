"""The match service's board images, drawn by ``render``: its PNGs behind the service's
``Renderer`` protocol (the service's ``Status`` is a status ``render`` accepts as is)."""

from __future__ import annotations

from render import board_png, private_png
from rules.view import View

from .service import Status


class PillowRenderer:
    def board(self, view: View, status: Status) -> bytes:
        return board_png(view, status)

    def private(self, view: View, status: Status) -> bytes:
        return private_png(view, status)
