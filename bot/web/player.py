"""The player page's routes, reached with a private link: the token travels in the
Authorization header (``Bearer <token>``; the page keeps it in the address's fragment, which
browsers never send), never in a path or a query. The player's own state and board, their
live events, and their actions, each with the turn stamp the page showed."""

from __future__ import annotations

import re
from typing import Any

from aiohttp import web

from bot.app.board_memo import Kept
from bot.app.links import LinkRefused
from bot.app.seats import MOST_NOTATION, VERBS, Request, Seat, check
from bot.service import NotAllowed, Refused
from bot.service.drafting import STEPS

from .guard import NO_STORE, Refusal, address, body_of, field_of, state_body
from .site import Site

BEARER = re.compile(r"Bearer ([A-Za-z0-9_-]{1,200})")
NO_LINK = (
    "This page needs your private link: open the board from Discord (Play, or your turn's message)."
)
PICK = re.compile(r"[^\x00-\x1f]{1,20}")
STAMP_DIGITS = 6


class Player:
    def __init__(self, site: Site) -> None:
        self.site = site

    def routes(self) -> list[web.RouteDef]:
        return [
            web.get("/play", self.page),
            web.get("/api/me", self.state),
            web.get("/api/me/board.png", self.board),
            web.get("/api/me/events", self.events),
            web.get("/api/me/warnings", self.warnings),
            web.post("/api/me/plan", self.plan),
            web.post("/api/me/{verb}", self.act),
        ]

    async def page(self, request: web.Request) -> web.StreamResponse:
        self.site.limits.take("reads", address(request))
        return self.site.shell("play.html")

    async def seat(self, request: web.Request, kind: str) -> tuple[Seat, str]:
        """The seat the request's token stands for (401 when it stands for none), once
        both the address's and the token's allowances of ``kind`` allow it."""
        self.site.limits.take(kind, address(request))
        found = BEARER.fullmatch(request.headers.get("Authorization", ""))
        if found is None:
            raise Refusal(401, NO_LINK)
        token = found.group(1)
        try:
            match, side = await self.site.links.check(token)
        except LinkRefused as exc:
            raise Refusal(401, exc.message, {"ended": exc.ended}) from None
        self.site.limits.take(kind, f"link:{match}:{side.letter}")
        return Seat(match, side), token

    async def _mine(self, seat: Seat) -> Kept:
        try:
            return await self.site.boards.mine_kept(seat.match, seat.side)
        except NotAllowed as exc:  # the match ended meanwhile
            raise Refusal(401, exc.message, {"ended": True}) from None

    async def state(self, request: web.Request) -> web.Response:
        seat, _token = await self.seat(request, "reads")
        return state_body(await self._mine(seat))

    async def board(self, request: web.Request) -> web.Response:
        seat, _token = await self.seat(request, "reads")
        flip = request.query.get("flip", "0")
        if flip not in ("0", "1"):
            raise Refusal(400, "flip is 0 or 1.")
        pick = request.query.get("pick")
        if pick is not None and not PICK.fullmatch(pick):
            raise Refusal(400, "pick is a piece's group key, 1 to 20 characters.")
        try:
            png = await self.site.boards.own_png(seat.match, seat.side, pick, flip == "1")
        except NotAllowed as exc:
            raise Refusal(401, exc.message, {"ended": True}) from None
        answer = web.Response(body=png, content_type="image/png")
        answer.headers["Cache-Control"] = NO_STORE
        return answer

    async def warnings(self, request: web.Request) -> web.Response:
        """``?group=KEY``: the warnings of a picked piece's actions, by notation."""
        seat, _token = await self.seat(request, "reads")
        group = request.query.get("group", "")
        if not PICK.fullmatch(group):
            raise Refusal(400, "group is a piece's group key, 1 to 20 characters.")
        try:
            found = await self.site.boards.warnings(seat.match, seat.side, group)
        except NotAllowed as exc:
            raise Refusal(409, exc.message) from None
        return private_json(found)

    async def events(self, request: web.Request) -> web.StreamResponse:
        seat, _token = await self.seat(request, "reads")
        return await self.site.stream(request, (seat.match, seat.side))

    async def plan(self, request: web.Request) -> web.Response:
        """The plan mode (a reply planned while the opponent's turn runs): the body has the
        turn's ``stamp`` and at most one of ``pick`` (an action's notation), ``step``
        (``new``, ``done``, ``undo``, ``save``) and ``group`` (a piece whose actions to
        list); it answers the draft as it is then."""
        seat, _token = await self.seat(request, "actions")
        body = await body_of(request)
        stamp = field_of(body, "stamp", int, STAMP_DIGITS)
        given = [name for name in ("pick", "step", "group") if name in body]
        if len(given) > 1:
            raise Refusal(400, "Send at most one of pick, step and group.")
        asked: dict[str, str] = {}
        if "pick" in body:
            asked["pick"] = field_of(body, "pick", str, MOST_NOTATION)
        if "step" in body:
            asked["step"] = field_of(body, "step", str, 10)
            if asked["step"] not in STEPS:
                raise Refusal(400, "A step is one of " + ", ".join(STEPS) + ".")
        if "group" in body:
            asked["group"] = field_of(body, "group", str, 20)
            if not PICK.fullmatch(asked["group"]):
                raise Refusal(400, "group is a piece's group key, 1 to 20 characters.")
        return private_json(await self.site.seats.plan(seat, stamp, asked))

    async def act(self, request: web.Request) -> web.Response:
        verb = request.match_info["verb"]
        if verb not in VERBS:
            raise Refusal(404, "There is no such action; the actions are " + ", ".join(VERBS))
        seat, _token = await self.seat(request, "actions")
        body = await body_of(request)
        stamp = field_of(body, "stamp", int, STAMP_DIGITS)
        asked = Request(verb[:20], stamp)
        if verb == "act":
            asked = Request(verb, stamp, notation=field_of(body, "notation", str, MOST_NOTATION))
        elif verb == "answer":
            kind = field_of(body, "kind", str, 10)
            asked = Request(verb, stamp, kind=kind, yes=field_of(body, "yes", bool))
        elif verb == "setup":
            asked = Request(verb, stamp, answers=answers_of(body))
        try:
            check(asked)
        except Refused as exc:
            raise Refusal(400, exc.message) from None
        return state_body(await self.site.seats.act(seat, asked))


def answers_of(body: dict[str, Any]) -> dict[str, str]:
    answers = body.get("answers")
    if not isinstance(answers, dict) or not all(isinstance(v, str) for v in answers.values()):
        raise Refusal(400, 'answers is an object of texts: {"strategy": "aggressive"}.')
    return answers


def private_json(state: dict[str, Any]) -> web.Response:
    answer = web.json_response(state)
    answer.headers["Cache-Control"] = NO_STORE
    return answer
