"""The driver: one object a test (or the demo) uses to run the emulator, act as users
and read what the bot did."""

from __future__ import annotations

import base64
import secrets
import time
from collections.abc import Callable
from typing import Any, TypeVar

from aiohttp import web

from . import channels, oauth, rest, webhooks
from .activities import Activities
from .calls import CommandCall, interaction_payload, visible_command
from .commands import Commands
from .discordpy import point_discord_at
from .faults import RateLimits, Stall
from .gateway import Gateway
from .interactions import AUTOCOMPLETE, COMMAND, COMPONENT, MODAL_SUBMIT, Interaction
from .messages import LABEL, TEXT_INPUT
from .models import Channel, ChannelType, Msg, User, walk_components
from .rest import Api, RequestRecord
from .world import World

Predicate = Callable[[Msg], bool]
T = TypeVar("T")


class Emulator:
    """Discord's gateway and REST API for one bot, on localhost.

    ``callback_deadline`` is Discord's 3 s to answer an interaction (later callbacks
    get 404/10062); ``rate_limit`` is (requests, seconds) per route bucket."""

    def __init__(
        self,
        bot_name: str = "TORA",
        heartbeat_interval: float = 41.25,
        *,
        callback_deadline: float = 3.0,
        rate_limit: tuple[int, float] = (50, 1.0),
    ) -> None:
        self.world = World(
            bot_name, lambda event, subject: self.gateway.on_world_event(event, subject)
        )
        prefix = base64.b64encode(str(self.world.bot.id).encode()).decode().rstrip("=")
        self.token = f"{prefix}.{secrets.token_urlsafe(4)}.{secrets.token_urlsafe(27)}"
        self.gateway = Gateway(self.world, self.token, heartbeat_interval)
        self.duplicate_interactions = False  # deliver each to every session of the bot
        self.api = Api(
            self.world,
            self.gateway,
            Commands(self.world.ids, self.world.bot.id),
            self.token,
            limits=RateLimits(*rate_limit),
            callback_deadline=callback_deadline,
        )
        self.api_base = ""
        self.gateway_url = ""
        self._runner: web.AppRunner | None = None

    # lifecycle

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> None:
        routes = rest.ROUTES + channels.ROUTES + webhooks.ROUTES + oauth.ROUTES
        app = rest.build_app(self.api, routes)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        bound = self._runner.addresses[0][1]
        self.world.base_url = f"http://{host}:{bound}"
        self.api_base = f"{self.world.base_url}/api/v10"
        self.gateway_url = self.gateway.url = f"ws://{host}:{bound}/gateway"

    async def stop(self) -> None:
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> Emulator:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    def point_discord(self) -> Callable[[], None]:
        """Points discord.py (process-wide) at this emulator; returns the undo."""
        return point_discord_at(self.api_base, self.gateway_url)

    @property
    def bot_id(self) -> int:
        return self.world.bot.id

    @property
    def application_id(self) -> int:
        return self.world.bot.id

    @property
    def resumes(self) -> int:
        return self.gateway.resumes

    @property
    def identifies(self) -> int:
        return self.gateway.identifies

    @property
    def activities(self) -> Activities:
        """The Activities launched, and what the Discord client does for their SDK
        (``authorize``: a code for a user)."""
        return self.api.activities

    @property
    def requests(self) -> list[RequestRecord]:
        """(method, path below the API base, status, monotonic time) of every REST call."""
        return self.api.log

    @property
    def malformed(self) -> list[str]:
        """The requests Discord would refuse as written (``rest.AS_WRITTEN``): a post past
        its limits, a component it does not take, a message of nothing, an upload too
        large... ("METHOD path: errors")."""
        return self.api.malformed

    async def wait_ready(self, timeout: float = 10.0, sessions: int = 1) -> None:
        """The bot identified (or resumed) and was sent READY and its guilds: ``sessions``
        gateway sessions at once (one per shard, over every process of the bot)."""
        await self.wait_until(
            lambda: len(self.gateway.live_sessions) >= sessions,
            timeout,
            f"{sessions} gateway session(s) of the bot",
        )

    async def wait_until(
        self, check: Callable[[], T | None], timeout: float = 5.0, what: str = "a condition"
    ) -> T:
        return await self.world.changes.wait_until(check, timeout, what)

    # the world

    def add_guild(self, name: str, shard: tuple[int, int] | None = None) -> int:
        """A guild; with ``shard`` (id, count), one whose events go to that shard."""
        return self.world.add_guild(name, shard).id

    def remove_guild(self, guild_id: int) -> None:
        self.world.remove_guild(guild_id)

    def add_channel(self, guild_id: int, name: str) -> int:
        return self.world.add_channel(guild_id, name).id

    def revoke(self, guild_id: int, permissions: int) -> None:
        """Takes ``permissions`` from every role of the server, the bot's included (as an
        admin's overwrite would): the bot's posts and threads needing them are refused,
        and interactions show it in ``app_permissions``."""
        for role in self.world.guild(guild_id).roles.values():
            role.permissions &= ~permissions

    def add_thread(self, channel_id: int, name: str, owner: int) -> int:
        """A public thread a member opens in a text channel (THREAD_CREATE); it counts
        toward the server's 1,000 active threads as the bot's own do."""
        parent = self.world.channel(channel_id)
        kind = ChannelType.PUBLIC_THREAD
        return self.world.create_thread(parent, name, kind, self.world.ids.next(), owner).id

    def add_user(self, name: str, admin: bool = False) -> int:
        """A member of every guild, now and later; admins hold ADMINISTRATOR and MANAGE_GUILD."""
        return self.world.add_user(name, admin).id

    def dm_channel(self, user_id: int) -> int:
        return self.world.dm_channel(user_id).id

    def channel(self, channel_id: int) -> Channel:
        return self.world.channel(channel_id)

    def commands(self, guild_id: int | None = None) -> list[dict[str, Any]]:
        return self.api.commands.of_scope(guild_id)

    # acting as users

    async def slash(
        self,
        user: int,
        channel: int,
        /,
        *path: str,
        group: str | None = None,
        options: list[dict[str, Any]] | None = None,
        **values: Any,
    ) -> Interaction:
        """``slash(u, c, "tora", "act", action="...")``, ``slash(u, c, "tora settings
        deadline", hours=2)`` or ``slash(u, c, "tora", "deadline", group="settings")``."""
        data = self._command_data(user, channel, path, group, options, values, None)
        return self._send(COMMAND, user, channel, data)

    async def autocomplete(
        self,
        user: int,
        channel: int,
        /,
        *path: str,
        focused: str,
        group: str | None = None,
        timeout: float = 5.0,
        **values: Any,
    ) -> list[dict[str, Any]]:
        """The choices the bot offers while ``focused`` holds ``values[focused]``."""
        data = self._command_data(user, channel, path, group, None, values, focused)
        record = self._send(AUTOCOMPLETE, user, channel, data)
        await record.done(timeout)
        return record.choices or []

    async def click(self, user: int, message_id: int, custom_id: str) -> Interaction:
        return self._component(user, message_id, custom_id, None)

    async def select(
        self, user: int, message_id: int, custom_id: str, values: list[str]
    ) -> Interaction:
        return self._component(user, message_id, custom_id, values)

    async def submit_modal(
        self, user: int, opened_by: Interaction, values: dict[str, str]
    ) -> Interaction:
        """Submits the modal the bot answered ``opened_by`` with; ``values`` by custom_id
        (the text inputs not given, empty), as the client would: refused (``ValueError``)
        with an input the modal lacks, a required one empty, or a value outside its
        lengths. Its text inputs only, in rows or labels as the modal holds them."""
        if opened_by.modal is None:
            raise ValueError(f"interaction {opened_by.id} was not answered with a modal")
        inputs = modal_inputs(opened_by.modal)
        unknown = set(values) - {text_input["custom_id"] for _, text_input in inputs}
        if unknown:
            raise ValueError(f"the modal has no input {', '.join(map(repr, sorted(unknown)))}")
        rows = []
        for kind, text_input in inputs:
            key = text_input["custom_id"]
            check_typed(text_input, values.get(key, ""))
            typed = {"type": 4, "custom_id": key, "value": values.get(key, "")}
            rows.append(holding(kind, typed))
        data = {"custom_id": opened_by.modal["custom_id"], "components": rows}
        return self._send(MODAL_SUBMIT, user, opened_by.channel_id, data, opened_by.message_id)

    def _command_data(
        self,
        user: int,
        channel: int,
        path: tuple[str, ...],
        group: str | None,
        options: list[dict[str, Any]] | None,
        values: dict[str, Any],
        focused: str | None,
    ) -> dict[str, Any]:
        words = " ".join(path).split()
        if not words:
            raise ValueError("name the command")
        name, rest_of_path = words[0], words[1:]
        if group is not None:
            rest_of_path.insert(0, group)
        where = self.world.channel(channel)
        who = self.world.user(user)
        found = self.api.commands.find(name, where.guild_id)
        if options is not None:
            return {
                "id": found["id"] if found else "0",
                "name": name,
                "type": 1,
                "options": options,
            }
        command = visible_command(self.world, found, who, where)
        return CommandCall(self.world, command, who, where).data(rest_of_path, values, focused)

    def _component(
        self, user: int, message_id: int, custom_id: str, values: list[str] | None
    ) -> Interaction:
        msg = self.world.messages.get(message_id)
        if msg is None or msg.deleted:
            raise ValueError(f"no message {message_id}")
        if msg.ephemeral_to not in (None, user):
            raise ValueError(f"message {message_id} is ephemeral to someone else")
        component = next(
            (c for c in walk_components(msg.components) if c.get("custom_id") == custom_id), None
        )
        if component is None:
            raise ValueError(f"message {message_id} has no component {custom_id!r}")
        if component.get("disabled"):
            raise ValueError(f"component {custom_id!r} is disabled")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component["type"]}
        if values is not None:
            check_selection(component, values)
            data["values"] = values
        return self._send(COMPONENT, user, msg.channel_id, data, msg.id)

    def _send(
        self,
        kind: int,
        user_id: int,
        channel_id: int,
        data: dict[str, Any],
        message_id: int | None = None,
    ) -> Interaction:
        world = self.world
        user, channel = world.user(user_id), world.channel(channel_id)
        self._check_presence(user, channel)
        record = Interaction(
            world.ids.next(),
            f"emu-{secrets.token_urlsafe(48)}",
            kind,
            user.id,
            channel.id,
            channel.guild_id,
            time.monotonic(),
            world.changes,
            message_id=message_id,
        )
        message = world.messages.get(message_id) if message_id is not None else None
        record.payload = interaction_payload(world, record, user, channel, data, message)
        world.interactions[record.id] = record
        self.api.tokens[record.token] = record
        if not self.gateway.sessions:
            record.errors.append("no gateway session: the bot is not connected")
        self.deliver(record, everywhere=self.duplicate_interactions)
        return record

    def deliver(self, record: Interaction, *, everywhere: bool = False) -> None:
        """Dispatch an interaction to the session that owns its guild's shard (DMs: shard
        0; a session being resumed gets it on resuming); ``everywhere``: to every session,
        as a duplicate delivery would (each process of a bot gets it once)."""
        for session in list(self.gateway.sessions.values()):
            if everywhere or session.owns(record.guild_id):
                record.shards.append(session.shard)
                session.dispatch("INTERACTION_CREATE", record.payload)

    def _check_presence(self, user: User, channel: Channel) -> None:
        if channel.recipient_id is not None and channel.recipient_id != user.id:
            raise ValueError(f"{user.name} cannot act in another user's DM channel")
        if (
            channel.guild_id is not None
            and user.id not in self.world.guild(channel.guild_id).members
        ):
            raise ValueError(f"{user.name} is not a member of guild {channel.guild_id}")

    # faults

    def fail_next(
        self,
        method: str,
        path_regex: str,
        status: int = 429,
        retry_after: float = 0.3,
        count: int = 1,
        global_: bool = False,
    ) -> None:
        """The next ``count`` requests whose path (below the API base, e.g.
        ``/channels/1/messages``) matches get ``status``; ``method`` may be ``*``."""
        self.api.faults.add(method, path_regex, status, retry_after, count, global_)

    def stall(self, method: str, path_regex: str, carried: bool = False) -> Stall:
        """Hold the next request whose path matches until ``release()``: its ``reached``
        event is set once it arrives (kill the bot then, say). A request whose client is
        gone when released is dropped, never carried out; with ``carried`` it is carried
        out at once and only its answer is held."""
        return self.api.faults.stall(method, path_regex, carried)

    async def drop_gateway(self, code: int | None = None) -> None:
        """Closes the bot's websocket: abruptly (no close frame) when ``code`` is None,
        else with that code (4000 and most others: discord.py resumes)."""
        await self.gateway.drop(code)

    def refuse_dms(self, user_id: int, refuse: bool = True) -> None:
        """Posts to this user's DM channel get 403/50007, as when they closed their DMs."""
        if refuse:
            self.world.refused_dms.add(user_id)
        else:
            self.world.refused_dms.discard(user_id)

    # transcripts

    def messages(self, channel_id: int) -> list[Msg]:
        """Everything in the channel in order, ephemeral messages too (``ephemeral_to``)."""
        return [m for m in self.world.by_channel.get(channel_id, []) if not m.deleted]

    def public_messages(self, channel_id: int) -> list[Msg]:
        return [m for m in self.messages(channel_id) if m.ephemeral_to is None]

    def dms(self, user_id: int) -> list[Msg]:
        channel_id = self.world.dm_of.get(user_id)
        return [] if channel_id is None else self.messages(channel_id)

    def last_message(self, channel_id: int) -> Msg | None:
        found = self.messages(channel_id)
        return found[-1] if found else None

    def threads(self, parent_id: int) -> list[int]:
        return [c.id for c in self.world.channels.values() if c.parent_id == parent_id]

    def thread_of(self, channel_id: int) -> int | None:
        """The newest thread started in that channel."""
        found = self.threads(channel_id)
        return found[-1] if found else None

    def interaction(self, interaction_id: int) -> Interaction:
        return self.world.interactions[interaction_id]

    def find_button(
        self, channel_id: int, label: str, *, user: int | None = None
    ) -> tuple[int, str]:
        """(message id, custom_id) of the newest message with an enabled button so
        labelled; with ``user``, among the messages that user can see."""
        for msg in reversed(self.messages(channel_id)):
            if user is not None and msg.ephemeral_to not in (None, user):
                continue
            for button in msg.buttons():
                usable = "custom_id" in button and not button.get("disabled")
                if button.get("label") == label and usable:
                    return msg.id, button["custom_id"]
        raise LookupError(f"no button {label!r} in channel {channel_id}")

    def find_link(self, channel_id: int, label: str, *, user: int | None = None) -> str:
        """The address of the newest link button so labelled in the channel (with ``user``:
        among the messages that user can see)."""
        for msg in reversed(self.messages(channel_id)):
            if user is not None and msg.ephemeral_to not in (None, user):
                continue
            for button in msg.buttons():
                if button.get("label") == label and "url" in button:
                    return str(button["url"])
        raise LookupError(f"no link {label!r} in channel {channel_id}")

    def public_versions(self, channel_id: int) -> list[bytes]:
        """What ``everything_public`` joins: every version of every public message (and
        thread name) of the channel and its threads, in the order they were shown."""
        ids = [channel_id, *self.threads(channel_id)]
        return [blob for i in ids for blob in self.world.public_log.get(i, [])]

    def everything_public(self, channel_id: int) -> bytes:
        """Every public text and file byte ever shown in the channel and its threads,
        edits' earlier versions and deleted messages included (ephemeral ones never)."""
        ids = [channel_id, *self.threads(channel_id)]
        return b"".join(b"".join(self.world.public_log.get(i, [])) for i in ids)

    async def wait_for_message(
        self, channel_id: int, predicate: Predicate | None = None, timeout: float = 5.0
    ) -> Msg:
        """The first message in the channel (existing ones included, edits re-checked,
        "thinking" ones skipped) that satisfies ``predicate``."""
        return await self.wait_until(
            lambda: _first(self.messages(channel_id), predicate),
            timeout,
            f"a message in {channel_id}",
        )

    async def wait_for_dm(
        self, user_id: int, predicate: Predicate | None = None, timeout: float = 5.0
    ) -> Msg:
        return await self.wait_until(
            lambda: _first(self.dms(user_id), predicate), timeout, f"a DM to {user_id}"
        )


