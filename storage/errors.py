"""What can go wrong in the store, each with a message fit for a log line or a moderator."""

from __future__ import annotations


class StorageError(Exception):
    """Base class of every error the store raises on purpose."""


class ConfigError(StorageError, ValueError):
    """A storage setting (usually an environment variable) has an unusable value."""


class SchemaTooNew(StorageError):
    """The database was migrated by a newer version of the bot than this one."""

    def __init__(self, found: int, known: int) -> None:
        super().__init__(
            f"the database has schema version {found}, but this bot knows versions up to "
            f"{known}; run a newer bot (or restore a backup made by this version)"
        )
        self.found, self.known = found, known


class DatabaseUnavailable(StorageError):
    """The database could not be reached, though tried again on fresh connections for a few
    seconds (the server is down, or restarting slowly). A write that raises it was not
    applied, except where the message says that it cannot be told."""

    def __init__(self, detail: str) -> None:
        super().__init__(f"the database cannot be reached: {detail}")


class CannotOpen(StorageError):
    """The database could not be opened at all: a file that is no SQLite database or cannot
    be written, a PostgreSQL server that refuses the connection or cannot be reached."""

    def __init__(self, where: str, why: str) -> None:
        super().__init__(f"cannot open {where}: {why}")
        self.where, self.why = where, why


class MatchNotFound(StorageError, LookupError):
    def __init__(self, match_id: int) -> None:
        super().__init__(f"there is no match {match_id}")
        self.match_id = match_id


class StaleMatch(StorageError):
    """A write named a version of the match that is no longer the latest: someone else wrote
    in between. Nothing was written; load the match again and retry."""

    def __init__(self, match_id: int, read: int, current: int) -> None:
        super().__init__(
            f"match {match_id} changed since it was read (read at version {read}, now at "
            f"version {current}); nothing was saved: load the match again and retry"
        )
        self.match_id, self.read, self.current = match_id, read, current


class MatchClosed(StorageError):
    """The match was aborted or cancelled: nothing more is written to it."""

    def __init__(self, match_id: int, how: str) -> None:
        super().__init__(f"match {match_id} was {how}; nothing more can be saved to it")
        self.match_id, self.how = match_id, how


class CorruptMatch(StorageError):
    """A match's stored rows cannot be rebuilt into a game the rules core accepts."""

    def __init__(self, match_id: int, detail: str) -> None:
        super().__init__(f"match {match_id} cannot be loaded: {detail}")
        self.match_id, self.detail = match_id, detail


class UnknownPlayer(StorageError, LookupError):
    def __init__(self, user_id: int) -> None:
        super().__init__(f"player {user_id} is not registered; save the player first")
        self.user_id = user_id


class StaleRating(StorageError):
    """A rating change named a rating that is no longer the stored one."""

    def __init__(self, guild_id: int, player_id: int, read: float | None, current: float) -> None:
        super().__init__(
            f"the rating of player {player_id} in guild {guild_id} changed since it was read "
            f"(read {read}, now {current}); nothing was saved: read the ladder again and retry"
        )


class AlreadyRated(StorageError):
    def __init__(self, match_id: int) -> None:
        super().__init__(f"match {match_id} has already been rated")
        self.match_id = match_id


class MatchNotFinished(StorageError):
    def __init__(self, match_id: int) -> None:
        super().__init__(f"match {match_id} is not finished, so it cannot be rated yet")
        self.match_id = match_id
