"""The gateway: a websocket per connection, sessions that outlive them (RESUME replays
what a session missed), and the dispatches the bot hears."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from . import payloads
from .compression import Encoder, encoder_for
from .errors import json_response
from .models import Channel, Guild, User
from .world import World

DISPATCH, HEARTBEAT, IDENTIFY, RESUME, REQUEST_MEMBERS = 0, 1, 2, 6, 8
INVALID_SESSION, HELLO, HEARTBEAT_ACK = 9, 10, 11
IGNORED_OPS = {3, 4}  # presence and voice state updates
GUILDS_INTENT, MEMBERS_INTENT = 1 << 0, 1 << 1
BUFFERED = 1000  # dispatches a session keeps for RESUME


@dataclass(eq=False)
class Connection:
    """One websocket. A single writer task sends its frames in order, which the shared
    compression stream needs; an int in the queue closes the socket with that code."""

    ws: web.WebSocketResponse
    request: web.Request
    encoder: Encoder
    queue: asyncio.Queue[dict[str, Any] | int] = field(default_factory=asyncio.Queue)
    session: Session | None = None
    finished: asyncio.Event = field(default_factory=asyncio.Event)
    writer: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.writer = asyncio.create_task(self._write(), name="emulator-gateway-writer")

    def send(self, frame: dict[str, Any]) -> None:
        self.queue.put_nowait(frame)

    def close_after_pending(self, code: int) -> None:
        self.queue.put_nowait(code)

    async def _write(self) -> None:
        with contextlib.suppress(ConnectionError, RuntimeError):
            while not isinstance(item := await self.queue.get(), int):
                data = self.encoder.encode(json.dumps(item))
                if isinstance(data, bytes):
                    await self.ws.send_bytes(data)
                else:
                    await self.ws.send_str(data)
            await self.ws.close(code=item)

    async def stop(self) -> None:
        if self.writer is not None:
            self.writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.writer
        self.finished.set()


@dataclass(eq=False)
class Session:
    id: str
    intents: int
    shard: tuple[int, int]
    seq: int = 0
    buffer: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=BUFFERED))
    conn: Connection | None = None

    def dispatch(self, event: str, data: dict[str, Any]) -> None:
        self.seq += 1
        frame = {"op": DISPATCH, "t": event, "s": self.seq, "d": data}
        self.buffer.append(frame)
        if self.conn is not None:
            self.conn.send(frame)

    def owns(self, guild_id: int | None) -> bool:
        """Discord's shard formula; DMs go to shard 0."""
        shard_id, count = self.shard
        return (0 if guild_id is None else (guild_id >> 22) % count) == shard_id

    def can_resume_from(self, seq: int) -> bool:
        return not self.buffer or self.buffer[0]["s"] <= seq + 1


