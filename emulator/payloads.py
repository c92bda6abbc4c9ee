"""Discord's JSON shapes for the emulator's models, as discord.py 2.x parses them."""

from __future__ import annotations

import datetime as dt
from typing import Any

from .models import Channel, ChannelType, File, Guild, Member, Msg, Role, User, snowflake_time


def iso(moment: dt.datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def user(u: User) -> dict[str, Any]:
    return {
        "id": str(u.id),
        "username": u.name,
        "global_name": u.name,
        "discriminator": "0",
        "avatar": None,
        "bot": u.bot,
        "system": False,
        "public_flags": 0,
        "flags": 0,
        "banner": None,
        "accent_color": None,
        "avatar_decoration_data": None,
    }


def member(m: Member, u: User | None = None, permissions: int | None = None) -> dict[str, Any]:
    """A guild member; with ``u`` it carries its user, with ``permissions`` the
    resolved bits an interaction's member has in its channel."""
    payload: dict[str, Any] = {
        "roles": [str(r) for r in m.roles],
        "joined_at": iso(m.joined_at),
        "nick": None,
        "avatar": None,
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "flags": 0,
        "pending": False,
        "communication_disabled_until": None,
    }
    if u is not None:
        payload["user"] = user(u)
    if permissions is not None:
        payload["permissions"] = str(permissions)
    return payload


def role(r: Role) -> dict[str, Any]:
    return {
        "id": str(r.id),
        "name": r.name,
        "permissions": str(r.permissions),
        "position": r.position,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "icon": None,
        "unicode_emoji": None,
        "managed": r.managed,
        "mentionable": False,
        "flags": 0,
    }


def channel(c: Channel, users: dict[int, User]) -> dict[str, Any]:
    if c.type is ChannelType.DM:
        return {
            "id": str(c.id),
            "type": 1,
            "last_message_id": None,
            "flags": 0,
            "recipients": [user(users[c.recipient_id])] if c.recipient_id else [],
        }
    payload: dict[str, Any] = {
        "id": str(c.id),
        "type": int(c.type),
        "guild_id": str(c.guild_id),
        "name": c.name,
        "position": c.position,
        "permission_overwrites": [],
        "parent_id": None if c.parent_id is None else str(c.parent_id),
        "nsfw": False,
        "rate_limit_per_user": 0,
        "last_message_id": None,
        "flags": 0,
    }
    if c.is_thread:
        payload |= thread_fields(c)
    else:
        payload["topic"] = None
    return payload


def thread_fields(c: Channel) -> dict[str, Any]:
    created = iso(c.created_at)
    return {
        "owner_id": str(c.owner_id),
        "message_count": 0,
        "total_message_sent": 0,
        "member_count": len(c.member_ids),
        "thread_metadata": {
            "archived": False,
            "auto_archive_duration": c.auto_archive_duration,
            "archive_timestamp": created,
            "locked": False,
            "invitable": True,
            "create_timestamp": created,
        },
    }


def guild(
    g: Guild, users: dict[int, User], channels: list[Channel], member_ids: list[int]
) -> dict[str, Any]:
    """GUILD_CREATE's payload; ``member_ids`` are the members it lists (all of them only
    with the members intent, as on Discord), ``member_count`` is always the true count."""
    guild_channels = [channel(c, users) for c in channels if not c.is_thread]
    threads = [channel(c, users) for c in channels if c.is_thread]
    return {
        "id": str(g.id),
        "name": g.name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "banner": None,
        "description": None,
        "owner_id": str(g.owner_id),
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "premium_progress_bar_enabled": False,
        "preferred_locale": g.preferred_locale,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "public_updates_channel_id": None,
        "application_id": None,
        "vanity_url_code": None,
        "features": [],
        "roles": [role(r) for r in g.roles.values()],
        "emojis": [],
        "stickers": [],
        "joined_at": iso(g.members[member_ids[0]].joined_at) if member_ids else None,
        "large": False,
        "unavailable": False,
        "member_count": len(g.members),
        "members": [member(g.members[uid], users[uid]) for uid in member_ids],
        "channels": guild_channels,
        "threads": threads,
        "voice_states": [],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
    }


def attachment(f: File, base_url: str, channel_id: int) -> dict[str, Any]:
    url = f"{base_url}/attachments/{channel_id}/{f.id}/{f.name}"
    return {
        "id": str(f.id),
        "filename": f.name,
        "description": f.description,
        "content_type": f.content_type,
        "size": len(f.data),
        "url": url,
        "proxy_url": url,
        "flags": 0,
    }


def message(msg: Msg, bot: User, guild_id: int | None, base_url: str) -> dict[str, Any]:
    """A message the bot wrote; interaction replies carry the webhook and interaction ids."""
    payload: dict[str, Any] = {
        "id": str(msg.id),
        "channel_id": str(msg.channel_id),
        "author": user(bot),
        "content": msg.content,
        "timestamp": iso(snowflake_time(msg.id)),
        "edited_timestamp": iso(msg.edited_at),
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": [attachment(f, base_url, msg.channel_id) for f in msg.files],
        "embeds": msg.embeds,
        "components": msg.components,
        "pinned": False,
        "type": 0,
        "flags": msg.flags,
    }
    if guild_id is not None:
        payload["guild_id"] = str(guild_id)
    if msg.nonce is not None:
        payload["nonce"] = msg.nonce
    if msg.interaction_id is not None:
        payload["webhook_id"] = str(bot.id)
        payload["application_id"] = str(bot.id)
    return payload


def interaction_metadata(interaction_id: int, kind: int, u: User) -> dict[str, Any]:
    return {"id": str(interaction_id), "type": kind, "user": user(u)}
