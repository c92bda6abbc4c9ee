"""An event's Join and Leave buttons are disabled on Discord once they stop applying (which
ones is the event desk's, ``bot.tournament.event_buttons``): the announcement that shows them is the
public answer to ``/tora-tournament create``, remembered through the store once it went out,
so this works after a restart. Whenever the event may have changed (a step of its flow, a
cancel, its entries closing), its remembered messages are looked at, and the stale buttons
disabled, each alone: a running Swiss's Leave stays while its Join goes. A message that
cannot be edited any more (deleted, the bot shut out of the channel) is forgotten; one rate
limited or refused for a while (a 5xx) waits for the event's next change."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from typing import Any

import discord

from bot.app.buttons import Press
from bot.tournament.event_buttons import EVENT_BUTTONS, Narrowed
from bot.tournament.event_desk import EventDesk

from .background import Background
from .buttons import ToraButton
from .links import greyed

log = logging.getLogger(__name__)


def _event_of(view: discord.ui.View | None) -> int | None:
    """The event whose buttons ``view`` shows, if any (a press names its event)."""
    items = [] if view is None else view.children
    return _event_in([i.press for i in items if isinstance(i, ToraButton)])


def _shown_event(message: discord.Message) -> int | None:
    """The event whose buttons ``message`` shows, if any (read back: plain buttons)."""
    items = discord.ui.View.from_message(message).children
    ids = [i.custom_id for i in items if isinstance(i, discord.ui.Button) and i.custom_id]
    return _event_in([p for p in map(Press.parse, ids) if p is not None])


def _event_in(pressed: list[Press]) -> int | None:
    events = {p.channel_id for p in pressed if p.verb in EVENT_BUTTONS}
    return next(iter(events)) if len(events) == 1 else None


class EventSweeper:
    def __init__(self, desk: EventDesk, client: discord.Client) -> None:
        self._desk = desk
        self._client = client
        self._lock = asyncio.Lock()  # one sweep at a time: an event's changes are rare
        # a failure (the database away, say) is logged; the event's next change looks again
        self._background = Background("looking after an event's buttons")

    def watch(self, interaction: discord.Interaction[Any], view: discord.ui.View | None) -> None:
        """An answer went out with ``view``: remember it if it shows an event's buttons."""
        event_id = _event_of(view)
        if event_id is not None:
            work = self._remember(interaction, event_id)
            self._background.start(work, f"tora-event-shown-{event_id}")

    def after(self, event_id: int) -> None:
        """The event may have changed: disable its buttons that stopped applying."""
        self._background.start(self.sweep(event_id), f"tora-event-sweep-{event_id}")

    async def _remember(self, interaction: discord.Interaction[Any], event_id: int) -> None:
        shown = await interaction.original_response()
        if _shown_event(shown) == event_id:  # on its last piece: a follow-up's if split
            await self._desk.remember_buttons(event_id, shown.channel.id, shown.id)

    async def sweep(self, event_id: int) -> None:
        async with self._lock:
            for narrowed in await self._desk.stale_buttons(event_id):
                await self._narrow(narrowed)

    async def _narrow(self, narrowed: Narrowed) -> None:
        kept = narrowed.kept
        channel = self._client.get_partial_messageable(kept.channel_id)
        message = channel.get_partial_message(kept.message_id)
        try:
            await message.edit(view=greyed(await message.fetch(), narrowed.stale))
        except (discord.NotFound, discord.Forbidden) as exc:  # gone for good: forgotten
            log.info("event buttons no longer shown: %s", exc, extra={"channel": channel.id})
            narrowed = Narrowed(replace(kept, verbs=()), narrowed.stale)
        except (discord.RateLimited, discord.HTTPException) as exc:  # the next change
            log.info("event buttons wait: %s", exc, extra={"channel": channel.id})
            return
        await self._desk.swept_buttons(narrowed)

    async def idle(self) -> None:
        """Wait for the work under way (tests compare what users see once all is done)."""
        await self._background.idle()

    async def close(self) -> None:
        await self._background.close()
