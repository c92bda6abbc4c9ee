"""The web board's links where the commands give them: a player's "Open the board" on their
Play panel, and ``/tora board link:new``, which replaces that player's link (the old one
refuses from then on). With the web board off (no ``Links``) no link is given anywhere."""

from __future__ import annotations

from bot.i18n import N_, _
from bot.service import Link, Stamp
from bot.service.links import board_link, holder_warning

from .actions import Actions
from .answers import Answer, Unusable
from .callers import Caller
from .links import Links

WEB_OFF = N_("The web board is off on this bot, so there is no link to replace.")
NOT_YOURS = N_("Only the players of a match have a board link, and you do not play in this one.")
NO_GAME = N_("This match has no board yet: its game starts once the challenge is accepted.")
REPLACED = N_(
    "Here is your new link to the board. Your earlier link no longer works: whoever had it "
    "cannot play your turns any more."
)


class BoardLinks:
    def __init__(self, actions: Actions, links: Links | None) -> None:
        self.actions = actions
        self.links = links

    async def for_turn(self, user_id: int, stamp: Stamp | None) -> tuple[Link, ...]:
        """The private board link of the player ``user_id`` of ``stamp``'s match (none with
        the web off, or for anyone who does not play in it)."""
        if self.links is None or stamp is None:
            return ()
        hosted = await self.actions.records.hosted(stamp.match)
        side = None if hosted is None else hosted.side_of(user_id)
        if hosted is None or side is None or not hosted.live:
            return ()
        return (board_link(await self.links.private_url(hosted.id, side), localized=True),)

    async def renew(self, caller: Caller, match: str | None) -> Answer:
        """``/tora board link:new``: the caller's new private link, for them alone."""
        if self.links is None:
            raise Unusable(_(WEB_OFF))
        place = await self.actions.place(caller, match)
        hosted = await self.actions.records.live_in_channel(place.channel_id)
        if hosted is None:
            raise Unusable(_("There is no live match here, so there is no link to replace."))
        if hosted.challenger_id is None:
            raise Unusable(_(NO_GAME))
        side = hosted.side_of(caller.user.id)
        if side is None:
            raise Unusable(_(NOT_YOURS))
        token = await self.links.renew(hosted.id, side)
        warning = holder_warning(self.actions.service.settings, localized=True)
        link = board_link(self.links.board_url(token), localized=True)
        return Answer(f"{_(REPLACED)}\n{warning}", private=True, links=(link,))
