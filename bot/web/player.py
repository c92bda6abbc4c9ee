"""The player page's routes, reached with a private link: the token travels in the
Authorization header (``Bearer <token>``; the page keeps it in the address's fragment, which
browsers never send), never in a path or a query. The player's own state and board, their
live events, and their actions, each with the turn stamp the page showed. Once the token
says who the player is, everything is answered in their language (refusals too); before,
in the browser's."""

from __future__ import annotations

import re
from typing import Any

from aiohttp import web

from bot.app.board_memo import Kept
from bot.app.links import LinkRefused
from bot.app.seats import MOST_NOTATION, VERBS, Request, Seat, check
from bot.i18n import _
from bot.service import NotAllowed, Refused
from bot.service.drafting import STEPS

from .guard import (
    LANGUAGE,
    NO_STORE,
    Refusal,
    body_of,
    field_of,
    flip_of,
    speaking_to,
    state_body,
)
from .site import Site

BEARER = re.compile(r"Bearer ([A-Za-z0-9_-]{1,200})")
PICK = re.compile(r"[^\x00-\x1f]{1,20}")
CANCEL = re.compile(r"[0-9]{1,2}:[0-9a-f]{8}")  # a listed plan's, ``planning.cancelled``
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
        self.site.limits.take("files", self.site.counted_as(request))  # a fixed shell
        return self.site.shell("play.html", request[LANGUAGE])  # the player is not known yet

    async def seat(self, request: web.Request, kind: str) -> tuple[Seat, str]:
        """The seat the request's token stands for (401 when it stands for none), once
        both the reader's (their address's, or an Activity's Discord user's:
        ``Site.counted_as``) and the token's allowances of ``kind`` allow it; and its
        player's language, the request's from here on (``speaking_to``)."""
        self.site.limits.take(kind, self.site.counted_as(request))
        try:
            match, side = await self.site.links.check(token_of(request))
        except LinkRefused as exc:
            raise Refusal(401, exc.message, {"ended": exc.ended}) from None
        language = await self.site.boards.page_language(match, side)
        self.site.limits.take(kind, f"link:{match}:{side.letter}")
        return Seat(match, side), language

    async def _mine(self, seat: Seat) -> Kept:
        try:
            return await self.site.boards.mine_kept(seat.match, seat.side)
        except NotAllowed as exc:  # the match ended meanwhile
            raise Refusal(401, exc.message, {"ended": True}) from None

    async def state(self, request: web.Request) -> web.Response:
        seat, language = await self.seat(request, "reads")
        with speaking_to(request, language):
            return state_body(await self._mine(seat))

    async def board(self, request: web.Request) -> web.Response:
        seat, language = await self.seat(request, "reads")
        with speaking_to(request, language):
            flip = flip_of(request)
            pick = request.query.get("pick")
            if pick is not None and not PICK.fullmatch(pick):
                raise Refusal(400, group_key("pick"))
            try:
                png = await self.site.boards.own_png(seat.match, seat.side, pick, flip)
            except NotAllowed as exc:
                raise Refusal(401, exc.message, {"ended": True}) from None
        answer = web.Response(body=png, content_type="image/png")
        answer.headers["Cache-Control"] = NO_STORE
        return answer

    async def warnings(self, request: web.Request) -> web.Response:
        """``?group=KEY``: the warnings of a picked piece's actions, by notation."""
        seat, language = await self.seat(request, "reads")
        with speaking_to(request, language):
            group = request.query.get("group", "")
            if not PICK.fullmatch(group):
                raise Refusal(400, group_key("group"))
            try:
                found = await self.site.boards.warnings(seat.match, seat.side, group)
            except NotAllowed as exc:
                raise Refusal(409, exc.message) from None
            return private_json(found)

    async def events(self, request: web.Request) -> web.StreamResponse:
        seat, language = await self.seat(request, "reads")
        token = token_of(request)

        async def holds() -> bool:
            """Whether the stream's link still opens its seat (not replaced since)."""
            try:
                return await self.site.links.check(token) == (seat.match, seat.side)
            except LinkRefused:
                return False

        with speaking_to(request, language):
            return await self.site.stream(request, (seat.match, seat.side), holds)

    async def plan(self, request: web.Request) -> web.Response:
        """The plan mode (a reply planned while the opponent's turn runs): the body has the
        turn's ``stamp`` and at most one of ``pick`` (an action's notation), ``step``
        (``new``, ``done``, ``undo``, ``save``), ``group`` (a piece whose actions to list)
        and ``cancel`` (a listed plan's value in ``cancels``, or its number); it answers the
        draft as it is then."""
        seat, language = await self.seat(request, "actions")
        with speaking_to(request, language):
            return private_json(await self.site.seats.plan(seat, *await plan_of(request)))

    async def act(self, request: web.Request) -> web.Response:
        verb = request.match_info["verb"]
        if verb not in VERBS:
            raise Refusal(
                404,
                _("There is no such action; the actions are {verbs}", verbs=", ".join(VERBS)),
            )
        seat, language = await self.seat(request, "actions")
        with speaking_to(request, language):
            return await self._act(request, verb, seat)

    async def _act(self, request: web.Request, verb: str, seat: Seat) -> web.Response:
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


def token_of(request: web.Request) -> str:
    """The private link's token the request carries (401 without one)."""
    found = BEARER.fullmatch(request.headers.get("Authorization", ""))
    if found is None:
        raise Refusal(
            401,
            _(
                "This page needs your private link: open the board from Discord (Play, "
                "or your turn's message)."
            ),
        )
    return found.group(1)


async def plan_of(request: web.Request) -> tuple[int, dict[str, str]]:
    """A plan request's turn stamp and its one step (a 400 saying what is wrong else)."""
    body = await body_of(request)
    stamp = field_of(body, "stamp", int, STAMP_DIGITS)
    given = [name for name in ("pick", "step", "group", "cancel") if name in body]
    if len(given) > 1:
        raise Refusal(400, _("Send at most one of pick, step, group and cancel."))
    asked: dict[str, str] = {}
    if "pick" in body:
        asked["pick"] = field_of(body, "pick", str, MOST_NOTATION)
    if "step" in body:
        asked["step"] = field_of(body, "step", str, 10)
        if asked["step"] not in STEPS:
            raise Refusal(400, _("A step is one of {steps}.", steps=", ".join(STEPS)))
    if "group" in body:
        asked["group"] = field_of(body, "group", str, 20)
        if not PICK.fullmatch(asked["group"]):
            raise Refusal(400, group_key("group"))
    if "cancel" in body:
        asked["cancel"] = _cancel_of(body)
    return stamp, asked


def _cancel_of(body: dict[str, Any]) -> str:
    """The plan to cancel: one of the state's ``cancels`` (its number and digest), or a
    plan's number as listed."""
    value = body["cancel"]
    if isinstance(value, str) and CANCEL.fullmatch(value):
        return value
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 100:
        return str(value)
    raise Refusal(400, _("cancel is a listed plan's number, or its value in cancels."))


def group_key(name: str) -> str:
    return _("{name} is a piece's group key, 1 to 20 characters.", name=name)


def answers_of(body: dict[str, Any]) -> dict[str, str]:
    answers = body.get("answers")
    if not isinstance(answers, dict) or not all(isinstance(v, str) for v in answers.values()):
        raise Refusal(
            400,
            _("answers is an object of texts: {example}.", example='{"strategy": "aggressive"}'),
        )
    return answers


def private_json(state: dict[str, Any]) -> web.Response:
    answer = web.json_response(state)
    answer.headers["Cache-Control"] = NO_STORE
    return answer
