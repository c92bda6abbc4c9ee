"""Discord's JSON replies, errors with the status, code and message discord.py reads."""

from __future__ import annotations

import json
from collections.abc import Sized
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

UNKNOWN_CHANNEL = 10003
UNKNOWN_GUILD = 10004
UNKNOWN_MEMBER = 10007
UNKNOWN_MESSAGE = 10008
UNKNOWN_USER = 10013
UNKNOWN_WEBHOOK = 10015
UNKNOWN_INTERACTION = 10062
UNKNOWN_APPLICATION = 10002
MISSING_ACCESS = 50001  # 403: the bot may not see the channel
EMPTY_MESSAGE = 50006
CANNOT_DM = 50007
MISSING_PERMISSIONS = 50013  # 403: the bot lacks a permission the request takes
INVALID_WEBHOOK_TOKEN = 50027
INVALID_FORM_BODY = 50035
ALREADY_ACKNOWLEDGED = 40060
ACTIVITIES_DISABLED = 50234  # a LAUNCH_ACTIVITY from an application without an Activity
TOO_LARGE = 40005
MAX_THREADS = 160006  # "Maximum number of active threads reached" (400)


@dataclass
class ApiError(Exception):
    """Raised by a handler; the middleware turns it into Discord's error JSON."""

    status: int
    code: int
    message: str
    errors: dict[str, Any] = field(default_factory=dict)

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            body["errors"] = self.errors
        return body


def not_found(code: int, what: str) -> ApiError:
    return ApiError(404, code, f"Unknown {what}")


def invalid_form(path: str, error_code: str, message: str) -> ApiError:
    """400/50035 with the nested ``errors`` tree Discord uses, e.g. ``data.content``."""
    tree: dict[str, Any] = {"_errors": [{"code": error_code, "message": message}]}
    for key in reversed(path.split(".")):
        tree = {key: tree}
    return ApiError(400, INVALID_FORM_BODY, "Invalid Form Body", tree)


def check_at_most(text: Sized | None, most: int, path: str, field: str = "") -> None:
    """Discord's refusal of a text (or a list) longer than ``most`` at ``path`` (a
    ``field`` named in the message, as Discord names a component's)."""
    if text is not None and len(text) > most:
        named = f"{field}: " if field else ""
        message = f"{named}Must be {most} or fewer in length."
        raise invalid_form(path, "BASE_TYPE_MAX_LENGTH", message)


def json_response(
    data: Any, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    """JSON with the bare ``application/json`` content type: discord.py compares the
    header for equality, and takes aiohttp's ``...; charset=utf-8`` for plain text."""
    all_headers = {"Content-Type": "application/json"} | (headers or {})
    return web.Response(body=json.dumps(data).encode(), status=status, headers=all_headers)
