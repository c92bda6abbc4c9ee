"""The emulator's world: users, guilds, channels and messages as plain dataclasses."""

from __future__ import annotations

import datetime as dt
import itertools
import time
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

DISCORD_EPOCH_MS = 1_420_070_400_000


class Snowflakes:
    """Discord-shaped ids: the creation time in the high bits, so discord.py's
    ``created_at`` (and its delete-message sub-limits) see plausible times."""

    def __init__(self) -> None:
        self._last = 0
        self._counter = itertools.count()

    def next(self) -> int:
        stamp = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last = max(self._last + 1, stamp | (next(self._counter) & 0xFFF))
        return self._last

    def next_on_shard(self, shard: int, count: int) -> int:
        """A guild id that Discord routes to ``shard`` of ``count``: ``(id >> 22) % count``
        (its time moved on by under ``count`` milliseconds)."""
        snowflake = self.next()
        snowflake += ((shard - (snowflake >> 22)) % count) << 22
        self._last = snowflake
        return snowflake


def snowflake_time(snowflake: int) -> dt.datetime:
    millis = (snowflake >> 22) + DISCORD_EPOCH_MS
    return dt.datetime.fromtimestamp(millis / 1000, dt.UTC)


class ChannelType(IntEnum):
    TEXT = 0
    DM = 1
    PUBLIC_THREAD = 11
    PRIVATE_THREAD = 12


class Perm(IntEnum):
    """The permission bits the emulator hands out (Discord's values)."""

    ADD_REACTIONS = 1 << 6
    ADMINISTRATOR = 1 << 3
    MANAGE_GUILD = 1 << 5
    VIEW_CHANNEL = 1 << 10
    SEND_MESSAGES = 1 << 11
    MANAGE_MESSAGES = 1 << 13
    EMBED_LINKS = 1 << 14
    ATTACH_FILES = 1 << 15
    READ_MESSAGE_HISTORY = 1 << 16
    USE_APPLICATION_COMMANDS = 1 << 31
    MANAGE_THREADS = 1 << 34
    CREATE_PUBLIC_THREADS = 1 << 35
    CREATE_PRIVATE_THREADS = 1 << 36
    SEND_MESSAGES_IN_THREADS = 1 << 38


ALL_PERMISSIONS = (1 << 53) - 1
EVERYONE_PERMISSIONS = (
    Perm.VIEW_CHANNEL
    | Perm.SEND_MESSAGES
    | Perm.EMBED_LINKS
    | Perm.ATTACH_FILES
    | Perm.READ_MESSAGE_HISTORY
    | Perm.ADD_REACTIONS
    | Perm.USE_APPLICATION_COMMANDS
    | Perm.CREATE_PUBLIC_THREADS
    | Perm.SEND_MESSAGES_IN_THREADS
)
ADMIN_PERMISSIONS = Perm.ADMINISTRATOR | Perm.MANAGE_GUILD
BOT_PERMISSIONS = (
    EVERYONE_PERMISSIONS | Perm.MANAGE_MESSAGES | Perm.MANAGE_THREADS | Perm.CREATE_PRIVATE_THREADS
)

# message flags
EPHEMERAL = 1 << 6
LOADING = 1 << 7


@dataclass
class User:
    id: int
    name: str
    bot: bool = False
    admin: bool = False
    locale: str = "en-US"  # the language the user's Discord client shows (Discord's code)


@dataclass
class Role:
    id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False


@dataclass
class Member:
    user_id: int
    roles: list[int]
    joined_at: dt.datetime


@dataclass
class Guild:
    id: int
    name: str
    owner_id: int
    roles: dict[int, Role] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    channel_ids: list[int] = field(default_factory=list)
    admin_role_id: int = 0
    bot_role_id: int = 0
    preferred_locale: str = "en-US"  # the server's language (Community settings)

    def permissions_of(self, user_id: int) -> int:
        """Guild-wide permissions: every role's bits, all of them for admins and the owner."""
        if user_id == self.owner_id:
            return ALL_PERMISSIONS
        member = self.members.get(user_id)
        bits = self.roles[self.id].permissions
        for role_id in member.roles if member else ():
            bits |= self.roles[role_id].permissions
        return ALL_PERMISSIONS if bits & Perm.ADMINISTRATOR else bits


@dataclass
class Channel:
    """A guild text channel, a thread, or the bot's DM channel with one user."""

    id: int
    type: ChannelType
    name: str = ""
    guild_id: int | None = None
    parent_id: int | None = None
    owner_id: int | None = None
    recipient_id: int | None = None
    position: int = 0
    member_ids: set[int] = field(default_factory=set)
    auto_archive_duration: int = 1440
    created_at: dt.datetime = field(default_factory=lambda: dt.datetime.now(dt.UTC))

    @property
    def is_thread(self) -> bool:
        return self.type in (ChannelType.PUBLIC_THREAD, ChannelType.PRIVATE_THREAD)


@dataclass
class File:
    """An attachment as stored: its bytes exactly as uploaded."""

    name: str
    data: bytes
    content_type: str
    id: int = 0
    description: str | None = None


@dataclass(eq=False)
class Msg:
    """One message as a user would see it; edits change it in place."""

    id: int
    channel_id: int
    author_id: int
    content: str
    files: list[File] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    embeds: list[dict[str, Any]] = field(default_factory=list)
    ephemeral_to: int | None = None
    interaction_id: int | None = None
    created_at: dt.datetime = field(default_factory=lambda: dt.datetime.now(dt.UTC))
    stored_at: float = field(default_factory=time.monotonic)  # the clock of ``sent_at``
    nonce: str | None = None
    flags: int = 0
    edited_at: dt.datetime | None = None
    deleted: bool = False
    thread_id: int | None = None
    pinged: frozenset[str] = frozenset()  # "user:<id>", "role:<id>", "everyone", "here"

    @property
    def loading(self) -> bool:
        """A deferred response that is still "thinking"."""
        return bool(self.flags & LOADING)

    def text(self) -> str:
        """The content and the embeds' text, as one string."""
        parts = [self.content] if self.content else []
        parts.extend(embed_text(embed) for embed in self.embeds)
        return "\n".join(part for part in parts if part)

    def buttons(self) -> list[dict[str, Any]]:
        """Every button on the message, however deeply its layout nests it."""
        return [c for c in walk_components(self.components) if c.get("type") == 2]


def embed_text(embed: dict[str, Any]) -> str:
    parts = [embed.get("title"), embed.get("description")]
    for item in embed.get("fields", []):
        parts += [item.get("name"), item.get("value")]
    parts.append((embed.get("footer") or {}).get("text"))
    return "\n".join(part for part in parts if part)


def walk_components(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Flattens action rows, containers, sections and their accessories."""
    found: list[dict[str, Any]] = []
    for component in components:
        found.append(component)
        found.extend(walk_components(component.get("components", [])))
        if "accessory" in component:
            found.extend(walk_components([component["accessory"]]))
    return found
