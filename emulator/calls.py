"""What the bot receives when a test acts as a user: INTERACTION_CREATE payloads, a
slash command's data typed per the synced command, and whether the Discord client would
offer a command to that user at all."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from . import payloads
from .commands import GROUP, SUBCOMMAND
from .interactions import Interaction
from .messages import MAX_UPLOAD
from .models import Channel, Msg, User
from .world import World

Options = list[dict[str, Any]]
Wrap = Callable[[Options], Options]
BOT_DM_CONTEXT = 1


def interaction_payload(
    world: World,
    record: Interaction,
    user: User,
    channel: Channel,
    data: dict[str, Any],
    message: Msg | None = None,
) -> dict[str, Any]:
    """INTERACTION_CREATE: a guild member with its channel permissions, or a DM user."""
    permissions = world.permissions(user.id, channel)
    payload: dict[str, Any] = {
        "id": str(record.id),
        "application_id": str(world.bot.id),
        "type": record.type,
        "data": data,
        "token": record.token,
        "version": 1,
        "channel": world.channel_payload(channel) | {"permissions": str(permissions)},
        "channel_id": str(channel.id),
        "app_permissions": str(world.permissions(world.bot.id, channel)),
        "locale": user.locale,
        "entitlements": [],
        "authorizing_integration_owners": {"0": str(channel.guild_id or 0)},
        "context": 0 if channel.guild_id else BOT_DM_CONTEXT,
        "attachment_size_limit": MAX_UPLOAD,
    }
    if channel.guild_id is None:
        payload["user"] = payloads.user(user)
    else:
        guild = world.guild(channel.guild_id)
        payload["guild_id"] = str(guild.id)
        payload["guild_locale"] = guild.preferred_locale
        payload["guild"] = {"id": str(guild.id), "locale": guild.preferred_locale, "features": []}
        payload["member"] = payloads.member(guild.members[user.id], user, permissions)
    if message is not None:
        payload["message"] = world.message_payload(message)
    return payload


@dataclass
class CommandCall:
    """Turns a test's ``slash(...)`` into the command's ``data``, typed per the synced
    command as the Discord client would, refusing what the client would not send."""

    world: World
    command: dict[str, Any]
    user: User
    channel: Channel
    resolved: dict[str, dict[str, Any]] = field(default_factory=dict)

    def data(self, path: list[str], values: dict[str, Any], focused: str | None) -> dict[str, Any]:
        definitions, wrap = self._walk(path)
        options = self._options(definitions, values, focused)
        data: dict[str, Any] = {
            "id": self.command["id"],
            "name": self.command["name"],
            "type": 1,
            "options": wrap(options),
        }
        if "guild_id" in self.command:
            data["guild_id"] = self.command["guild_id"]
        if self.resolved:
            data["resolved"] = self.resolved
        return data

    def _walk(self, path: list[str]) -> tuple[list[dict[str, Any]], Wrap]:
        """The leaf's option definitions, and how to nest its options under the path."""
        definitions = self.command.get("options") or []
        chain: list[tuple[int, str]] = []
        for name in path:
            match = [
                o for o in definitions if o["name"] == name and o["type"] in (SUBCOMMAND, GROUP)
            ]
            if not match:
                raise ValueError(f"/{self.command['name']} has no subcommand or group {name!r}")
            chain.append((match[0]["type"], name))
            definitions = match[0].get("options") or []
        if any(o["type"] in (SUBCOMMAND, GROUP) for o in definitions):
            raise ValueError(f"/{self.command['name']} {' '.join(path)}: choose a subcommand")

        def wrap(options: list[dict[str, Any]]) -> list[dict[str, Any]]:
            for kind, name in reversed(chain):
                options = [{"type": kind, "name": name, "options": options}]
            return options

        return definitions, wrap

    def _options(
        self, definitions: list[dict[str, Any]], values: dict[str, Any], focused: str | None
    ) -> list[dict[str, Any]]:
        by_name = {o["name"]: o for o in definitions}
        unknown = set(values) - set(by_name)
        if unknown:
            raise ValueError(f"/{self.command['name']} has no option {sorted(unknown)}")
        options = []
        for definition in definitions:
            name = definition["name"]
            if name == focused:
                options.append(
                    {
                        "name": name,
                        "type": definition["type"],
                        "value": str(values.get(name, "")),
                        "focused": True,
                    }
                )
            elif name in values:
                value = self._typed(definition, values[name])
                options.append({"name": name, "type": definition["type"], "value": value})
            elif definition.get("required") and focused is None:
                raise ValueError(f"/{self.command['name']}: option {name!r} is required")
        return options

    def _typed(self, definition: dict[str, Any], value: Any) -> Any:
        kind = definition["type"]
        if kind in (3, 4, 5, 10):
            typed = {3: str, 4: int, 5: bool, 10: float}[kind](value)
            check_bounds(definition, typed)
            return typed
        if kind in (6, 7, 8, 9):
            self._resolve(kind, int(value))
            return str(int(value))
        raise ValueError(f"option type {kind} is not supported by the emulator's slash()")

    def _resolve(self, kind: int, snowflake: int) -> None:
        world = self.world
        guild = world.guilds.get(self.channel.guild_id or 0)
        if kind in (6, 9) and snowflake in world.users:
            user = world.users[snowflake]
            self.resolved.setdefault("users", {})[str(user.id)] = payloads.user(user)
            if guild is not None and user.id in guild.members:
                member = payloads.member(
                    guild.members[user.id], None, world.permissions(user.id, self.channel)
                )
                self.resolved.setdefault("members", {})[str(user.id)] = member
        elif kind in (8, 9) and guild is not None and snowflake in guild.roles:
            self.resolved.setdefault("roles", {})[str(snowflake)] = payloads.role(
                guild.roles[snowflake]
            )
        elif kind == 7 and snowflake in world.channels:
            channel = world.channels[snowflake]
            permissions = str(world.permissions(self.user.id, channel))
            entry = world.channel_payload(channel) | {"permissions": permissions}
            self.resolved.setdefault("channels", {})[str(snowflake)] = entry
        else:
            raise ValueError(f"nothing with id {snowflake} for an option of type {kind}")


