"""The emulator's state: who exists, where, and every message, with the lookups the
REST handlers and the driver share."""

from __future__ import annotations

import datetime as dt
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from . import messages, payloads
from .errors import (
    MAX_THREADS,
    UNKNOWN_CHANNEL,
    UNKNOWN_GUILD,
    UNKNOWN_MESSAGE,
    UNKNOWN_USER,
    ApiError,
    not_found,
)
from .interactions import Interaction
from .models import (
    ADMIN_PERMISSIONS,
    ALL_PERMISSIONS,
    BOT_PERMISSIONS,
    EPHEMERAL,
    EVERYONE_PERMISSIONS,
    LOADING,
    Channel,
    ChannelType,
    Guild,
    Member,
    Msg,
    Role,
    Snowflakes,
    User,
    walk_components,
)
from .waiting import Changes

NONCE_WINDOW = 300.0
MAX_ACTIVE_THREADS = 1000  # a server's, Discord's cap (archived ones do not count)
Listener = Callable[[str, Any], None]


class World:
    """Users, guilds, channels, messages and interactions. ``emit`` tells the gateway
    what the bot should hear about (it turns models into dispatches per session)."""

    def __init__(self, bot_name: str, emit: Listener) -> None:
        self.ids = Snowflakes()
        self.changes = Changes()
        self.emit = emit
        self.base_url = ""
        self.bot = User(self.ids.next(), bot_name, bot=True)
        self.owner = User(self.ids.next(), "server-owner")
        self.users: dict[int, User] = {self.bot.id: self.bot, self.owner.id: self.owner}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Msg] = {}
        self.by_channel: dict[int, list[Msg]] = defaultdict(list)
        self.dm_of: dict[int, int] = {}
        self.refused_dms: set[int] = set()
        self.public_log: dict[int, list[bytes]] = defaultdict(list)
        self.nonces: dict[tuple[int, str], tuple[float, Msg]] = {}
        self.interactions: dict[int, Interaction] = {}

    # who and where

    def add_guild(self, name: str, shard: tuple[int, int] | None = None) -> Guild:
        """A guild (with ``shard``: one whose id Discord routes to that shard of a count)."""
        guild_id = self.ids.next() if shard is None else self.ids.next_on_shard(*shard)
        guild = Guild(guild_id, name, self.owner.id)
        guild.admin_role_id, guild.bot_role_id = self.ids.next(), self.ids.next()
        guild.roles = {
            guild.id: Role(guild.id, "@everyone", EVERYONE_PERMISSIONS),
            guild.admin_role_id: Role(guild.admin_role_id, "Admin", ADMIN_PERMISSIONS, 2),
            guild.bot_role_id: Role(guild.bot_role_id, self.bot.name, BOT_PERMISSIONS, 1, True),
        }
        self.guilds[guild.id] = guild
        for user in self.users.values():
            self._join(guild, user)
        self.emit("GUILD_CREATE", guild)
        return guild

    def remove_guild(self, guild_id: int) -> None:
        guild = self.guild(guild_id)
        del self.guilds[guild_id]
        self.emit("GUILD_DELETE", guild)

    def add_channel(self, guild_id: int, name: str) -> Channel:
        guild = self.guild(guild_id)
        channel = Channel(self.ids.next(), ChannelType.TEXT, name, guild.id)
        channel.position = len(guild.channel_ids)
        guild.channel_ids.append(channel.id)
        self.channels[channel.id] = channel
        self.emit("CHANNEL_CREATE", channel)
        return channel

    def add_user(self, name: str, admin: bool) -> User:
        user = User(self.ids.next(), name, admin=admin)
        self.users[user.id] = user
        for guild in self.guilds.values():
            self._join(guild, user)
            self.emit("GUILD_MEMBER_ADD", (guild, user))
        return user

    def _join(self, guild: Guild, user: User) -> None:
        roles = [guild.admin_role_id] if user.admin else []
        if user is self.bot:
            roles = [guild.bot_role_id]
        guild.members[user.id] = Member(user.id, roles, dt.datetime.now(dt.UTC))

    def dm_channel(self, user_id: int) -> Channel:
        """The bot's DM channel with a user, made on first use (as Discord does)."""
        user = self.user(user_id)
        if user.id not in self.dm_of:
            channel = Channel(self.ids.next(), ChannelType.DM, recipient_id=user.id)
            self.channels[channel.id] = channel
            self.dm_of[user.id] = channel.id
        return self.channels[self.dm_of[user.id]]

    def create_thread(
        self,
        parent: Channel,
        name: str,
        kind: ChannelType,
        thread_id: int,
        owner_id: int | None = None,
    ) -> Channel:
        """A thread of ``parent`` opened by ``owner_id`` (the bot by default), refused as
        Discord does past a server's active threads (none is ever archived here)."""
        active = sum(
            1 for c in self.channels.values() if c.is_thread and c.guild_id == parent.guild_id
        )
        if active >= MAX_ACTIVE_THREADS:
            raise ApiError(400, MAX_THREADS, "Maximum number of active threads reached")
        owner = self.bot.id if owner_id is None else owner_id
        thread = Channel(thread_id, kind, name, parent.guild_id, parent.id, owner)
        thread.member_ids.add(owner)
        self.channels[thread.id] = thread
        self.public_log[parent.id].append(f"[thread] {name}\n".encode())
        self.emit("THREAD_CREATE", thread)
        self.changes.changed()
        return thread

    # lookups that answer like Discord

    def user(self, user_id: int) -> User:
        if user_id not in self.users:
            raise not_found(UNKNOWN_USER, "User")
        return self.users[user_id]

    def guild(self, guild_id: int) -> Guild:
        if guild_id not in self.guilds:
            raise not_found(UNKNOWN_GUILD, "Guild")
        return self.guilds[guild_id]

    def channel(self, channel_id: int) -> Channel:
        channel = self.channels.get(channel_id)
        if channel is None or (channel.guild_id and channel.guild_id not in self.guilds):
            raise not_found(UNKNOWN_CHANNEL, "Channel")
        return channel

    def message(self, channel_id: int, message_id: int) -> Msg:
        """A message the bot can fetch: not deleted, not ephemeral, in that channel."""
        msg = self.messages.get(message_id)
        if msg is None or msg.deleted or msg.ephemeral_to or msg.channel_id != channel_id:
            raise not_found(UNKNOWN_MESSAGE, "Message")
        return msg

    def permissions(self, user_id: int, channel: Channel) -> int:
        if channel.guild_id is None:
            return ALL_PERMISSIONS & ~(1 << 3)
        return self.guild(channel.guild_id).permissions_of(user_id)

    # messages

    def post(
        self,
        channel: Channel,
        body: messages.Body,
        *,
        ephemeral_to: int | None = None,
        interaction_id: int | None = None,
        where: str = "",
    ) -> Msg:
        msg = self._new_message(channel, ephemeral_to, interaction_id)
        nonce = body.payload.get("nonce")
        msg.nonce = None if nonce is None else str(nonce)
        messages.apply(msg, body, self.ids.next, editing=False, where=where)
        return self._store(msg)

    def placeholder(
        self, channel: Channel, *, ephemeral_to: int | None, interaction_id: int
    ) -> Msg:
        """A deferred response's "thinking" message: no content yet, flagged LOADING."""
        msg = self._new_message(channel, ephemeral_to, interaction_id)
        msg.flags |= LOADING
        return self._store(msg)

    def _new_message(
        self, channel: Channel, ephemeral_to: int | None, interaction_id: int | None
    ) -> Msg:
        msg = Msg(self.ids.next(), channel.id, self.bot.id, "")
        msg.ephemeral_to, msg.interaction_id = ephemeral_to, interaction_id
        if ephemeral_to is not None:
            msg.flags |= EPHEMERAL
        return msg

    def _store(self, msg: Msg) -> Msg:
        self.messages[msg.id] = msg
        self.by_channel[msg.channel_id].append(msg)
        self._published(msg)
        return msg

    def edit(self, msg: Msg, body: messages.Body, where: str = "") -> Msg:
        messages.apply(msg, body, self.ids.next, editing=True, where=where)
        msg.edited_at = dt.datetime.now(dt.UTC)
        self._published(msg)
        return msg

    def delete(self, msg: Msg) -> None:
        msg.deleted = True
        self.changes.changed()

    def remembered_nonce(self, channel_id: int, nonce: str) -> Msg | None:
        """The message an earlier post with this nonce made, within Discord's few minutes."""
        now = time.monotonic()
        while self.nonces and now - next(iter(self.nonces.values()))[0] >= NONCE_WINDOW:
            del self.nonces[next(iter(self.nonces))]  # the oldest: dicts keep insertion order
        entry = self.nonces.get((channel_id, nonce))
        return None if entry is None else entry[1]

    def remember_nonce(self, msg: Msg) -> None:
        if msg.nonce is not None:
            self.nonces[(msg.channel_id, msg.nonce)] = (time.monotonic(), msg)

    def _published(self, msg: Msg) -> None:
        if msg.ephemeral_to is None and (msg.text() or msg.files):
            self.public_log[msg.channel_id].append(visible_bytes(msg))
        self.changes.changed()

    def message_payload(self, msg: Msg) -> dict[str, Any]:
        guild_id = self.channels[msg.channel_id].guild_id
        payload = payloads.message(msg, self.bot, guild_id, self.base_url)
        interaction = self.interactions.get(msg.interaction_id or 0)
        if interaction is not None:
            payload["type"] = 20 if interaction.type == 2 else 0
            payload["interaction_metadata"] = payloads.interaction_metadata(
                interaction.id, interaction.type, self.users[interaction.user_id]
            )
        if msg.thread_id is not None:
            payload["thread"] = payloads.channel(self.channels[msg.thread_id], self.users)
        return payload

    def channel_payload(self, channel: Channel) -> dict[str, Any]:
        return payloads.channel(channel, self.users)


