"""Failures on demand and the rate-limit headers every REST answer carries.

discord.py's handling decides the shapes: a 429 is retried only with a ``Via``
header and a JSON body with ``retry_after`` (else it is taken for a Cloudflare ban);
``global`` in the body holds every request; 500/502/504 are retried after 1 + 2n s."""

from __future__ import annotations

import asyncio
import hashlib
import math
import re
import time
from dataclasses import dataclass

from aiohttp import web

from .errors import json_response

VIA = "1.1 google"


@dataclass
class Fault:
    method: str
    pattern: re.Pattern[str]
    status: int
    retry_after: float
    count: int
    global_: bool

    def matches(self, method: str, path: str) -> bool:
        return self.method in ("*", method) and self.pattern.search(path) is not None


@dataclass
class Stall:
    """A request held until ``release``: a test kills the bot while it waits. A request
    whose client has gone by then is dropped unanswered, never carried out (as a request
    cut off before Discord read it). With ``carried``, the request is carried out first and
    its answer held (as when the bot dies after Discord acted, before it heard back)."""

    method: str
    pattern: re.Pattern[str]
    reached: asyncio.Event
    released: asyncio.Event
    carried: bool = False

    def release(self) -> None:
        self.released.set()


class Faults:
    def __init__(self) -> None:
        self.pending: list[Fault] = []
        self.stalls: list[Stall] = []

    def stall(self, method: str, path_regex: str, carried: bool = False) -> Stall:
        held = Stall(
            method.upper(), re.compile(path_regex), asyncio.Event(), asyncio.Event(), carried
        )
        self.stalls.append(held)
        return held

    def take_stall(self, method: str, path: str) -> Stall | None:
        for held in self.stalls:
            if held.method in ("*", method) and held.pattern.search(path) is not None:
                self.stalls.remove(held)
                return held
        return None

    def add(
        self,
        method: str,
        path_regex: str,
        status: int,
        retry_after: float,
        count: int,
        global_: bool,
    ) -> None:
        if status not in (429, 500, 502, 503, 504):
            raise ValueError("fail_next fakes 429 or a 5xx")
        fault = Fault(method.upper(), re.compile(path_regex), status, retry_after, count, global_)
        self.pending.append(fault)

    def take(self, method: str, path: str) -> Fault | None:
        """The first pending fault for this request, counted as used."""
        for fault in self.pending:
            if fault.matches(method, path):
                fault.count -= 1
                if fault.count <= 0:
                    self.pending.remove(fault)
                return fault
        return None


def fault_response(fault: Fault, bucket: str) -> web.Response:
    if fault.status != 429:
        if fault.status == 500:
            return json_response({"message": "500: Internal Server Error", "code": 0}, status=500)
        return web.Response(status=fault.status, body=b"")
    scope = "global" if fault.global_ else "user"
    headers = {
        "Retry-After": str(math.ceil(fault.retry_after)),
        "X-RateLimit-Scope": scope,
        "X-RateLimit-Limit": "5",
        "X-RateLimit-Remaining": "0",
        "X-RateLimit-Reset": f"{time.time() + fault.retry_after:.3f}",
        "X-RateLimit-Reset-After": f"{fault.retry_after:.3f}",
        "X-RateLimit-Bucket": bucket,
    }
    if fault.global_:
        headers["X-RateLimit-Global"] = "true"
    body = {
        "message": "You are being rate limited.",
        "retry_after": fault.retry_after,
        "global": fault.global_,
        "code": 0,
    }
    return json_response(body, status=429, headers=headers)


@dataclass
class Window:
    reset_at: float
    used: int


class RateLimits:
    """Honest per-bucket windows (``limit`` requests per ``per`` seconds, per route and
    major parameter, as Discord counts); going over is a real 429."""

    def __init__(self, limit: int, per: float) -> None:
        self.limit, self.per = limit, per
        self.windows: dict[str, Window] = {}

    def take(self, key: str) -> tuple[dict[str, str], float | None]:
        """The headers for this request, and the wait if it is over the limit."""
        now = time.monotonic()
        window = self.windows.get(key)
        if window is None or window.reset_at <= now:
            window = self.windows[key] = Window(now + self.per, 0)
        reset_after = window.reset_at - now
        over = window.used >= self.limit
        if not over:
            window.used += 1
        headers = {
            "X-RateLimit-Limit": str(self.limit),
            "X-RateLimit-Remaining": str(max(0, self.limit - window.used)),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": bucket_hash(key.split("|")[0]),
        }
        return headers, reset_after if over else None


def bucket_hash(route: str) -> str:
    return hashlib.sha1(route.encode()).hexdigest()[:16]
