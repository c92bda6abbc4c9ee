"""What the web board asks of Discord's API for an Activity's sign-in: the OAuth2 code
exchanged for the user's access token (``POST /oauth2/token``, with the application's
client id and secret), the user it stands for (``GET /users/@me``) and the Activity
instance the user is in (``GET /applications/{id}/activity-instances/{instance}``, with the
bot's token), whose location is the channel that says which match. Every answer is read
bounded in size and time; anything Discord refuses or does not answer is a ``Refusal``
saying what to do. Told to wait (a 429), the sign-ins wait: Discord is not asked on that
route (or on any, for its global limit) until its Retry-After has passed, since every 429
counts towards Cloudflare's invalid requests (10,000 in 10 minutes), past which the bot's
address, the whole bot, is banned from Discord's API for an hour."""

from __future__ import annotations

import json
import logging
import math
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import aiohttp

from bot.i18n import N_, _, ngettext

from .guard import Refusal, read_most

log = logging.getLogger("bot.web")

MOST_ANSWER = 64 * 1024  # bytes of one of Discord's answers
TIMEOUT = 10.0  # seconds for one request to Discord
SNOWFLAKE = re.compile(r"[1-9][0-9]{0,19}")
SCOPE = "identify"  # all the Activity asks: who the user is
EVERY_ROUTE = "global"  # the routes' key of a wait Discord asks of every request
SIGN_IN_ROUTES = ("token", "user", "instance")  # the routes a sign-in asks, in turn
LONGEST_WAIT = 3600.0  # seconds of a Retry-After heeded at most (one unread: a second)

CODE_REFUSED = N_(
    "Discord did not accept this sign-in (it may have been used already or expired): close "
    "the board and open it again from Discord."
)
UNREACHABLE = N_("Discord could not be reached to sign you in; try again in a moment.")
NO_INSTANCE = N_("Discord does not know this Activity: close the board and open it again.")
NOT_IN_IT = N_("You are not in this Activity: join it in Discord, then open the board again.")


@dataclass(frozen=True)
class Identity:
    """Who signed in (``user_id``), their access token (for the SDK's ``authenticate``)."""

    user_id: int
    access_token: str


@dataclass(frozen=True)
class Instance:
    """Where an Activity instance runs (``channel_id``, in server ``guild_id``; None: a
    direct message or group DM) and the users connected to it."""

    channel_id: int
    guild_id: int | None
    users: frozenset[int]


