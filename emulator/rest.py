"""The REST API's frame (one middleware for faults, auth, rate limits, errors and the
request log) and its small routes: gateway, users, the application, commands, members."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import NamedTuple

from aiohttp import web

from . import payloads
from .activities import Activities
from .commands import Commands
from .errors import (
    EMPTY_MESSAGE,
    INVALID_FORM_BODY,
    TOO_LARGE,
    UNKNOWN_APPLICATION,
    UNKNOWN_MEMBER,
    ApiError,
    json_response,
    not_found,
)
from .faults import VIA, Fault, Faults, RateLimits, bucket_hash, fault_response
from .gateway import Gateway
from .interactions import Interaction
from .world import World

API_PATH = re.compile(r"^/api/v\d+(/.*)$")
MAJOR_PARAMETERS = ("channel_id", "guild_id", "application_id", "interaction_id", "token")
UNAUTHENTICATED = ("/interactions/", "/webhooks/", "/oauth2/token")
BEARER_PATHS = ("/users/@me",)  # what an OAuth2 access token may read instead of the bot
# the refusals of a request as it is written, which the bot's delivery drops for good: past
# a limit (400 50035), a message with nothing in it (400 50006), an upload too large (413)
AS_WRITTEN = (INVALID_FORM_BODY, EMPTY_MESSAGE, TOO_LARGE)
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class RequestRecord(NamedTuple):
    method: str
    path: str
    status: int
    time: float


@dataclass
class Api:
    """What every handler needs; stored on the aiohttp application."""

    world: World
    gateway: Gateway
    commands: Commands
    token: str
    faults: Faults = field(default_factory=Faults)
    limits: RateLimits = field(default_factory=lambda: RateLimits(50, 1.0))
    callback_deadline: float = 3.0
    token_lifetime: float = 900.0
    log: list[RequestRecord] = field(default_factory=list)
    # "METHOD path: errors" of each request refused as written (``AS_WRITTEN``)
    malformed: list[str] = field(default_factory=list)
    tokens: dict[str, Interaction] = field(default_factory=dict)
    activities: Activities = field(default_factory=Activities)
    activities_enabled: bool = True  # the application has an Activity (the portal's switch)


API = web.AppKey("api", Api)


def api_of(request: web.Request) -> Api:
    return request.app[API]


@web.middleware
async def frame(request: web.Request, handler: Handler) -> web.StreamResponse:
    match = API_PATH.match(request.path)
    if match is None:
        return await handler(request)
    api = api_of(request)
    response = await _answer(api, request, match[1], handler)
    response.headers["Via"] = VIA  # discord.py retries a 429 only when it has one
    api.log.append(RequestRecord(request.method, match[1], response.status, time.monotonic()))
    return response


async def _answer(
    api: Api, request: web.Request, path: str, handler: Handler
) -> web.StreamResponse:
    route = _route_of(request, path)
    held = api.faults.take_stall(request.method, path)
    if held is not None and held.carried:
        response = await _answer(api, request, path, handler)  # carried out, answer held
        held.reached.set()
        await held.released.wait()
        return response
    if held is not None:
        held.reached.set()
        await held.released.wait()
        if request.transport is None or request.transport.is_closing():
            return no_content()  # nobody is listening: dropped, never carried out
    fault = api.faults.take(request.method, path)
    if fault is not None:
        return fault_response(fault, bucket_hash(route))
    authorization = request.headers.get("Authorization", "")
    bearer = path in BEARER_PATHS and authorization.startswith("Bearer ")
    if not (path.startswith(UNAUTHENTICATED) or bearer or authorization == f"Bot {api.token}"):
        return json_response({"message": "401: Unauthorized", "code": 0}, status=401)
    major = "+".join(str(request.match_info.get(k, "")) for k in MAJOR_PARAMETERS)
    headers, wait = api.limits.take(f"{route}|{major}")
    if wait is not None:
        return fault_response(
            Fault(request.method, re.compile(""), 429, wait, 1, False), bucket_hash(route)
        )
    try:
        response = await handler(request)
    except ApiError as error:
        if error.code in AS_WRITTEN:
            detail = json.dumps(error.errors) if error.errors else error.message
            api.malformed.append(f"{request.method} {path}: {detail}")
        response = json_response(error.body(), status=error.status)
    except web.HTTPException as error:
        body = {"message": f"{error.status}: {error.reason}", "code": 0}
        response = json_response(body, status=error.status)
    response.headers.update(headers)
    return response


def _route_of(request: web.Request, path: str) -> str:
    resource = request.match_info.route.resource
    return f"{request.method} {resource.canonical if resource is not None else path}"


def no_content() -> web.Response:
    return web.Response(status=204)


def snowflake(request: web.Request, name: str) -> int:
    value = request.match_info[name]
    if not (0 < len(value) <= 20 and value.isascii() and value.isdecimal()):
        raise ApiError(
            400, 50035, "Invalid Form Body", {name: {"_errors": [{"code": "NUMBER_TYPE_COERCE"}]}}
        )
    return int(value)


# gateway and identity


async def gateway_bot(request: web.Request) -> web.Response:
    limit = {"total": 1000, "remaining": 999, "reset_after": 86_400_000, "max_concurrency": 1}
    url = api_of(request).gateway.url
    return json_response({"url": url, "shards": 1, "session_start_limit": limit})


async def gateway(request: web.Request) -> web.Response:
    return json_response({"url": api_of(request).gateway.url})


async def me(request: web.Request) -> web.Response:
    """The bot, or with an OAuth2 access token (``Bearer``) the user it was given to."""
    api = api_of(request)
    authorization = request.headers.get("Authorization", "")
    if authorization.startswith("Bearer "):
        user_id = api.activities.user_of(authorization)
        if user_id is None:
            return json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        return json_response(payloads.user(api.world.user(user_id)))
    bot = api.world.bot
    return json_response(
        payloads.user(bot)
        | {"verified": True, "mfa_enabled": False, "email": None, "locale": "en-US"}
    )


async def get_user(request: web.Request) -> web.Response:
    return json_response(payloads.user(api_of(request).world.user(snowflake(request, "user_id"))))


async def application(request: web.Request) -> web.Response:
    world = api_of(request).world
    return json_response(
        {
            "id": str(world.bot.id),
            "name": world.bot.name,
            "icon": None,
            "description": "",
            "summary": "",
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": payloads.user(world.owner),
            "team": None,
            "verify_key": "0" * 64,
            "flags": 0,
            "tags": [],
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "approximate_guild_count": len(world.guilds),
            "bot": payloads.user(world.bot),
        }
    )


# commands


def _scope(request: web.Request) -> int | None:
    api = api_of(request)
    if snowflake(request, "application_id") != api.world.bot.id:
        raise not_found(UNKNOWN_APPLICATION, "Application")
    if "guild_id" not in request.match_info:
        return None
    return api.world.guild(snowflake(request, "guild_id")).id


async def put_commands(request: web.Request) -> web.Response:
    scope = _scope(request)
    return json_response(api_of(request).commands.replace(scope, await request.json()))


async def get_commands(request: web.Request) -> web.Response:
    return json_response(api_of(request).commands.of_scope(_scope(request)))


async def get_member(request: web.Request) -> web.Response:
    world = api_of(request).world
    guild = world.guild(snowflake(request, "guild_id"))
    member = guild.members.get(snowflake(request, "user_id"))
    if member is None:
        raise not_found(UNKNOWN_MEMBER, "Member")
    return json_response(payloads.member(member, world.users[member.user_id]))


async def attachment(request: web.Request) -> web.Response:
    """The CDN: a stored file's bytes, for discord.py's ``Attachment.read()``."""
    file_id = int(request.match_info["file_id"])
    for msg in api_of(request).world.messages.values():
        for file in msg.files:
            if file.id == file_id:
                return web.Response(body=file.data, content_type=file.content_type or None)
    raise web.HTTPNotFound()


ROUTES: list[tuple[str, str, Handler]] = [
    ("GET", "/gateway/bot", gateway_bot),
    ("GET", "/gateway", gateway),
    ("GET", "/users/@me", me),
    ("GET", "/users/{user_id}", get_user),
    ("GET", "/oauth2/applications/@me", application),
    ("GET", "/applications/@me", application),
    ("PUT", "/applications/{application_id}/commands", put_commands),
    ("GET", "/applications/{application_id}/commands", get_commands),
    ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands", put_commands),
    ("GET", "/applications/{application_id}/guilds/{guild_id}/commands", get_commands),
    ("GET", "/guilds/{guild_id}/members/{user_id}", get_member),
]


def build_app(api: Api, routes: list[tuple[str, str, Handler]]) -> web.Application:
    app = web.Application(middlewares=[frame], client_max_size=64 * 1024 * 1024)
    app[API] = api
    app.router.add_get("/gateway", api.gateway.handle)
    app.router.add_get("/attachments/{channel_id}/{file_id}/{name}", attachment)
    for method, path, handler in routes:
        app.router.add_route(method, "/api/v{version:\\d+}" + path, handler)
    return app
