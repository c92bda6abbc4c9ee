"""Which of an event's Join and Leave buttons stopped applying, for any front end that shows
them (its announcement carries both): Join once the event takes no more entries (it is over,
its entries have closed, a round robin has started, a Swiss has paired its last round), Leave
once it is over. The messages a front end showed them in are kept through the store
(``remember``), so this works after a restart; what to do with a stale button (disable it)
is the front end's, told which by ``sweep`` whenever the event may have changed."""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.tournament.event_desk import EventDesk
from bot.tournament.events import is_robin
from storage.competitions.events import REGISTERING, RUNNING, EventButtons, EventRow

ENTER, QUIT = "enter", "quit"
EVENT_BUTTONS = (ENTER, QUIT)  # an event's announcement: Join, Leave


def applying(event: EventRow | None, now: float) -> tuple[str, ...]:
    """The buttons of ``event`` (None: it is gone) that still apply at ``now``: those the
    desk would not refuse for the event's state, whoever presses them (a full event's Join
    stays: an entry may leave)."""
    if event is None or event.status not in (REGISTERING, RUNNING):
        return ()
    if event.entry_closes is not None and now > event.entry_closes:
        return (QUIT,)
    if event.status == RUNNING and (is_robin(event) or event.round >= event.rounds):
        return (QUIT,)
    return EVENT_BUTTONS


@dataclass(frozen=True)
class Narrowed:
    """A kept message whose buttons ``stale`` stopped applying; ``kept`` as it is once they
    are disabled (its ``verbs`` those still enabled)."""

    kept: EventButtons
    stale: tuple[str, ...]


class EventSweeping:
    def __init__(self, desk: EventDesk) -> None:
        self._desk = desk

    async def remember(self, event_id: int, channel_id: int, message_id: int) -> None:
        """A message went out with the event's buttons."""
        await self._desk.keep_buttons(EventButtons(channel_id, message_id, event_id, EVENT_BUTTONS))

    async def sweep(self, event_id: int) -> list[Narrowed]:
        """The event's kept messages with buttons that stopped applying."""
        event, kept = await self._desk.kept_buttons(event_id)
        live = applying(event, self._desk.now())
        found = []
        for message in kept:
            stale = tuple(verb for verb in message.verbs if verb not in live)
            if stale:
                still = tuple(verb for verb in message.verbs if verb in live)
                found.append(Narrowed(replace(message, verbs=still), stale))
        return found

    async def swept(self, narrowed: Narrowed) -> None:
        """The front end disabled ``narrowed.stale`` (or can never: the message is gone)."""
        await self._desk.narrow_buttons(narrowed.kept)
