"""Channel routes: messages (with nonce de-duplication), DMs (and refused DMs),
threads and their members; the bot's posts and threads refused where its permissions
do not allow them."""

from __future__ import annotations

from aiohttp import web

from .errors import (
    CANNOT_DM,
    MISSING_ACCESS,
    MISSING_PERMISSIONS,
    ApiError,
    invalid_form,
    json_response,
)
from .messages import read_body
from .models import Channel, ChannelType, Perm
from .rest import Handler, api_of, no_content, snowflake
from .world import World

THREAD_EXISTS = 160004
WRONG_CHANNEL_TYPE = 50024


def _channel(request: web.Request) -> Channel:
    return api_of(request).world.channel(snowflake(request, "channel_id"))


async def get_channel(request: web.Request) -> web.Response:
    return json_response(api_of(request).world.channel_payload(_channel(request)))


def _allowed(world: World, channel: Channel, *needed: Perm) -> None:
    """Refused as Discord refuses the bot in a server's channel: 403 50001 without View
    Channel, 403 50013 without any of ``needed``."""
    if channel.guild_id is None:
        return
    have = world.permissions(world.bot.id, channel)
    if not have & Perm.VIEW_CHANNEL:
        raise ApiError(403, MISSING_ACCESS, "Missing Access")
    if any(not have & perm for perm in needed):
        raise ApiError(403, MISSING_PERMISSIONS, "Missing Permissions")


async def post_message(request: web.Request) -> web.Response:
    """With ``enforce_nonce``, a nonce seen in this channel within a few minutes
    returns that first message and creates nothing (Discord's idempotency). The bot
    needs Send Messages (in a thread: Send Messages in Threads), and Attach Files for
    files."""
    world = api_of(request).world
    channel = _channel(request)
    body = await read_body(request)
    send = Perm.SEND_MESSAGES_IN_THREADS if channel.is_thread else Perm.SEND_MESSAGES
    _allowed(world, channel, send, *([Perm.ATTACH_FILES] if body.uploads else []))
    if channel.type is ChannelType.DM and channel.recipient_id in world.refused_dms:
        raise ApiError(403, CANNOT_DM, "Cannot send messages to this user")
    nonce = body.payload.get("nonce")
    enforce = nonce is not None and body.payload.get("enforce_nonce")
    if enforce and (earlier := world.remembered_nonce(channel.id, str(nonce))) is not None:
        return json_response(world.message_payload(earlier))
    msg = world.post(channel, body)
    if enforce:
        world.remember_nonce(msg)
    return json_response(world.message_payload(msg))


async def history(request: web.Request) -> web.Response:
    """Newest first, as Discord pages them (``limit``, ``before``, ``after``)."""
    world = api_of(request).world
    channel = _channel(request)
    limit = min(int(request.query.get("limit", 50)), 100)
    before = int(request.query.get("before", 1 << 63))
    after = int(request.query.get("after", 0))
    found = [
        m
        for m in reversed(world.by_channel[channel.id])
        if not m.deleted and m.ephemeral_to is None and after < m.id < before
    ]
    return json_response([world.message_payload(m) for m in found[:limit]])


async def get_message(request: web.Request) -> web.Response:
    """The bot needs View Channel and Read Message History to read a message."""
    world = api_of(request).world
    channel = _channel(request)
    _allowed(world, channel, Perm.READ_MESSAGE_HISTORY)
    msg = world.message(channel.id, snowflake(request, "message_id"))
    return json_response(world.message_payload(msg))


async def edit_message(request: web.Request) -> web.Response:
    world = api_of(request).world
    msg = world.message(_channel(request).id, snowflake(request, "message_id"))
    return json_response(world.message_payload(world.edit(msg, await read_body(request))))


async def delete_message(request: web.Request) -> web.Response:
    world = api_of(request).world
    world.delete(world.message(_channel(request).id, snowflake(request, "message_id")))
    return no_content()


async def typing(request: web.Request) -> web.Response:
    _channel(request)
    return no_content()