def check_bounds(definition: dict[str, Any], value: Any) -> None:
    """What the Discord client enforces before sending: choices, ranges and lengths."""
    choices = [c["value"] for c in definition.get("choices") or []]
    if choices and value not in choices:
        raise ValueError(f"{value!r} is not one of the choices {choices} of {definition['name']!r}")
    low, high = definition.get("min_value"), definition.get("max_value")
    if (low is not None and value < low) or (high is not None and value > high):
        raise ValueError(f"{value!r} is out of range for {definition['name']!r}")
    too_short = isinstance(value, str) and len(value) < (definition.get("min_length") or 0)
    if too_short or (isinstance(value, str) and len(value) > definition.get("max_length", 6000)):
        raise ValueError(f"{value!r} has a length {definition['name']!r} does not allow")


def visible_command(
    world: World, command: dict[str, Any] | None, user: User, channel: Channel
) -> dict[str, Any]:
    """The command, if the Discord client would offer it to that user in that channel."""
    if command is None:
        raise ValueError("no such command: sync the command tree first, or pass options= raw")
    name = command["name"]
    if channel.guild_id is None:
        contexts = command.get("contexts")
        if command.get("dm_permission") is False or (
            contexts is not None and BOT_DM_CONTEXT not in contexts
        ):
            raise ValueError(f"/{name} is not available in DMs")
        return command
    required = command.get("default_member_permissions")
    if required is not None:
        have = world.permissions(user.id, channel)
        if have & int(required) != int(required):
            raise ValueError(f"/{name} is hidden from {user.name}: it needs permissions {required}")
    return command
