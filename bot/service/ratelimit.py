"""A per-user token bucket: ``burst`` commands at once, then one every ``every`` seconds.

Kept in memory: a restart forgets who was busy, which only ever lets a command through."""

from __future__ import annotations

import math
from collections.abc import Hashable
from dataclasses import dataclass

from babel.numbers import format_decimal

from bot.i18n import N_, _, current, ngettext

from .errors import RateLimited


@dataclass
class _Bucket:
    tokens: float
    at: float


# TRANSLATORS: it completes "You are {doing}: up to 5 at once, ..." (a rate limit's refusal).
SENDING = N_("sending commands faster than I take them")
SWEEP = 10_000  # users kept before those grown back in full are looked for


class RateLimit:
    """``doing`` completes "You are ..." in the refusal: what the user does too fast (an
    ``N_`` text, looked up when the refusal is made, in the language of the moment)."""

    def __init__(self, burst: int, every: float, doing: str = SENDING) -> None:
        self.burst, self.every, self.doing = burst, every, doing
        self._buckets: dict[Hashable, _Bucket] = {}
        self._sweep_at = SWEEP

    def take(self, user_id: Hashable, now: float, doing: str | None = None) -> None:
        """Spend one command of ``user_id``'s allowance (any key: a user, a web link, an
        address), or raise RateLimited (spending nothing) with how long to wait, saying
        what they do too fast (``doing``, where one allowance serves several kinds)."""
        bucket = self._buckets.get(user_id)
        if bucket is None:
            bucket = self._buckets[user_id] = _Bucket(float(self.burst), now)
        bucket.tokens = min(float(self.burst), bucket.tokens + (now - bucket.at) / self.every)
        bucket.at = now
        if bucket.tokens < 1:
            wait = (1 - bucket.tokens) * self.every
            raise RateLimited(
                ngettext(
                    "You are {doing}: up to {burst} at once, then one every second. "
                    "Please wait {wait} and try again; nothing was done.",
                    "You are {doing}: up to {burst} at once, then one every {n} seconds. "
                    "Please wait {wait} and try again; nothing was done.",
                    self._plural_count(),
                    n=format_decimal(self.every, locale=current()),  # 0.05 is 0,05 in German
                    doing=_(doing or self.doing),
                    burst=self.burst,
                    wait=ngettext("{n} second", "{n} seconds", math.ceil(wait)),
                ),
                wait,
            )
        bucket.tokens -= 1
        if len(self._buckets) > self._sweep_at:
            self._forget_full(now)
            # the next sweep once as many users again have come: a crowd still busy costs
            # one look through it per as many commands, not one per command
            self._sweep_at = max(SWEEP, 2 * len(self._buckets))

    def _plural_count(self) -> int:
        """The count that chooses the refusal's form: the allowance's whole seconds, and a
        fraction of one in the plural form (as "one every 0.5 seconds" is said)."""
        return int(self.every) if float(self.every).is_integer() else 2

    def _forget_full(self, now: float) -> None:
        """Drop users whose allowance has grown back in full: they are as good as new."""
        full = self.burst * self.every
        for user_id in [u for u, b in self._buckets.items() if now - b.at >= full]:
            del self._buckets[user_id]
