"""What the web board's routes share: the application layer's boards and seats, the private
links, the live events' hub, the rate limits, and the pages' files (``static/``: one HTML
shell per kind of page, its script and style; nothing from elsewhere)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from aiohttp import web

from bot.app.boards import Boards
from bot.app.links import Links
from bot.app.seats import Seats

from .events import Audience, Hub
from .guard import Limits, Refusal, address

STATIC = Path(__file__).resolve().parent / "static"
FILE_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,40}\.(?:js|css|html|png|svg)")
TYPES = {
    ".js": "text/javascript",
    ".css": "text/css",
    ".html": "text/html",
    ".png": "image/png",
    ".svg": "image/svg+xml",
}
FILES_CACHE = "public, max-age=300"


@dataclass
class Site:
    boards: Boards
    seats: Seats
    links: Links
    hub: Hub
    limits: Limits
    static: Path = STATIC
    _open: dict[str, int] = field(default_factory=dict)  # streams open per address

    def shell(self, name: str) -> web.Response:
        """A page's HTML shell (its script reads what it shows from the address)."""
        answer = web.Response(body=(self.static / name).read_bytes(), content_type="text/html")
        answer.headers["Cache-Control"] = "no-store"
        return answer

    async def file(self, request: web.Request) -> web.Response:
        """``/static/<name>``: a file of the pages, by a plain name (no paths)."""
        self.limits.take("reads", address(request))
        name = request.match_info["name"]
        path = self.static / name
        if not FILE_NAME.fullmatch(name) or not path.is_file():
            raise Refusal(404, "There is no such file.")
        answer = web.Response(body=path.read_bytes(), content_type=TYPES[path.suffix])
        answer.headers["Cache-Control"] = FILES_CACHE
        return answer

    async def stream(self, request: web.Request, audience: Audience) -> web.StreamResponse:
        """An event stream for ``audience``, a few at a time per client address."""
        where = address(request)
        if self._open.get(where, 0) >= self.limits.streams:
            raise Refusal(
                429,
                f"Up to {self.limits.streams} live boards are followed at once from one "
                "address; close one and try again.",
                headers={"Retry-After": "10"},
            )
        self._open[where] = self._open.get(where, 0) + 1
        try:
            return await self.hub.serve(request, audience)
        finally:
            self._open[where] -= 1
            if not self._open[where]:
                del self._open[where]
