"""Refusals: every request the service turns down raises one, with a message fit to show
the user who asked (privately). A refusal changes nothing. ``DatabaseUnavailable`` (the
store's) is no refusal, but its words are fit to show too."""

from __future__ import annotations

from bot.i18n import N_, word
from rules import ActionError
from storage import DatabaseUnavailable

__all__ = [
    "UNAVAILABLE",
    "ActionRefused",
    "DatabaseUnavailable",
    "NotAllowed",
    "RateLimited",
    "Refused",
    "StaleRequest",
]

# In English as it stands (the web board's); a command's answer shows ``_(UNAVAILABLE)``.
UNAVAILABLE = N_(
    "The match database is not answering just now (it is restarting, or down). Please try "
    "again in a minute; if you changed something, look with `/tora board` whether it was kept."
)


class Refused(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NotAllowed(Refused):
    """The user may not do this here or now (not a player, not their turn, not an admin)."""


class RateLimited(Refused):
    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class StaleRequest(Refused):
    """The request was made for an earlier state of the match, or lost a race to another."""


class ActionRefused(Refused):
    """The rules core refused an action; ``error`` is its reason (R-numbered), worded in
    the language of the caller (the refusal is made during their request)."""

    def __init__(self, error: ActionError) -> None:
        super().__init__(word(error.message))
        self.error = error