class DiscordApi:
    """Discord's API at ``api_base`` (``TORA_DISCORD_API``: the emulator's in tests) for the
    application ``client_id`` (with its OAuth2 ``client_secret``) and its bot ``token``."""

    def __init__(
        self,
        api_base: str,
        client_id: int,
        client_secret: str,
        token: str,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.api_base = api_base.rstrip("/")
        self.client_id = client_id
        self._secret = client_secret
        self._token = token
        self._clock = clock
        self._waits: dict[str, float] = {}  # route (or EVERY_ROUTE): not asked before then

    @property
    def client_secret(self) -> str:
        """The application's OAuth2 secret (the Activity's passes are signed with a key
        made of it: every process of a deployment has it)."""
        return self._secret

    async def identify(self, code: str) -> Identity:
        """The user an Activity's authorization ``code`` stands for. A wait Discord asks on
        any route of the sign-in refuses it before the first request: ``code`` is good for
        one exchange only, which a wait on a later route would spend for nothing."""
        self._check_wait(*SIGN_IN_ROUTES)
        form = {
            "client_id": str(self.client_id),
            "client_secret": self._secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        status, body = await self._ask("POST", "/oauth2/token", "token", data=form)
        if body.get("error") == "invalid_client":  # the operator's to fix, not the user's
            log.error(
                "Discord refused the application's credentials for an Activity's sign-in: "
                "set TORA_CLIENT_ID and TORA_CLIENT_SECRET to the Developer Portal's (OAuth2)",
                extra={"status": status},
            )
        token = body.get("access_token")
        scopes = str(body.get("scope", "")).split()
        if status != 200 or not isinstance(token, str) or not 0 < len(token) <= 200:
            raise Refusal(401, _(CODE_REFUSED))
        if SCOPE not in scopes:
            raise Refusal(401, _(CODE_REFUSED))
        status, user = await self._ask("GET", "/users/@me", "user", bearer=token)
        user_id = str(user.get("id", ""))
        if status != 200 or not SNOWFLAKE.fullmatch(user_id):
            raise Refusal(401, _(CODE_REFUSED))
        return Identity(int(user_id), token)

    async def instance(self, instance_id: str) -> Instance:
        """The Activity instance ``instance_id`` of this application."""
        path = f"/applications/{self.client_id}/activity-instances/{instance_id}"
        status, body = await self._ask("GET", path, "instance", bot=True)
        if status == 404:
            raise Refusal(404, _(NO_INSTANCE))
        location = body.get("location")
        if status != 200 or not isinstance(location, dict):
            raise Refusal(502, _(UNREACHABLE))
        channel = str(location.get("channel_id", ""))
        # a guild channel's location names its server ("gc"); a DM's has none ("pc")
        guild = str(location.get("guild_id", "")) if location.get("kind") == "gc" else None
        users = body.get("users")
        if not SNOWFLAKE.fullmatch(channel) or not isinstance(users, list):
            raise Refusal(502, _(UNREACHABLE))
        if guild is not None and not SNOWFLAKE.fullmatch(guild):
            raise Refusal(502, _(UNREACHABLE))
        ids = frozenset(
            int(u) for u in users[:1000] if isinstance(u, str) and SNOWFLAKE.fullmatch(u)
        )
        return Instance(int(channel), None if guild is None else int(guild), ids)

    async def _ask(
        self,
        method: str,
        path: str,
        route: str,
        *,
        data: dict[str, str] | None = None,
        bearer: str | None = None,
        bot: bool = False,
    ) -> tuple[int, dict[str, Any]]:
        """Discord's status and JSON object for one request on ``route`` (its key for the
        waits Discord asks for: 429 while one runs; 502 when an answer cannot be had)."""
        self._check_wait(route)
        headers = {"User-Agent": "tora-bot (activity sign-in)"}
        if bearer is not None:
            headers["Authorization"] = f"Bearer {bearer}"
        if bot:
            headers["Authorization"] = f"Bot {self._token}"
        timeout = aiohttp.ClientTimeout(total=TIMEOUT)
        try:
            async with aiohttp.ClientSession(timeout=timeout) as session:
                url = self.api_base + path
                async with session.request(method, url, data=data, headers=headers) as answer:
                    raw = await read_most(answer.content, MOST_ANSWER)
                    status, said = answer.status, answer.headers
        except (TimeoutError, aiohttp.ClientError, OSError) as exc:
            log.warning("Discord could not be reached for a sign-in", extra={"error": str(exc)})
            raise Refusal(502, _(UNREACHABLE)) from None
        if len(raw) > MOST_ANSWER:
            raise Refusal(502, _(UNREACHABLE))
        try:
            body = json.loads(raw.decode("utf-8")) if raw else {}
        except (UnicodeDecodeError, ValueError):
            body = {}
        if status >= 500 or status == 429:
            log.warning("Discord refused a sign-in request", extra={"status": status, "path": path})
        if status == 429:
            self._wait(route, said, body)
            self._check_wait(route)
        if status >= 500:
            raise Refusal(502, _(UNREACHABLE))
        return status, body if isinstance(body, dict) else {}

    def _wait(self, route: str, headers: Mapping[str, str], body: object) -> None:
        """Note the wait a 429's ``headers`` (Retry-After, in seconds) or ``body``
        (``retry_after``) ask for, on ``route`` or on every one (Discord's global limit)."""
        asked: object = headers.get("Retry-After") or (
            body.get("retry_after") if isinstance(body, dict) else None
        )
        try:
            seconds = float(asked) if isinstance(asked, str | int | float) else 1.0
        except ValueError:
            seconds = 1.0
        if not math.isfinite(seconds):
            seconds = LONGEST_WAIT
        seconds = min(max(seconds, 1.0), LONGEST_WAIT)
        everywhere = headers.get("X-RateLimit-Global") == "true" or (
            isinstance(body, dict) and body.get("global") is True
        )
        key = EVERY_ROUTE if everywhere else route
        until = self._clock() + seconds
        self._waits[key] = max(until, self._waits.get(key, 0.0))

    def _check_wait(self, *routes: str) -> None:
        """A 429 saying how long to wait while Discord asks to wait on any of ``routes`` (or
        on every route)."""
        now = self._clock()
        until = max(self._waits.get(route, 0.0) for route in (*routes, EVERY_ROUTE))
        if until <= now:
            return
        seconds = math.ceil(until - now)
        raise Refusal(
            429,
            ngettext(
                "Discord asks the board to wait before signing anyone in again; try again in "
                "{n} second.",
                "Discord asks the board to wait before signing anyone in again; try again in "
                "{n} seconds.",
                seconds,
            ),
            headers={"Retry-After": str(seconds)},
        )
