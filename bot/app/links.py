"""The web board's links (docs/WEB.md): a match's public page, ``<base>/m/<match>``, and a
player's private board, ``<base>/play#<token>``.

A token is ``base64url("match:side:generation:signature")``, the signature an HMAC-SHA256 of
``match:side:generation`` with the secret (the operator's ``TORA_WEB_SECRET``, else one kept
in the database for every process). Whoever holds a player's token plays that player's
turns; asking for a new link moves the side's generation on, so the older tokens refuse, and
every token of a match refuses once it has ended (its public page stays).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import re
import secrets

from bot.i18n import N_, _
from bot.service import LinkRecords
from rules import Side

MOST_TOKEN = 200  # characters; a real token has about 90
TOKEN_CHARACTERS = re.compile(r"[A-Za-z0-9_-]+")
NUMBER = re.compile(r"[1-9][0-9]{0,17}")  # an id or a generation: a positive 64-bit number
SECRET_BYTES = 32

# in the language of the request (English unless the web front end says which)
NOT_VALID = N_("This link is not valid.")
REPLACED = N_("This link was replaced; open the board again from Discord.")
ENDED = N_("This match has ended; its page stays at {url}.")


class LinkRefused(Exception):
    """A private link that cannot be used; the message says why, for the person holding it.
    ``ended``: it was good until its match ended."""

    def __init__(self, message: str, ended: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.ended = ended


class Links:
    """Makes and checks the links of ``base_url`` (the web board's public address)."""

    def __init__(self, records: LinkRecords, base_url: str, secret: str = "") -> None:
        self._records = records
        self.base_url = base_url.rstrip("/")
        self._key = secret.encode() if secret else None

    # ---- addresses -----------------------------------------------------------------------
    def page_url(self, match: int) -> str:
        """The match's public page."""
        return f"{self.base_url}/m/{match}"

    def board_url(self, token: str) -> str:
        """A player's page: the token in the fragment, which browsers never send to a server
        nor put in a Referer."""
        return f"{self.base_url}/play#{token}"

    async def private_url(self, match: int, side: Side) -> str:
        """The current private link of ``side``'s player."""
        return self.board_url(await self.link_for(match, side))

    # ---- tokens --------------------------------------------------------------------------
    async def link_for(self, match: int, side: Side) -> str:
        """The current token of ``side``'s player (LookupError: no such hosted match)."""
        state = await self._records.state(match, side)
        if state is None:
            raise LookupError(f"there is no hosted match {match}")
        return await self._token(match, side, state.generation)

    async def renew(self, match: int, side: Side) -> str:
        """A new token for ``side``'s player: every earlier one refuses from now on."""
        return await self._token(match, side, await self._records.renew(match, side))

    async def check(self, token: str) -> tuple[int, Side]:
        """The match and side a token stands for; LinkRefused if it is not valid, was
        replaced, or its match has ended."""
        match, side, generation = await self._read(token)
        state = await self._records.state(match, side)
        if state is None:
            raise LinkRefused(_(NOT_VALID))
        if state.ended:
            raise LinkRefused(_(ENDED, url=self.page_url(match)), ended=True)
        if generation != state.generation:
            raise LinkRefused(_(REPLACED))
        return match, side

    async def _read(self, token: str) -> tuple[int, Side, int]:
        """A token's match, side and generation, once its signature holds."""
        parts = _parts(token)
        if parts is None:
            raise LinkRefused(_(NOT_VALID))
        match, letter, generation, signature = parts
        expected = await self._signature(f"{match}:{letter}:{generation}")
        if not hmac.compare_digest(signature.encode(), expected.encode()):
            raise LinkRefused(_(NOT_VALID))
        return int(match), Side.from_letter(letter), int(generation)

    async def _token(self, match: int, side: Side, generation: int) -> str:
        signed = f"{match}:{side.letter}:{generation}"
        whole = f"{signed}:{await self._signature(signed)}"
        return _b64(whole.encode())

    async def _signature(self, signed: str) -> str:
        if self._key is None:  # kept in the database: every process signs alike
            kept = await self._records.secret(secrets.token_hex(SECRET_BYTES))
            self._key = kept.encode()
        return _b64(hmac.new(self._key, signed.encode(), hashlib.sha256).digest())


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _parts(token: str) -> tuple[str, str, str, str] | None:
    """A token's four parts, checked for their form (None: it has not that form)."""
    if len(token) > MOST_TOKEN or not TOKEN_CHARACTERS.fullmatch(token):
        return None
    try:
        text = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)).decode("ascii")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    parts = text.split(":")
    if len(parts) != 4:
        return None
    match, letter, generation, signature = parts
    if not (NUMBER.fullmatch(match) and letter in ("C", "O") and NUMBER.fullmatch(generation)):
        return None
    return match, letter, generation, signature
