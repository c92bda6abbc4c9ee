"""What every request to the web board passes: the security headers on every answer (a
strict Content Security Policy, no sniffing, no Referer, no framing, no software's
version), ``no-store`` on JSON and private answers, refusals as JSON with the status that
says what was wrong, rate limits per private link and per client address (per Discord user
for a signed-in Activity's page: ``Site.counted_as``), bodies of at most 4 KiB (arrived
within ``BODY_SECONDS``) parsed into bounded fields, and an access log that never holds a
token (only the method, the path and the status: a token travels in the Authorization
header, never in a path or query).

Every refusal is in the language of whoever reads it: a player's (their private link or
Activity sign-in says who they are: ``speaking_to``), a public page's server's, else the
browser's ``Accept-Language`` (``accepted_language``)."""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import math
import re
import time
from collections.abc import Awaitable, Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any

from aiohttp import StreamReader, web
from aiohttp.abc import AbstractAccessLogger

from bot.app.answers import failure_text, sentence
from bot.app.board_memo import Kept
from bot.i18n import N_, SOURCE, _, from_discord, ngettext, speaking
from bot.service import DatabaseUnavailable, RateLimited, Refused, StaleRequest
from bot.service.errors import UNAVAILABLE
from bot.service.ratelimit import RateLimit

from .forwarded import NO_PROXIES, Proxies

log = logging.getLogger("bot.web")

MOST_BODY = 4096  # bytes of a request body
# seconds for a request's body to arrive whole: the idle timeout spares a request under way,
# so a client that announced a body and never sent it held its connection for good
BODY_SECONDS = 10.0
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    # aiohttp's own names Python's and its versions: which known flaws to try, for anyone
    "Server": "tora-bot",
}
DISCORD_ORIGINS = ("https://discord.com", "https://ptb.discord.com", "https://canary.discord.com")
FRAMED = web.RequestKey("framed_by", dict[str, str])  # the headers of a page Discord frames
LANGUAGE = web.RequestKey("language", str)  # the language a request is answered in
LANGUAGE_TAG = re.compile(r"[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8}){0,3}")
MOST_LANGUAGES = 20  # of an Accept-Language header's, the first read


def framed_headers(client_id: int) -> dict[str, str]:
    """The headers of the Activity's page: as every page's, but framed by Discord's clients
    and the application's own proxy origin (``<client id>.discordsays.com``, where Discord
    serves the Activity) only. The SDK talks to Discord by ``postMessage``: it needs nothing
    more of the policy."""
    ancestors = " ".join((*DISCORD_ORIGINS, f"https://{client_id}.discordsays.com"))
    policy = CSP.replace("frame-ancestors 'none'", f"frame-ancestors {ancestors}")
    framed = {key: value for key, value in HEADERS.items() if key != "X-Frame-Options"}
    return framed | {"Content-Security-Policy": policy}


