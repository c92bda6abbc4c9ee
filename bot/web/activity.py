"""The web board as a Discord Activity (docs/WEB.md, "In Discord"): ``/`` (where Discord
opens the Activity's root URL mapping) and ``/activity`` are the player page's shell,
framed by Discord only, whose script signs in through the Embedded App
SDK (``static/activity.js``) and posts the OAuth2 code it is given to
``/api/activity/session``. There the code is exchanged for the user's identity, the
Activity instance says the channel, the channel says the match
(``bot.app.activity.match_for``), and the user's side in it says what the page may do: a
player gets their seat's token (the same as their private link's: it plays their turns and
stops working as the link does), anyone else the match's public view only; either gets a
pass (``passes``) that has the page's later requests counted against the user's
allowances, not against those of Discord's proxy's address, and that the page renews at
``/api/activity/pass`` while it holds. The shell is in
the browser's language (nobody has signed in yet); once Discord says who signed in, the
refusals are in their language (still the browser's for a user the bot never met), and the
page follows its state's."""

from __future__ import annotations

import re
from typing import Any

from aiohttp import web

from bot.app.activity import match_for
from bot.app.answers import Unusable
from bot.app.page_words import unmarked
from bot.i18n import N_, _
from bot.service import RateLimited, Records

from .discord_api import NOT_IN_IT, DiscordApi, Identity
from .guard import (
    FRAMED,
    LANGUAGE,
    NO_STORE,
    Refusal,
    address,
    body_of,
    field_of,
    framed_headers,
    rate_limited,
    speaking_to,
)
from .passes import HEADER, Passes
from .site import Site, page_html

CODE = re.compile(r"[A-Za-z0-9_-]{1,100}")
INSTANCE = re.compile(r"[A-Za-z0-9_:-]{1,100}")  # no dots: it goes in a path
PAGE_MARK = b'data-page="play"'
BUSY = N_(
    "The board is busy with many people signing in at once; close the Activity and open it "
    "again in a minute."
)
PASS_EXPIRED = N_(
    "This page's sign-in has expired; close the Activity and open it again to sign in anew."
)


class Activity:
    """The Activity's routes for the application ``discord.client_id``, its passes made by
    ``passes``."""

    def __init__(self, site: Site, discord: DiscordApi, records: Records, passes: Passes) -> None:
        self.site = site
        self.discord = discord
        self.records = records
        self.passes = passes
        page = (site.static / "play.html").read_bytes()
        if PAGE_MARK not in page:  # the shell changed: say so at start, not in Discord
            raise RuntimeError(f"play.html has no {PAGE_MARK.decode()} to serve as the Activity")
        self._client = f'data-page="activity" data-client="{discord.client_id}"'.encode()
        self._headers = framed_headers(discord.client_id)

    def routes(self) -> list[web.RouteDef]:
        return [
            web.get("/", self.page),  # where Discord opens the root URL mapping
            web.get("/activity", self.page),
            web.post("/api/activity/session", self.session),
            web.post("/api/activity/pass", self.renew),
        ]

    async def page(self, request: web.Request) -> web.Response:
        """The player page's shell in Activity mode (at ``/``, only with Discord's query:
        else the front page, ``Site.front``); Discord adds its query (``frame_id``,
        ``instance_id``, ``platform``...), which the SDK reads; a fixed file (``files``): a
        channel's users opening the Activity together, all from Discord's proxy's address
        and without a pass yet, spend none of its reads."""
        if request.path == "/" and "frame_id" not in request.query:
            # a browser's, not Discord's (whose SDK cannot start without it): the front page
            # (where the page of an address with nothing links), not the Activity's error
            return await self.site.front(request)
        self.site.limits.take("files", self.site.counted_as(request))
        request[FRAMED] = self._headers
        page = page_html(self.site.static / "play.html", request[LANGUAGE])
        answer = web.Response(
            body=page.replace(PAGE_MARK, self._client, 1), content_type="text/html"
        )
        answer.headers["Cache-Control"] = NO_STORE
        return answer

    async def session(self, request: web.Request) -> web.Response:
        """``{"code", "instance"}``: who signed in and what they may see, as
        ``{"match", "access_token", "pass"}`` and, for a player of the match, ``"token"``
        and ``"side"``. The sign-ins are counted per client address whatever the request
        carries: that is what bounds how many users' passes one address can get. Every user
        of the Activity comes from Discord's proxy's few addresses, so that allowance is a
        flood's bound, and its refusal says the board is busy, not that the user is hasty."""
        try:
            self.site.limits.take("sign_ins", address(request))
        except RateLimited as exc:  # all the proxy's users together: not this one's doing
            raise Refusal(429, _(BUSY), headers=rate_limited(exc).headers) from None
        code, instance_id = sign_in_of(await body_of(request))
        identity = await self.discord.identify(code)
        known = await self.records.player_language(identity.user_id)
        # a user the bot never met has no language of theirs but their browser's
        language = known.resolved() if known.chosen or known.seen else request[LANGUAGE]
        with speaking_to(request, language):
            return await self._seat(identity, instance_id)

    async def renew(self, request: web.Request) -> web.Response:
        """``/api/activity/pass``: ``{"pass"}``, a fresh pass for the user of the one the
        request carries while it still holds, so that a page left open for days (a
        correspondence match) keeps being counted as its user's; a 401 once it has expired,
        as Discord must then be asked again who is there."""
        self.site.limits.take("reads", self.site.counted_as(request))
        user = self.passes.user_of(request.headers.get(HEADER, ""))
        if user is None:
            raise Refusal(401, _(PASS_EXPIRED))
        answer = web.json_response({"pass": self.passes.issue(user)})
        answer.headers["Cache-Control"] = NO_STORE
        return answer

    async def _seat(self, identity: Identity, instance_id: str) -> web.Response:
        """What ``identity`` may see of the match of Activity ``instance_id``."""
        self.site.limits.take("sessions", f"user:{identity.user_id}")
        instance = await self.discord.instance(instance_id)
        if identity.user_id not in instance.users:
            raise Refusal(403, _(NOT_IN_IT))
        try:
            hosted = await match_for(
                self.records, instance.channel_id, identity.user_id, instance.guild_id
            )
        except Unusable as exc:  # worded for Discord: the frame shows it plain
            raise Refusal(404, unmarked(str(exc))) from None
        seat: dict[str, object] = {
            "match": hosted.id,
            "access_token": identity.access_token,
            "pass": self.passes.issue(identity.user_id),
        }
        side = hosted.side_of(identity.user_id) if hosted.live else None
        if side is not None:
            token = await self.site.links.link_for(hosted.id, side)
            seat |= {"side": side.name.lower(), "token": token}
        answer = web.json_response(seat)
        answer.headers["Cache-Control"] = NO_STORE
        return answer


def sign_in_of(body: dict[str, Any]) -> tuple[str, str]:
    """The sign-in's ``code`` and ``instance``, each of Discord's characters, or a 400 that
    says what is wanted (nothing else reaches Discord)."""
    code = field_of(body, "code", str, 100)
    instance_id = field_of(body, "instance", str, 100)
    if not CODE.fullmatch(code):
        raise Refusal(400, _("code is the authorization code Discord gave the Activity."))
    if not INSTANCE.fullmatch(instance_id):
        raise Refusal(400, _("instance is the Activity's instance id, as Discord gave it."))
    return code, instance_id