class Gateway:
    def __init__(self, world: World, token: str, heartbeat_interval: float) -> None:
        self.world = world
        self.token = token
        self.heartbeat_interval = heartbeat_interval
        self.url = ""
        self.sessions: dict[str, Session] = {}
        self.connections: set[Connection] = set()
        self.resumes = 0
        self.identifies = 0
        self.compressions: list[str | None] = []  # what each connection asked for

    @property
    def live_sessions(self) -> list[Session]:
        return [s for s in self.sessions.values() if s.conn is not None]

    async def handle(self, request: web.Request) -> web.StreamResponse:
        self.compressions.append(request.query.get("compress"))
        try:
            encoder = encoder_for(request.query.get("compress"))
        except ValueError as error:
            return json_response({"message": str(error), "code": 0}, status=400)
        if request.query.get("encoding", "json") != "json":
            return json_response({"message": "only encoding=json", "code": 0}, status=400)
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        conn = Connection(ws, request, encoder)
        conn.start()
        self.connections.add(conn)
        conn.send(frame(HELLO, {"heartbeat_interval": int(self.heartbeat_interval * 1000)}))
        try:
            async for message in ws:
                try:
                    payload = json.loads(message.data)
                except (TypeError, ValueError):
                    conn.close_after_pending(4002)  # decode error
                    continue
                self._on_frame(conn, payload)
        finally:
            self._detach(conn)
            await conn.stop()
        return ws

    def _detach(self, conn: Connection) -> None:
        self.connections.discard(conn)
        if conn.session is not None and conn.session.conn is conn:
            conn.session.conn = None
        self.world.changes.changed()

    def _on_frame(self, conn: Connection, message: dict[str, Any]) -> None:
        op, data = message.get("op"), message.get("d") or {}  # a payload-less frame: an empty one
        if op == HEARTBEAT:
            conn.send(frame(HEARTBEAT_ACK, None))
        elif op == IDENTIFY:
            self._identify(conn, data)
        elif op == RESUME:
            self._resume(conn, data)
        elif conn.session is None:
            conn.close_after_pending(4003)  # not authenticated
        elif op == REQUEST_MEMBERS:
            self._member_chunk(conn.session, data)
        elif op not in IGNORED_OPS:
            conn.close_after_pending(4001)  # unknown opcode

    def _identify(self, conn: Connection, data: dict[str, Any]) -> None:
        if str(data.get("token", "")).removeprefix("Bot ") != self.token:
            conn.close_after_pending(4004)
            return
        if conn.session is not None:
            conn.close_after_pending(4005)
            return
        shard = data.get("shard") or [0, 1]
        if not (isinstance(shard, list) and len(shard) == 2 and 0 <= shard[0] < shard[1]):
            conn.close_after_pending(4010)  # Discord's "invalid shard"
            return
        # sessions of this shard nobody is connected to were abandoned by this (re)identify;
        # other shards' (another process's, say) may still be resumed
        self.sessions = {
            k: s
            for k, s in self.sessions.items()
            if s.conn is not None or s.shard != (shard[0], shard[1])
        }
        session = Session(
            secrets.token_hex(16), int(data.get("intents") or 0), (shard[0], shard[1])
        )
        session.conn, conn.session = conn, session
        self.sessions[session.id] = session
        self.identifies += 1
        session.dispatch("READY", self._ready(session))
        for guild in self.world.guilds.values():
            if session.owns(guild.id):
                session.dispatch("GUILD_CREATE", self._guild_create(guild, session))
        self.world.changes.changed()

    def _ready(self, session: Session) -> dict[str, Any]:
        bot = self.world.bot
        return {
            "v": 10,
            "user": payloads.user(bot) | {"verified": True, "mfa_enabled": False, "email": None},
            "guilds": [
                {"id": str(g), "unavailable": True} for g in self.world.guilds if session.owns(g)
            ],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.url,
            "shard": list(session.shard),
            "application": {"id": str(bot.id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "user_settings": {},
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "auth": {},
            "_trace": ["tora-emulator"],
        }

    def _resume(self, conn: Connection, data: dict[str, Any]) -> None:
        session = self.sessions.get(str(data.get("session_id")))
        seq = int(data.get("seq") or 0)
        token_ok = str(data.get("token", "")).removeprefix("Bot ") == self.token
        if session is None or not token_ok or not session.can_resume_from(seq):
            conn.send(frame(INVALID_SESSION, False))
            return
        if session.conn is not None:
            session.conn.close_after_pending(4000)
        session.conn, conn.session = conn, session
        for missed in session.buffer:
            if missed["s"] > seq:
                conn.send(missed)
        session.dispatch("RESUMED", {"_trace": ["tora-emulator"]})
        self.resumes += 1
        self.world.changes.changed()

    def _member_chunk(self, session: Session, data: dict[str, Any]) -> None:
        guild = self.world.guilds.get(int(data["guild_id"]))
        if guild is None:
            return
        wanted = {int(u) for u in data.get("user_ids") or []}
        query = (data.get("query") or "").lower()
        found = [
            uid
            for uid in guild.members
            if (uid in wanted if wanted else self.world.users[uid].name.lower().startswith(query))
        ]
        limit = data.get("limit") or len(found)
        chunk = {
            "guild_id": str(guild.id),
            "members": [self._member(guild, uid) for uid in found[:limit]],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [str(u) for u in wanted - set(found)],
        }
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        session.dispatch("GUILD_MEMBERS_CHUNK", chunk)

    def _member(self, guild: Guild, user_id: int) -> dict[str, Any]:
        return payloads.member(guild.members[user_id], self.world.users[user_id])

    def _guild_create(self, guild: Guild, session: Session) -> dict[str, Any]:
        """Every member with the members intent; only the bot without it (as Discord)."""
        members = list(guild.members)
        if not session.intents & MEMBERS_INTENT:
            members = [self.world.bot.id]
        channels = [self.world.channels[c] for c in guild.channel_ids]
        channels += [
            c for c in self.world.channels.values() if c.is_thread and c.guild_id == guild.id
        ]
        return payloads.guild(guild, self.world.users, channels, members)

    # what the world tells the bot

    def on_world_event(self, event: str, subject: Any) -> None:
        for session in list(self.sessions.values()):
            self._dispatch_to(session, event, subject)

    def _dispatch_to(self, session: Session, event: str, subject: Any) -> None:
        if event == "GUILD_CREATE" and session.intents & GUILDS_INTENT:
            if session.owns(subject.id):
                session.dispatch(event, self._guild_create(subject, session))
        elif event == "GUILD_DELETE" and session.intents & GUILDS_INTENT:
            if session.owns(subject.id):
                session.dispatch(event, {"id": str(subject.id)})
        elif event in ("CHANNEL_CREATE", "THREAD_CREATE") and session.intents & GUILDS_INTENT:
            self._channel_event(session, event, subject)
        elif event == "GUILD_MEMBER_ADD" and session.intents & MEMBERS_INTENT:
            guild, user = subject
            if session.owns(guild.id):
                session.dispatch(event, self._member_add(guild, user))

    def _channel_event(self, session: Session, event: str, channel: Channel) -> None:
        if session.owns(channel.guild_id):
            data = self.world.channel_payload(channel)
            if event == "THREAD_CREATE":
                data["newly_created"] = True
            session.dispatch(event, data)

    def _member_add(self, guild: Guild, user: User) -> dict[str, Any]:
        return payloads.member(guild.members[user.id], user) | {"guild_id": str(guild.id)}

    async def drop(self, code: int | None) -> None:
        """Closes every connection: abruptly (no close frame) when ``code`` is None."""
        conns = list(self.connections)
        for conn in conns:
            if code is None:
                if conn.request.transport is not None:
                    conn.request.transport.abort()
            else:
                conn.close_after_pending(code)
        for conn in conns:
            await conn.finished.wait()

    async def close(self) -> None:
        await self.drop(1001)


def frame(op: int, data: Any) -> dict[str, Any]:
    return {"op": op, "d": data, "s": None, "t": None}