NO_STORE = "no-store"
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class Refusal(Exception):
    """A request refused with ``status`` and a message for the person who made it;
    ``extra`` fields go into the JSON answer beside ``error``, ``headers`` with it."""

    def __init__(
        self,
        status: int,
        message: str,
        extra: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status, self.message = status, message
        self.extra = extra or {}
        self.headers = headers or {}


def refusal_json(status: int, message: str, extra: dict[str, Any] | None = None) -> web.Response:
    body = {"error": message} | (extra or {})
    answer = web.json_response(body, status=status)
    answer.headers["Cache-Control"] = NO_STORE
    return answer


def state_body(kept: Kept) -> web.Response:
    """A state's JSON as it was encoded once for every page that reads it."""
    answer = web.Response(body=kept.body, content_type="application/json")
    answer.headers["Cache-Control"] = NO_STORE
    return answer


def rate_limited(exc: RateLimited) -> Refusal:
    wait = str(max(1, math.ceil(exc.retry_after)))
    return Refusal(429, exc.message, headers={"Retry-After": wait})


@web.middleware
async def guard(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Refusals and failures as JSON, in the reader's language, and the security headers
    on every answer."""
    request[LANGUAGE] = accepted_language(request.headers.get("Accept-Language"))
    with speaking(request[LANGUAGE]):
        try:
            answer = await handler(request)
        except Exception as exc:
            with speaking(request[LANGUAGE]):  # the player's, once the handler knew them
                answer = _refused(request, exc)
    if not answer.prepared:  # an event stream set its headers before it began
        answer.headers.update(request.get(FRAMED) or HEADERS)
    return answer


def _refused(request: web.Request, exc: Exception) -> web.Response:
    """The JSON answer to a request that raised ``exc`` (raised again if it is not a
    refusal nor a failure: an aiohttp redirect)."""
    if _nowhere(request, exc):
        answer = request.app[NOWHERE](request[LANGUAGE])
    elif isinstance(exc, Refusal):
        answer = refusal_json(exc.status, exc.message, exc.extra)
        answer.headers.update(exc.headers)
    elif isinstance(exc, RateLimited):
        refused = rate_limited(exc)
        answer = refusal_json(429, refused.message)
        answer.headers.update(refused.headers)
    elif isinstance(exc, StaleRequest):
        answer = refusal_json(409, exc.message, {"stale": True})
    elif isinstance(exc, Refused):  # the rules' or the service's: said as they say it
        answer = refusal_json(409, sentence(exc.message))
    elif isinstance(exc, DatabaseUnavailable):
        answer = refusal_json(503, _(UNAVAILABLE))
    elif isinstance(exc, web.HTTPException) and exc.status >= 400:
        answer = refusal_json(exc.status, _http_words(exc))
    elif isinstance(exc, web.HTTPException):
        raise exc
    else:
        ref = f"{time.time_ns() // 1000 % 10**9:09d}"
        log.exception("a web request failed", extra={"ref": ref, "path": request.path})
        answer = refusal_json(500, failure_text(ref))
    return answer


def _nowhere(request: web.Request, exc: Exception) -> bool:
    """Whether ``exc`` says there is nothing at the address a browser opened (no route, a
    match's or a file's name mistyped): answered with a page, not JSON."""
    found = isinstance(exc, (Refusal, web.HTTPNotFound)) and exc.status == 404
    return found and browsing(request) and NOWHERE in request.app


def browsing(request: web.Request) -> bool:
    """Whether ``request`` is a browser opening an address (a mistyped one, a link cut
    short), which shows the answer as a page, rather than a script asking the API, which
    reads it as JSON."""
    html = "text/html" in request.headers.get("Accept", "")
    return html and request.method == "GET" and not request.path.startswith("/api/")


def speaking_to(request: web.Request, language: str) -> AbstractContextManager[str]:
    """Answer ``request`` in ``language`` from here on (its reader is known now): the
    texts made inside, and the refusal the guard makes of what it raises."""
    request[LANGUAGE] = language
    return speaking(language)


def accepted_language(header: str | None) -> str:
    """The shipped language a browser's ``Accept-Language`` prefers most (the first of
    those of equal weight), English when it names none."""
    found: list[tuple[float, int, str]] = []
    for place, item in enumerate((header or "")[:500].split(",")[:MOST_LANGUAGES]):
        name, _semicolon, weight = item.strip().partition(";")
        try:
            q = float(weight.strip().removeprefix("q=")) if weight else 1.0
        except ValueError:
            continue
        if not LANGUAGE_TAG.fullmatch(name) or not 0 < q <= 1:
            continue
        code = from_discord(name)
        if code != SOURCE or name.split("-")[0].lower() == SOURCE:
            found.append((-q, place, code))
    return min(found)[2] if found else SOURCE


def _http_words(exc: web.HTTPException) -> str:
    """aiohttp's own refusals (no such route, a method not allowed, a body too large) in
    words."""
    if exc.status == 404:
        return _("There is nothing at this address.")
    if exc.status == 405:
        return _("This address does not take that method.")
    if exc.status == 413:
        return too_large()
    return _("The request was refused.")


def too_large() -> str:
    return _("The request's body is over {most} bytes.", most=MOST_BODY)


# ---- rate limits ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Allowance:
    """A token bucket's terms: ``burst`` at once, then one every ``every`` seconds."""

    burst: int
    every: float


@dataclass
class Limits:
    """The web board's allowances: the pages' fixed files (``files``: the player page's
    shell, the Activity's, ``static/``), reads (pages, states, pictures, streams) and actions,
    each per private link and per client address, or per Discord user instead of per
    address for a signed-in Activity's page (``Site.counted_as``); an Activity's sign-ins
    per Discord user (``sessions``) and per client address (``sign_ins``)."""

    reads: Allowance = Allowance(120, 0.05)
    # the pages' fixed files (the shells, static/): an Activity's users all fetch them from
    # Discord's proxy's few addresses before any pass, so a channel's crowd must not spend reads
    files: Allowance = Allowance(2000, 0.005)
    actions: Allowance = Allowance(20, 0.2)
    sessions: Allowance = Allowance(5, 12.0)  # a Discord user's sign-ins: each asks Discord thrice
    # an address's sign-ins: Discord's proxy hides its users' addresses, so every user of the
    # Activity shares its few: this bounds only a flood (each sign-in asks Discord), never a
    # busy hour's users (a tournament round opening the board across servers)
    sign_ins: Allowance = Allowance(300, 0.2)
    streams: int = 8  # open event streams per client address (or an Activity's user)
    clock: Callable[[], float] = time.monotonic
    _buckets: dict[str, RateLimit] = field(default_factory=dict)

    def take(self, kind: str, key: str) -> None:
        """Spend one of ``key``'s ``kind`` (an allowance's name); RateLimited if none
        is left (nothing is done then)."""
        bucket = self._buckets.get(kind)
        if bucket is None:
            allowance: Allowance = getattr(self, kind)
            doing = DOING[kind]
            bucket = self._buckets[kind] = RateLimit(allowance.burst, allowance.every, doing)
        bucket.take(key, self.clock())


DOING = {
    "files": N_("asking faster than the board answers"),
    "reads": N_("asking faster than the board answers"),
    "actions": N_("acting faster than the board takes actions"),
    "sessions": N_("signing in to the board faster than Discord allows"),
}
DOING["sign_ins"] = DOING["sessions"]
PROXIES = web.AppKey("proxies", Proxies)  # the application's trusted reverse proxies
# the page of an address with nothing, in a language (``Site.missing``)
NOWHERE: web.AppKey[Callable[[str], web.Response]] = web.AppKey("nowhere")


def address(request: web.Request) -> str:
    """Who the client is, for the per-address limits: its address (the peer's, or behind
    trusted reverse proxies the right-most address in ``X-Forwarded-For`` that is not one
    of them: docs/DEPLOY.md), an IPv6 one as its /64 (``client_network``)."""
    proxies = request.app.get(PROXIES, NO_PROXIES)
    client = proxies.client(request.remote, request.headers.getall("X-Forwarded-For", ()))
    return f"ip:{client_network(client)}"


def client_network(client: str | None) -> str:
    """What one client is known by: an IPv4 address (an IPv4-mapped IPv6 one too) as
    itself, an IPv6 address as its /64, the least a network hands one subscriber, who can
    take any address in it: counted apart, each would bring a fresh allowance."""
    try:
        found = ipaddress.ip_address(client or "")
    except ValueError:
        return client or "?"
    if isinstance(found, ipaddress.IPv6Address):
        if found.ipv4_mapped is not None:
            return str(found.ipv4_mapped)
        return str(ipaddress.IPv6Network((int(found), 64), strict=False))
    return str(found)


# ---- bodies ----------------------------------------------------------------------------------
async def body_of(request: web.Request) -> dict[str, Any]:
    """The request's JSON object, at most ``MOST_BODY`` bytes (413 beyond; 400 for
    anything but a JSON object; 408 when it has not arrived within ``BODY_SECONDS``)."""
    length = request.content_length
    if length is not None and length > MOST_BODY:
        raise Refusal(413, too_large())
    try:
        async with asyncio.timeout(BODY_SECONDS):
            data = await read_most(request.content, MOST_BODY)
    except TimeoutError:
        raise Refusal(408, _("The request's body did not arrive in time.")) from None
    return parse_body(data)


async def read_most(stream: StreamReader, most: int) -> bytes:
    """What ``stream`` holds to its end, or its first ``most`` + 1 bytes when it holds more
    (for the caller to refuse by its length). ``StreamReader.read(n)`` gives only what has
    arrived, so one read cut short a body the network had split."""
    data = bytearray()
    while len(data) <= most:
        chunk = await stream.read(most + 1 - len(data))
        if not chunk:
            break
        data += chunk
    return bytes(data)


def parse_body(data: bytes) -> dict[str, Any]:
    """``data`` as a JSON object: Refusal (413, 400) for anything else, never another
    error."""
    if len(data) > MOST_BODY:
        raise Refusal(413, too_large())
    try:
        body = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise Refusal(400, _("The request's body is not JSON.")) from None
    if not isinstance(body, dict):
        raise Refusal(
            400,
            _("The request's body is a JSON object, such as {example}.", example='{"stamp": 3}'),
        )
    return body


def flip_of(request: web.Request) -> bool:
    """Whether a board picture is asked for turned round (``flip``: 0 or 1)."""
    flip = request.query.get("flip", "0")
    if flip not in ("0", "1"):
        raise Refusal(400, _("flip is 0 or 1."))
    return flip == "1"


def field_of(body: dict[str, Any], name: str, kind: type, most: int = 0) -> Any:
    """``body[name]``, of type ``kind`` (a string of at most ``most`` characters, an
    integer of at most ``most`` digits), or a 400 saying what is wanted."""
    value = body.get(name)
    if kind is bool:
        if not isinstance(value, bool):
            raise Refusal(400, _("{name} is true or false.", name=repr(name)))
        return value
    if kind is int:
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 10**most:
            raise Refusal(
                400,
                ngettext(
                    "{name} is a whole number of at most {n} digit.",
                    "{name} is a whole number of at most {n} digits.",
                    most,
                    name=repr(name),
                ),
            )
        return value
    if not isinstance(value, str) or len(value) > most:
        raise Refusal(
            400,
            ngettext(
                "{name} is text of at most {n} character.",
                "{name} is text of at most {n} characters.",
                most,
                name=repr(name),
            ),
        )
    return value


# ---- the access log ---------------------------------------------------------------------
class AccessLog(AbstractAccessLogger):
    """One line per request: method, path (never the query string, the headers, the
    Referer), status and time taken."""

    def log(self, request: web.BaseRequest, response: web.StreamResponse, time: float) -> None:
        self.logger.info(
            "%s %s %d %.1f ms",
            request.method,
            request.path[:200],
            response.status,
            time * 1000,
        )
