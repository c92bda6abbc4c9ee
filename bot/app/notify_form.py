"""``/tora settings`` as a form: a player's notifications (or, for a server's admins, the
server's defaults) as toggles and menus, plain data any front end draws. Each pick sets
one setting and answers with the form again, as it now stands."""

from __future__ import annotations

from dataclasses import dataclass

from bot.i18n import LOCALES, N_, _, autonym, pgettext, slash
from bot.service import MatchService
from bot.service.languages import LanguageChoice
from bot.service.notify import CHOICES, KEYS, OFF, ON, SERVER_KEYS, Notify, choice_words

from .answers import Unusable
from .callers import Caller

ME, SERVER = "me", "sv"  # whose settings a form holds: the caller's, or their server's
LANGUAGE, DISCORD = "language", "discord"  # the language pick; its value "Discord's language"
TOGGLES = {
    "dm_turn": N_("DM on my turn"),
    "mention": N_("Mention me on my turn"),
    "proposals": N_("Proposal DMs"),
}
PICKS = {
    "reminders": N_("Reminders"),
    "quiet": N_("Quiet hours (your time zone)"),
    "digest": N_("Daily digest (instead of turn DMs)"),
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


def form_of(
    scope: str, notify: Notify, timezone: str, language: LanguageChoice, discord_now: str | None
) -> NotifyForm:
    """The form in the current language; ``language`` is the scope's choice, and
    ``discord_now`` the language Discord shows the caller (a server's form: None)."""
    keys = KEYS if scope == ME else SERVER_KEYS
    toggles = tuple(
        Toggle(key, toggle_label(_(label), notify[key] == ON), notify[key] == ON)
        for key, label in TOGGLES.items()
        if key in keys
    )
    picks = tuple(
        Pick(
            key,
            _(placeholder),
            tuple((v, choice_words(key, v), v == notify[key]) for v in CHOICES[key]),
        )
        for key, placeholder in PICKS.items()
        if key in keys
    )
    picks += (language_pick(scope, language, discord_now),)
    shown = language_words(scope, language, discord_now)
    if scope == ME:
        text = _(
            "Your notifications: {settings}. Your time zone: `{zone}` (set it with {command}). "
            "Language of my answers and DMs: {language}. Change them below.",
            settings=notify.words(),
            zone=timezone,
            command=slash("tora settings", "timezone:"),
            language=shown,
        )
    else:
        text = _(
            "This server's default notifications: {settings}. Language of my posts here: "
            "{language}. Change them below.",
            settings=notify.words(SERVER_KEYS),
            language=shown,
        )
    return NotifyForm(scope, text, toggles, picks)


def toggle_label(label: str, on: bool) -> str:
    state = pgettext("setting", "on") if on else pgettext("setting", "off")
    return _("{setting}: {state}", setting=label, state=state)


def language_words(scope: str, language: LanguageChoice, discord_now: str | None) -> str:
    """The language in force, and whether it was chosen or follows Discord."""
    if language.chosen is not None:
        return autonym(language.chosen)
    following = autonym(language.resolved(discord_now))
    if scope == ME:
        return _("{language} (your Discord's language)", language=following)
    return _("{language} (the server's Discord language)", language=following)


def language_pick(scope: str, language: LanguageChoice, discord_now: str | None) -> Pick:
    """Discord's language first, then each shipped language by its own name."""
    if language.chosen is None:
        following = autonym(language.resolved(discord_now))
        first = _("Discord's language ({language})", language=following)
    else:
        first = _("Discord's language")
    options = (
        (DISCORD, first, language.chosen is None),
        *((code, autonym(code), code == language.chosen) for code in LOCALES),
    )
    placeholder = _("Language") if scope == ME else _("Language of the server's posts")
    return Pick(LANGUAGE, placeholder, options)


class NotifyForms:
    def __init__(self, service: MatchService) -> None:
        self.records = service.records

    async def form(self, caller: Caller, scope: str = ME) -> NotifyForm:
        if scope == SERVER:
            guild = _admin_guild(caller)
            notify = await self.records.server_notify(guild)
            language = await self.records.server_language(guild)
            return form_of(SERVER, notify, "UTC", language, caller.guild_locale)
        notify = await self.records.notify_of(caller.user.id, caller.guild_id)
        language = await self.records.player_language(caller.user.id)
        return form_of(ME, notify, notify.timezone, language, caller.locale)

    async def set(self, caller: Caller, scope: str, key: str, value: str) -> NotifyForm:
        """One setting picked in a form: saved, and the form as it now stands (in the
        language just chosen, if the pick was the language)."""
        try:
            if key == LANGUAGE:
                await self._choose_language(caller, scope, value)
            elif scope == SERVER:
                await self.records.set_server_notify(_admin_guild(caller), key, value)
            else:
                await self.records.set_notify(caller.user, key, value)
        except ValueError:
            raise Unusable(_("That setting is not one I know; nothing was changed.")) from None
        return await self.form(caller, scope)

    async def _choose_language(self, caller: Caller, scope: str, value: str) -> None:
        code = None if value == DISCORD else value
        if scope == SERVER:
            await self.records.choose_server_language(_admin_guild(caller), code)
        else:
            await self.records.choose_player_language(caller.user, code)


def _admin_guild(caller: Caller) -> int:
    if caller.in_dm or not caller.guild_id or not caller.admin:
        raise Unusable(
            _("Only a server's admins (Manage Server) set its defaults, in the server itself.")
        )
    return caller.guild_id