async def open_dm(request: web.Request) -> web.Response:
    world = api_of(request).world
    payload = await request.json()
    recipient = world.user(int(payload.get("recipient_id", 0)))
    return json_response(world.channel_payload(world.dm_channel(recipient.id)))


def _thread_name(name: object) -> str:
    if not isinstance(name, str) or not 1 <= len(name) <= 100:
        raise invalid_form("name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
    return name


def _thread_parent(request: web.Request) -> Channel:
    parent = _channel(request)
    if parent.type is not ChannelType.TEXT:
        raise ApiError(400, WRONG_CHANNEL_TYPE, "Cannot execute action on this channel type")
    return parent


async def start_thread(request: web.Request) -> web.Response:
    world = api_of(request).world
    parent = _thread_parent(request)
    payload = await request.json()
    kind = ChannelType(payload.get("type") or ChannelType.PRIVATE_THREAD)
    if kind not in (ChannelType.PUBLIC_THREAD, ChannelType.PRIVATE_THREAD):
        raise invalid_form("type", "BASE_TYPE_CHOICES", "Value must be one of (11, 12).")
    public = kind is ChannelType.PUBLIC_THREAD
    _allowed(world, parent, Perm.CREATE_PUBLIC_THREADS if public else Perm.CREATE_PRIVATE_THREADS)
    thread = world.create_thread(parent, _thread_name(payload.get("name")), kind, world.ids.next())
    return json_response(world.channel_payload(thread), status=201)


async def start_thread_from_message(request: web.Request) -> web.Response:
    """The thread takes the message's id, as on Discord."""
    world = api_of(request).world
    parent = _thread_parent(request)
    _allowed(world, parent, Perm.CREATE_PUBLIC_THREADS)
    msg = world.message(parent.id, snowflake(request, "message_id"))
    if msg.thread_id is not None:
        raise ApiError(400, THREAD_EXISTS, "A thread has already been created for this message")
    payload = await request.json()
    name = _thread_name(payload.get("name"))
    thread = world.create_thread(parent, name, ChannelType.PUBLIC_THREAD, msg.id)
    msg.thread_id = thread.id
    return json_response(world.channel_payload(thread), status=201)


def _thread_and_member(request: web.Request) -> tuple[Channel, int]:
    world = api_of(request).world
    thread = _channel(request)
    if not thread.is_thread:
        raise ApiError(400, WRONG_CHANNEL_TYPE, "Cannot execute action on this channel type")
    raw = request.match_info["user_id"]
    user_id = world.bot.id if raw == "@me" else world.user(snowflake(request, "user_id")).id
    return thread, user_id


async def add_thread_member(request: web.Request) -> web.Response:
    thread, user_id = _thread_and_member(request)
    thread.member_ids.add(user_id)
    api_of(request).world.changes.changed()
    return no_content()


async def remove_thread_member(request: web.Request) -> web.Response:
    thread, user_id = _thread_and_member(request)
    thread.member_ids.discard(user_id)
    api_of(request).world.changes.changed()
    return no_content()


ROUTES: list[tuple[str, str, Handler]] = [
    ("POST", "/users/@me/channels", open_dm),
    ("GET", "/channels/{channel_id}", get_channel),
    ("POST", "/channels/{channel_id}/typing", typing),
    ("GET", "/channels/{channel_id}/messages", history),
    ("POST", "/channels/{channel_id}/messages", post_message),
    ("GET", "/channels/{channel_id}/messages/{message_id}", get_message),
    ("PATCH", "/channels/{channel_id}/messages/{message_id}", edit_message),
    ("DELETE", "/channels/{channel_id}/messages/{message_id}", delete_message),
    ("POST", "/channels/{channel_id}/threads", start_thread),
    ("POST", "/channels/{channel_id}/messages/{message_id}/threads", start_thread_from_message),
    ("PUT", "/channels/{channel_id}/thread-members/{user_id}", add_thread_member),
    ("DELETE", "/channels/{channel_id}/thread-members/{user_id}", remove_thread_member),
]