def check_selection(menu: dict[str, Any], values: list[str]) -> None:
    """What a select menu lets a user pick: its options' values, within its bounds."""
    offered = [option["value"] for option in menu.get("options", [])]
    if offered and not set(values) <= set(offered):
        raise ValueError(f"{values} not among the options {offered}")
    if not menu.get("min_values", 1) <= len(values) <= menu.get("max_values", 1):
        raise ValueError(f"{len(values)} values is not what select {menu['custom_id']!r} allows")


def modal_inputs(modal: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    """A modal's text inputs, each with the kind of component holding it (a row, a label)."""
    found = []
    for part in modal.get("components") or []:
        kind = part.get("type")
        inner = [part.get("component") or {}] if kind == LABEL else part.get("components") or []
        found += [(kind, c) for c in inner if c.get("type") == TEXT_INPUT]
    return found


def holding(kind: int, typed: dict[str, Any]) -> dict[str, Any]:
    """A submitted text input in what held it in the modal: a label, or an action row."""
    if kind == LABEL:
        return {"type": kind, "component": typed}
    return {"type": kind, "components": [typed]}


def check_typed(text_input: dict[str, Any], value: str) -> None:
    """What a modal's text input lets a user submit: something when it is required (as it
    is by default), and a value within its lengths when there is one."""
    name = text_input["custom_id"]
    if not value:
        if text_input.get("required", True):
            raise ValueError(f"input {name!r} is required")
        return
    least, most = text_input.get("min_length", 0), text_input.get("max_length", 4000)
    if not least <= len(value) <= most:
        raise ValueError(f"input {name!r} takes {least} to {most} characters")


def _first(found: list[Msg], predicate: Predicate | None) -> Msg | None:
    return next((m for m in found if not m.loading and (predicate is None or predicate(m))), None)
