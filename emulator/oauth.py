"""Discord's OAuth2 and Activity routes (the state: ``activities``): the code exchanged for
an access token (``POST /oauth2/token`` with the application's id and secret, form encoded,
refusals as OAuth2's ``{"error": ...}``, each code once and within ten minutes) and an
Activity instance (``GET /applications/{id}/activity-instances/{instance}``, with the bot's
token). The user of an access token (``GET /users/@me`` with ``Bearer``) is ``rest.me``'s."""

from __future__ import annotations

import secrets

from aiohttp import web

from .activities import TOKEN_LIFETIME
from .errors import UNKNOWN_APPLICATION, ApiError, json_response, not_found
from .rest import Handler, api_of, snowflake

UNKNOWN_ACTIVITY_INSTANCE = 10_070


def _oauth_error(status: int, error: str, description: str) -> web.Response:
    return json_response({"error": error, "error_description": description}, status=status)


async def token(request: web.Request) -> web.Response:
    """``POST /oauth2/token``: an authorization code for an access token, once."""
    api = api_of(request)
    activities = api.activities
    form = await request.post()
    client_id, secret = str(form.get("client_id", "")), str(form.get("client_secret", ""))
    if client_id != str(api.world.bot.id) or secret != activities.client_secret:
        return _oauth_error(401, "invalid_client", "Invalid client_id or client_secret.")
    if form.get("grant_type") != "authorization_code":
        return _oauth_error(400, "unsupported_grant_type", "Unsupported grant type.")
    given = activities.exchange(str(form.get("code", "")))
    if given is None:
        return _oauth_error(400, "invalid_grant", 'Invalid "code" in request.')
    access = secrets.token_urlsafe(24)
    activities.tokens[access] = given
    return json_response(
        {
            "access_token": access,
            "token_type": "Bearer",
            "expires_in": TOKEN_LIFETIME,
            "refresh_token": secrets.token_urlsafe(24),
            "scope": " ".join(given[1]),
        }
    )


async def instance(request: web.Request) -> web.Response:
    api = api_of(request)
    world = api.world
    if snowflake(request, "application_id") != world.bot.id:
        raise not_found(UNKNOWN_APPLICATION, "Application")
    found = api.activities.instances.get(request.match_info["instance_id"])
    if found is None:
        raise ApiError(404, UNKNOWN_ACTIVITY_INSTANCE, "Unknown Activity Instance")
    return json_response(api.activities.instance_payload(found, world.bot.id))


ROUTES: list[tuple[str, str, Handler]] = [
    ("POST", "/oauth2/token", token),
    ("GET", "/applications/{application_id}/activity-instances/{instance_id}", instance),
]
