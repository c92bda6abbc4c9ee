"""What the ladder refuses, in words a player or admin can act on."""

from __future__ import annotations


class LadderError(Exception):
    """A ladder request that cannot be done; the message says why."""


class NotRated(LadderError):
    """A match that does not count for the ladder (bots, one account twice, aborted, ...)."""


class NotFound(LadderError):
    """No such season, result or queue entry."""
