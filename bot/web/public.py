"""The match page's routes, open to anyone: the page itself, its state as JSON, the board
picture now or after any turn of the replay, the record download and the live events.
Everything here comes from the public view (``view_for(None)``) alone."""

from __future__ import annotations

import re

from aiohttp import web

from bot.app.board_memo import Kept
from bot.app.boards import NoSuchPicture
from bot.service import Refused

from .guard import NO_STORE, Refusal, address, state_body
from .site import Site

MATCH = re.compile(r"[1-9][0-9]{0,17}")
TURN = re.compile(r"0|[1-9][0-9]{0,5}")
NO_MATCH = "There is no such match."
FINISHED_TURN = "public, max-age=86400, immutable"  # a finished turn's picture never changes
NOW = "public, max-age=60"  # the board now: its address carries a digest of the picture


def match_of(request: web.Request) -> int:
    text = request.match_info["match"]
    if not MATCH.fullmatch(text):
        raise Refusal(404, NO_MATCH)
    return int(text)


def flip_of(request: web.Request) -> bool:
    flip = request.query.get("flip", "0")
    if flip not in ("0", "1"):
        raise Refusal(400, "flip is 0 or 1.")
    return flip == "1"


class Public:
    def __init__(self, site: Site) -> None:
        self.site = site

    def routes(self) -> list[web.RouteDef]:
        return [
            web.get("/m/{match}", self.page),
            web.get("/api/m/{match}", self.state),
            web.get("/api/m/{match}/board.png", self.board),
            web.get("/api/m/{match}/record", self.record),
            web.get("/api/m/{match}/events", self.events),
        ]

    def _read(self, request: web.Request) -> None:
        self.site.limits.take("reads", address(request))

    async def page(self, request: web.Request) -> web.StreamResponse:
        self._read(request)
        match_of(request)
        return self.site.shell("match.html")

    async def state(self, request: web.Request) -> web.Response:
        self._read(request)
        return state_body(await self._public(match_of(request)))

    async def _public(self, match: int) -> Kept:
        try:
            return await self.site.boards.public_kept(match)
        except Refused:
            raise Refusal(404, NO_MATCH) from None

    async def board(self, request: web.Request) -> web.Response:
        self._read(request)
        match, flip = match_of(request), flip_of(request)
        turn_text = request.query.get("turn")
        if turn_text is not None and not TURN.fullmatch(turn_text):
            raise Refusal(400, "turn is the number of a finished turn (0: the start).")
        turn = None if turn_text is None else int(turn_text)
        try:
            png = await self.site.boards.public_png(match, turn, flip)
        except NoSuchPicture as exc:
            raise Refusal(404, exc.message) from None
        except Refused:
            raise Refusal(404, NO_MATCH) from None
        answer = web.Response(body=png, content_type="image/png")
        answer.headers["Cache-Control"] = NOW if turn is None else FINISHED_TURN
        return answer

    async def record(self, request: web.Request) -> web.Response:
        self._read(request)
        match = match_of(request)
        try:
            name, text = await self.site.boards.record(match)
        except Refused:
            raise Refusal(404, NO_MATCH) from None
        answer = web.Response(text=text, content_type="text/plain", charset="utf-8")
        answer.headers["Content-Disposition"] = f'attachment; filename="{name}"'
        answer.headers["Cache-Control"] = NO_STORE
        return answer

    async def events(self, request: web.Request) -> web.StreamResponse:
        self._read(request)
        match = match_of(request)
        await self._public(match)  # 404 for a match there is not
        return await self.site.stream(request, (match, None))
