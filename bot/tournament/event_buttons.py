"""Which of an event's Join and Leave buttons stopped applying, for any front end that shows
them (its announcement carries both): Join once the event takes no more entries (it is over,
its entries have closed, a round robin has started, a Swiss has paired its last round), Leave
once it is over. The messages a front end showed them in are kept in the store (the desk's
``remember_buttons``), so this works after a restart; what to do with a stale button
(disable it) is the front end's, told which by ``stale_buttons`` whenever the event may have
changed (the flow's ``watchers``)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from storage.competitions.events import REGISTERING, RUNNING, EventButtons, EventRow

from .events import is_robin

ENTER, QUIT = "enter", "quit"  # the front ends' verbs of an event's Join and Leave
EVENT_BUTTONS = (ENTER, QUIT)


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


def narrowed(kept: list[EventButtons], live: tuple[str, ...]) -> list[Narrowed]:
    """Of the ``kept`` messages, those showing a button no longer ``live``."""
    found = []
    for message in kept:
        stale = tuple(verb for verb in message.verbs if verb not in live)
        if stale:
            still = tuple(verb for verb in message.verbs if verb in live)
            found.append(Narrowed(replace(message, verbs=still), stale))
    return found
