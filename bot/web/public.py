"""The match page's routes, open to anyone: the page itself, its state as JSON, the board
picture now or after any turn of the replay, the record download and the live events.
Everything here comes from the public view (``view_for(None)``) alone, in the language of
the match's server (the browser's for a match in a direct message, or no match)."""

from __future__ import annotations

import re

from aiohttp import web

from bot.app.board_memo import Kept
from bot.app.boards import NoSuchPicture
from bot.i18n import _
from bot.service import Refused

from .guard import LANGUAGE, NO_STORE, Refusal, flip_of, speaking_to, state_body
from .site import Site

MATCH = re.compile(r"[1-9][0-9]{0,17}")
TURN = re.compile(r"0|[1-9][0-9]{0,5}")
# a finished turn's picture, at the address naming the record it is drawn from (``v``): a
# takeback changes what a finished turn shows, and so that address
FINISHED_TURN = "public, max-age=86400, immutable"
# the board now, at the address naming what it is drawn from (``v``); a page a moment behind
# asks the old address for it, which a takeback may name again: that answer is kept nowhere
NOW = "public, max-age=60"


def match_of(request: web.Request) -> int:
    text = request.match_info["match"]
    if not MATCH.fullmatch(text):
        raise Refusal(404, no_match())
    return int(text)


def turn_of(request: web.Request) -> int | None:
    """The finished turn a replay's request asks for (None: the board now)."""
    text = request.query.get("turn")
    if text is None:
        return None
    if not TURN.fullmatch(text):
        raise Refusal(400, _("turn is the number of a finished turn (0: the start)."))
    return int(text)


def no_match() -> str:
    return _("There is no such match.")


class Public:
    def __init__(self, site: Site) -> None:
        self.site = site

    def routes(self) -> list[web.RouteDef]:
        return [
            web.get("/m/{match}", self.page),
            web.get("/api/m/{match}", self.state),
            web.get("/api/m/{match}/board.png", self.board),
            web.get("/api/m/{match}/squares", self.squares),
            web.get("/api/m/{match}/record", self.record),
            web.get("/api/m/{match}/events", self.events),
        ]

    async def _read(self, request: web.Request) -> int:
        """The match the request is about, once the reader's allowance (their address's, or
        their Discord user's: ``Site.counted_as``) allows it; the request is answered in
        its page's language from here on."""
        self.site.limits.take("reads", self.site.counted_as(request))
        match = match_of(request)
        request[LANGUAGE] = await self.site.boards.page_language(match, None, request[LANGUAGE])
        return match

    async def page(self, request: web.Request) -> web.StreamResponse:
        """The match page's shell; for a match there is not, with 404 (its script says
        there is no such match, and follows nothing)."""
        match = await self._read(request)
        answer = self.site.shell("match.html", request[LANGUAGE])
        if not await self.site.boards.hosts(match):
            answer.set_status(404)
        return answer

    async def state(self, request: web.Request) -> web.Response:
        match = await self._read(request)
        with speaking_to(request, request[LANGUAGE]):
            return state_body(await self._public(match, request[LANGUAGE]))

    async def _public(self, match: int, fallback: str) -> Kept:
        try:
            return await self.site.boards.public_kept(match, fallback)
        except Refused:
            raise Refusal(404, no_match()) from None

    async def board(self, request: web.Request) -> web.Response:
        match = await self._read(request)
        with speaking_to(request, request[LANGUAGE]):
            png, caching = await self._png(request, match)
        answer = web.Response(body=png, content_type="image/png")
        answer.headers["Cache-Control"] = caching
        # kept by caches, and in the reader's language where the match has no server: the
        # only answers both (the others that follow the language are never kept)
        answer.headers["Vary"] = "Accept-Language"
        return answer

    async def _png(self, request: web.Request, match: int) -> tuple[bytes, str]:
        """The picture asked for, and how long it may be kept: only at the address of what
        it was drawn from (a replay's for good), an older address's nowhere."""
        flip, turn = flip_of(request), turn_of(request)
        boards, language = self.site.boards, request[LANGUAGE]
        try:
            version: str | None
            if turn is None:
                png, version = await boards.public_png(match, flip, language)
                kept = NOW
            else:
                png, version = await boards.replay_png(match, turn, flip, language)
                kept = FINISHED_TURN
        except NoSuchPicture as exc:
            raise Refusal(404, exc.message) from None
        except Refused:
            raise Refusal(404, no_match()) from None
        return png, kept if request.query.get("v") == version else NO_STORE

    async def squares(self, request: web.Request) -> web.Response:
        """The replay picture's squares for a screen reader (``replay_squares``), kept as
        that picture is: for good only at the address naming its record."""
        match, turn = await self._read(request), turn_of(request)
        if turn is None:
            raise Refusal(400, _("turn is the number of a finished turn (0: the start)."))
        boards = self.site.boards
        try:
            with speaking_to(request, request[LANGUAGE]):
                body, version = await boards.replay_squares(
                    match, turn, flip_of(request), request[LANGUAGE]
                )
        except NoSuchPicture as exc:
            raise Refusal(404, exc.message) from None
        except Refused:
            raise Refusal(404, no_match()) from None
        answer = web.json_response(body)
        answer.headers["Cache-Control"] = (
            FINISHED_TURN if request.query.get("v") == version else NO_STORE
        )
        answer.headers["Vary"] = "Accept-Language"
        return answer

    async def record(self, request: web.Request) -> web.Response:
        match = await self._read(request)
        try:
            with speaking_to(request, request[LANGUAGE]):
                name, text = await self.site.boards.record(match)
        except Refused as exc:  # no such match, or no game: the service's words say which
            raise Refusal(404, exc.message) from None
        answer = web.Response(text=text, content_type="text/plain", charset="utf-8")
        answer.headers["Content-Disposition"] = f'attachment; filename="{name}"'
        answer.headers["Cache-Control"] = NO_STORE
        return answer

    async def events(self, request: web.Request) -> web.StreamResponse:
        match = await self._read(request)
        with speaking_to(request, request[LANGUAGE]):
            await self._public(match, request[LANGUAGE])  # 404 for a match there is not
            return await self.site.stream(request, (match, None))