def visible_bytes(msg: Msg) -> bytes:
    """Everything a reader of ``msg`` can see or fetch, all in the payload every client
    receives: its text, its embeds' author, link and pictures, its files, every component's
    id or address and what it shows (labels, placeholders, emoji, select options) and its
    nonce."""
    blob = [msg.text().encode()]
    blob += [_embed_extras(embed).encode() for embed in msg.embeds]
    blob += [f.name.encode() + b"\n" + f.data for f in msg.files]
    shown = [_component_words(c) for c in walk_components(msg.components)]
    blob.append(("[components] " + " ".join(shown)).encode())
    blob.append(f"[nonce] {msg.nonce or ''}".encode())
    return b"\n".join(blob) + b"\n"


def _component_words(component: dict[str, Any]) -> str:
    """One component as a reader's client has it: its id or address (disabled or not),
    and every word or emoji it shows, its select options' included."""
    words = [str(component.get("custom_id", component.get("url", "")))]
    if component.get("disabled"):
        words.append("(disabled)")
    for key in ("label", "placeholder", "emoji", "content", "media"):
        if key in component:
            words.append(f"{key}={component[key]}")
    for option in component.get("options", []):
        words.append(f"option={option}")
    return " ".join(words)


def _embed_extras(embed: dict[str, Any]) -> str:
    """What an embed shows beyond ``embed_text``: its author, link, image and thumbnail."""
    parts = [
        (embed.get("author") or {}).get("name"),
        embed.get("url"),
        (embed.get("image") or {}).get("url"),
        (embed.get("thumbnail") or {}).get("url"),
    ]
    return "[embed] " + " ".join(str(part) for part in parts if part)
