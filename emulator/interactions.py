"""Interactions a test sends as a user: their kinds and the record of what the bot
answered (what the bot receives is built by ``calls``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .models import File, Msg
from .waiting import Changes

COMMAND, COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 2, 3, 4, 5


@dataclass(eq=False)
class Interaction:
    """One interaction and everything the bot did about it.

    ``settled`` once the user has a complete answer: at the first callback, except
    for the deferrals (5, 6), which settle when the original response is edited or a
    follow-up is sent."""

    id: int
    token: str
    type: int
    user_id: int
    channel_id: int
    guild_id: int | None
    sent_at: float
    changes: Changes = field(repr=False)
    payload: dict[str, Any] = field(default_factory=dict, repr=False)
    message_id: int | None = None
    first_callback_at: float | None = None
    callback_type: int | None = None
    response: Msg | None = None
    followups: list[Msg] = field(default_factory=list)
    choices: list[dict[str, Any]] | None = None
    modal: dict[str, Any] | None = None  # the modal's data, when the answer was one
    activity: str | None = None  # the Activity instance a LAUNCH_ACTIVITY answer started
    errors: list[str] = field(default_factory=list)
    settled: bool = False
    shards: list[tuple[int, int]] = field(default_factory=list)  # the sessions it went to

    @property
    def acknowledged(self) -> bool:
        return self.callback_type is not None

    @property
    def latency(self) -> float | None:
        """Seconds from the dispatch to the bot's first callback."""
        return None if self.first_callback_at is None else self.first_callback_at - self.sent_at

    @property
    def error(self) -> str | None:
        """The first thing that went wrong: an API error the bot's requests about this
        interaction got, or that it never answered (set by ``done``)."""
        return self.errors[0] if self.errors else None

    @property
    def messages(self) -> list[Msg]:
        head = [self.response] if self.response is not None else []
        return head + self.followups

    @property
    def ephemeral(self) -> list[Msg]:
        return [m for m in self.messages if m.ephemeral_to is not None]

    @property
    def text(self) -> str:
        """Everything the user was shown as text, response first, then follow-ups."""
        return "\n".join(t for m in self.messages if not m.deleted and (t := m.text()))

    @property
    def files(self) -> list[File]:
        return [f for m in self.messages if not m.deleted for f in m.files]

    async def done(self, timeout: float = 5.0) -> Interaction:
        try:
            await self.changes.wait_until(lambda: self.settled, timeout, f"interaction {self.id}")
        except TimeoutError:
            # What it was waiting for is told as it stands at the timeout, not as it was
            # when the wait began (a deferral may have come in the meantime).
            message = f"timed out after {timeout} s waiting for {self._waiting_for()}"
            self.errors.append(message)
            raise TimeoutError(message) from None
        return self

    def _waiting_for(self) -> str:
        if self.callback_type is None:
            return f"interaction {self.id}: no callback at all"
        return (
            f"interaction {self.id}: deferred ({self.callback_type}), never edited or followed up"
        )
