"""An Activity's pass: what the Activity's sign-in gives its page besides the seat, sent
with every request the page makes after (the ``X-Activity-Pass`` header), so that those
requests are counted against the allowances of the Discord user who signed in rather than
those of the client address. Discord's proxy hides its users' addresses: without it, every
user of the Activity would share the few proxy addresses' allowances.

A pass says who, never what they may do (the seat's token, or none, still says that): it
is ``base64url("user:expires:signature")``, the signature an HMAC-SHA256 of
``user:expires`` with a key derived from the application's OAuth2 secret, which every
process of a deployment shares. One that does not hold, or has expired, is as none: the
request counts against its address, as any other."""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import time
from collections.abc import Callable

HEADER = "X-Activity-Pass"
LIFETIME = 24 * 3600  # seconds; the page renews its pass long before (/api/activity/pass)
MOST_PASS = 140  # characters; a real pass has about 100
PASS_CHARACTERS = re.compile(r"[A-Za-z0-9_-]+")
NUMBER = re.compile(r"[1-9][0-9]{0,19}")
PURPOSE = b"tora-bot activity pass"


class Passes:
    """Makes and reads the passes of the application whose OAuth2 secret is ``secret``;
    ``now`` is the wall clock (shared by every process, as the key is)."""

    def __init__(self, secret: str, now: Callable[[], float] = time.time) -> None:
        self._key = hmac.new(secret.encode(), PURPOSE, hashlib.sha256).digest()
        self._now = now

    def issue(self, user_id: int) -> str:
        """A pass for Discord user ``user_id``, good for ``LIFETIME`` seconds."""
        signed = f"{user_id}:{int(self._now()) + LIFETIME}"
        return _b64(f"{signed}:{self._signature(signed)}".encode())

    def user_of(self, text: str) -> int | None:
        """The Discord user a pass stands for; None if it is no pass, was not made here, or
        has expired."""
        if not 0 < len(text) <= MOST_PASS or not PASS_CHARACTERS.fullmatch(text):
            return None
        try:
            whole = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)).decode("ascii")
        except ValueError:  # binascii.Error and UnicodeDecodeError are ValueErrors
            return None
        user, _colon, rest = whole.partition(":")
        expires, _colon, signature = rest.partition(":")
        if not (NUMBER.fullmatch(user) and NUMBER.fullmatch(expires)):
            return None
        expected = self._signature(f"{user}:{expires}")
        if not hmac.compare_digest(signature.encode(), expected.encode()):
            return None
        return int(user) if int(expires) > self._now() else None

    def _signature(self, signed: str) -> str:
        return _b64(hmac.new(self._key, signed.encode(), hashlib.sha256).digest())


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")
