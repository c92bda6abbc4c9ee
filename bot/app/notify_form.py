"""``/tora settings`` as a form: a player's notifications (or, for a server's admins, the
server's defaults) as toggles and menus, plain data any front end draws. Each pick sets
one setting and answers with the form again, as it now stands."""

from __future__ import annotations

from dataclasses import dataclass

from bot.service import MatchService
from bot.service.notify import CHOICES, KEYS, OFF, ON, SERVER_KEYS, Notify

from .answers import Unusable
from .callers import Caller

ME, SERVER = "me", "sv"  # whose settings a form holds: the caller's, or their server's
TOGGLES = {"dm_turn": "DM on my turn", "mention": "Mention me", "proposals": "Proposal DMs"}
PICKS = {
    "reminders": "Reminders",
    "quiet": "Quiet hours (your time zone)",
    "digest": "Daily digest (instead of turn DMs)",
}


@dataclass(frozen=True)
class Toggle:
    key: str
    label: str
    on: bool

    @property
    def flipped(self) -> str:
        return OFF if self.on else ON


@dataclass(frozen=True)
class Pick:
    key: str
    placeholder: str
    options: tuple[tuple[str, str, bool], ...]  # value, label, chosen


@dataclass(frozen=True)
class NotifyForm:
    scope: str
    text: str
    toggles: tuple[Toggle, ...]
    picks: tuple[Pick, ...]


def form_of(scope: str, notify: Notify, timezone: str) -> NotifyForm:
    keys = KEYS if scope == ME else SERVER_KEYS
    toggles = tuple(
        Toggle(key, f"{label}: {notify[key]}", notify[key] == ON)
        for key, label in TOGGLES.items()
        if key in keys
    )
    picks = tuple(
        Pick(
            key,
            placeholder,
            tuple((value, words, value == notify[key]) for value, words in CHOICES[key].items()),
        )
        for key, placeholder in PICKS.items()
        if key in keys
    )
    whose = "Your notifications" if scope == ME else "This server's default notifications"
    zone = f" Your time zone: `{timezone}` (set it with `/tora settings timezone:`)."
    text = f"{whose}: {notify.words()}.{zone if scope == ME else ''} Change them below."
    return NotifyForm(scope, text, toggles, picks)


class NotifyForms:
    def __init__(self, service: MatchService) -> None:
        self.records = service.records

    async def form(self, caller: Caller, scope: str = ME) -> NotifyForm:
        if scope == SERVER:
            guild = _admin_guild(caller)
            return form_of(SERVER, await self.records.server_notify(guild), "UTC")
        notify = await self.records.notify_of(caller.user.id, caller.guild_id)
        return form_of(ME, notify, notify.timezone)

    async def set(self, caller: Caller, scope: str, key: str, value: str) -> NotifyForm:
        """One setting picked in a form: saved, and the form as it now stands."""
        try:
            if scope == SERVER:
                await self.records.set_server_notify(_admin_guild(caller), key, value)
            else:
                await self.records.set_notify(caller.user, key, value)
        except ValueError:
            raise Unusable("That setting is not one I know; nothing was changed.") from None
        return await self.form(caller, scope)


def _admin_guild(caller: Caller) -> int:
    if caller.in_dm or not caller.guild_id or not caller.admin:
        raise Unusable(
            "Only a server's admins (Manage Server) set its defaults, in the server itself."
        )
    return caller.guild_id
