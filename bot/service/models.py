"""What callers pass in and get back."""

from __future__ import annotations

from dataclasses import dataclass

from .ports import Attachment


@dataclass(frozen=True)
class User:
    """A person as the front end knows them; ``name`` is how messages call them."""

    id: int
    name: str


@dataclass(frozen=True)
class Place:
    """The channel or thread a command was given in, and its server."""

    guild_id: int
    channel_id: int


@dataclass(frozen=True)
class Reply:
    """The answer to a command, for the user who gave it. ``private``: show it only to them
    (it may hold their staged actions or their hidden Assassin). ``stamp`` is the match's
    state version after the command: pass it back as ``expect`` with a later command (e.g.
    from a button on this reply) to have that command refused if the match has moved on."""

    text: str
    files: tuple[Attachment, ...] = ()
    private: bool = True
    stamp: int | None = None
