"""Discord Activities as far as a bot and its web server meet them (the routes: ``oauth``):
the ``LAUNCH_ACTIVITY`` callback (12) starts an instance in the interaction's channel with
its user in it; what the Discord client does for the Embedded App SDK's ``authorize`` (a
one-use OAuth2 code for a user and scopes, good for ten minutes: ``authorize``, which a test
calls in the client's place); the access tokens the codes were exchanged for."""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field
from typing import Any

TOKEN_LIFETIME = 604_800  # seconds, as Discord gives an access token
CODE_SECONDS = 600.0  # how long an authorization code may wait to be exchanged


@dataclass
class Instance:
    """A running Activity: where (``channel_id``, ``guild_id``: None in a DM) and who."""

    id: str
    launch_id: int
    channel_id: int
    guild_id: int | None
    users: list[int] = field(default_factory=list)


@dataclass
class Activities:
    """The instances, the codes not yet exchanged and the access tokens given."""

    client_secret: str = "emulator-client-secret"
    code_seconds: float = CODE_SECONDS  # a test may shorten it
    instances: dict[str, Instance] = field(default_factory=dict)
    codes: dict[str, tuple[int, tuple[str, ...]]] = field(default_factory=dict)
    issued: dict[str, float] = field(default_factory=dict)  # each code's time.monotonic()
    tokens: dict[str, tuple[int, tuple[str, ...]]] = field(default_factory=dict)
    exchanged: list[str] = field(default_factory=list)  # codes, in the order they were used

    def launch(self, launch_id: int, channel_id: int, guild_id: int | None, user: int) -> Instance:
        kind = "gc" if guild_id is not None else "pc"
        instance_id = f"i-{launch_id}-{kind}-{guild_id or 0}-{channel_id}"
        instance = Instance(instance_id, launch_id, channel_id, guild_id, [user])
        self.instances[instance_id] = instance
        return instance

    def join(self, instance_id: str, user_id: int) -> None:
        """``user_id`` opens the running Activity too (a spectator's "Join")."""
        users = self.instances[instance_id].users
        if user_id not in users:
            users.append(user_id)

    def authorize(self, user_id: int, scopes: tuple[str, ...] = ("identify",)) -> str:
        """What the client answers the SDK's ``authorize`` with: a code for ``user_id``."""
        code = secrets.token_urlsafe(20)
        self.codes[code] = (user_id, scopes)
        self.issued[code] = time.monotonic()
        return code

    def exchange(self, code: str) -> tuple[int, tuple[str, ...]] | None:
        """The user and scopes of ``code``, once, if it has not expired (None: refused)."""
        given = self.codes.pop(code, None)
        issued = self.issued.pop(code, 0.0)
        if given is None or time.monotonic() - issued >= self.code_seconds:
            return None
        self.exchanged.append(code)
        return given

    def user_of(self, authorization: str) -> int | None:
        """The user of an ``Authorization: Bearer <access token>`` with ``identify``."""
        if not authorization.startswith("Bearer "):
            return None
        given = self.tokens.get(authorization.removeprefix("Bearer "))
        return None if given is None or "identify" not in given[1] else given[0]

    def instance_payload(self, instance: Instance, application_id: int) -> dict[str, Any]:
        location: dict[str, Any] = {
            "id": f"{'gc' if instance.guild_id else 'pc'}-{instance.channel_id}",
            "kind": "gc" if instance.guild_id else "pc",
            "channel_id": str(instance.channel_id),
        }
        if instance.guild_id is not None:
            location["guild_id"] = str(instance.guild_id)
        return {
            "application_id": str(application_id),
            "instance_id": instance.id,
            "launch_id": str(instance.launch_id),
            "location": location,
            "users": [str(user) for user in instance.users],
        }
