"""Application commands: the store behind command sync, with Discord's checks."""

from __future__ import annotations

import re
from typing import Any

from .errors import ApiError, invalid_form
from .models import Snowflakes

NAME = re.compile(r"^[-_'\w]{1,32}$")
SUBCOMMAND, GROUP = 1, 2
ENTRY_POINT = 4  # PRIMARY_ENTRY_POINT: an Activity's launcher in the App Launcher
HANDLERS = (1, 2)  # APP_HANDLER, DISCORD_LAUNCH_ACTIVITY
ENTRY_POINT_REMOVED = 50240
MAX_OPTIONS = 25
MAX_COMMANDS = 100
MAX_COMMAND_SIZE = 8000  # characters: a command's names, descriptions and values (command_size)
# The locales Discord takes in name_localizations and description_localizations.
LOCALES = frozenset(
    [
        "id",
        "da",
        "de",
        "en-GB",
        "en-US",
        "es-ES",
        "es-419",
        "fr",
        "hr",
        "it",
        "lt",
        "hu",
        "nl",
        "no",
        "pl",
        "pt-BR",
        "ro",
        "fi",
        "sv-SE",
        "vi",
        "tr",
        "cs",
        "el",
        "bg",
        "ru",
        "uk",
        "hi",
        "th",
        "zh-CN",
        "ja",
        "zh-TW",
        "ko",
    ]
)


class Commands:
    """Global commands under ``None``, guild commands under their guild id."""

    def __init__(self, ids: Snowflakes, application_id: int) -> None:
        self._ids = ids
        self._application_id = application_id
        self._by_scope: dict[int | None, list[dict[str, Any]]] = {}

    def of_scope(self, guild_id: int | None) -> list[dict[str, Any]]:
        return self._by_scope.get(guild_id, [])

    def replace(self, guild_id: int | None, given: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Bulk overwrite (PUT): a command keeps its id if one of that name and type existed."""
        if len(given) > MAX_COMMANDS:
            raise invalid_form("_root", "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
        seen: set[tuple[str, int]] = set()
        for index, command in enumerate(given):
            check_command(command, str(index))
            key = (command["name"], command.get("type", 1))
            if key in seen:
                raise invalid_form(
                    f"{index}.name", "APPLICATION_COMMANDS_DUPLICATE_NAME", "Duplicate name"
                )
            seen.add(key)
        self._check_entry_point(guild_id, given)
        old = {(c["name"], c["type"]): c["id"] for c in self.of_scope(guild_id)}
        stored = [self._stored(c, guild_id, old) for c in given]
        self._by_scope[guild_id] = stored
        return stored

    def _check_entry_point(self, guild_id: int | None, given: list[dict[str, Any]]) -> None:
        """Discord's rules: one Entry Point command, global only, which a bulk overwrite
        may not drop."""
        points = [c for c in given if c.get("type", 1) == ENTRY_POINT]
        if points and guild_id is not None:
            raise invalid_form("_root", "APPLICATION_COMMAND_TYPE_INVALID", "Global only")
        if len(points) > 1:
            raise invalid_form("_root", "APPLICATION_COMMANDS_TOO_MANY", "One Entry Point")
        had = any(c["type"] == ENTRY_POINT for c in self.of_scope(guild_id))
        if had and not points:
            raise ApiError(
                400,
                ENTRY_POINT_REMOVED,
                "You cannot remove this app's Entry Point command in a bulk update operation. "
                "Please include the Entry Point command in your update request or delete it "
                "separately.",
            )

    def _stored(
        self, command: dict[str, Any], guild_id: int | None, old: dict[tuple[str, int], str]
    ) -> dict[str, Any]:
        kind = command.get("type", 1)
        defaults = {
            "type": kind,
            "description": "",
            "options": [],
            "default_member_permissions": None,
            "nsfw": False,
            "integration_types": [0],
            "contexts": None,
        }
        given = {key: value for key, value in command.items() if value is not None}
        stored = defaults | given
        stored["id"] = old.get((command["name"], kind)) or str(self._ids.next())
        stored["application_id"] = str(self._application_id)
        stored["version"] = str(self._ids.next())
        if stored["default_member_permissions"] is not None:  # Discord answers a string
            stored["default_member_permissions"] = str(stored["default_member_permissions"])
        if guild_id is None:
            stored.setdefault("dm_permission", True)
        else:
            stored["guild_id"] = str(guild_id)
        return stored

    def find(self, name: str, guild_id: int | None) -> dict[str, Any] | None:
        """The slash command a user in that guild (or in DMs: ``None``) can see."""
        scopes = [guild_id, None] if guild_id is not None else [None]
        for scope in scopes:
            for command in self.of_scope(scope):
                if command["name"] == name and command["type"] == 1:
                    return command
        return None


def check_command(command: dict[str, Any], path: str) -> None:
    kind = command.get("type", 1)
    check_name(command.get("name", ""), f"{path}.name", lowercase=kind in (1, ENTRY_POINT))
    if kind in (1, ENTRY_POINT):
        check_description(command.get("description", ""), f"{path}.description")
    if kind == ENTRY_POINT and command.get("handler") not in HANDLERS:
        raise invalid_form(f"{path}.handler", "BASE_TYPE_CHOICES", "Value must be one of (1, 2).")
    check_localizations(command, path, lowercase=kind == 1)
    check_options(command.get("options") or [], f"{path}.options", depth=0)
    if kind == 1 and command_size(command) > MAX_COMMAND_SIZE:
        raise invalid_form(
            "_root", "APPLICATION_COMMAND_TOO_LARGE", "Command exceeds maximum size (8000)"
        )


def command_size(entry: dict[str, Any]) -> int:
    """Discord's size of a command: the names, descriptions and values of the command, its
    options (subcommands and groups included) and their choices, each field counted at its
    longest, its own or a localization's."""
    size = _longest(entry, "name") + _longest(entry, "description")
    for option in entry.get("options") or []:
        size += command_size(option)
    for choice in entry.get("choices") or []:
        size += _longest(choice, "name") + len(str(choice.get("value", "")))
    return size


def _longest(entry: dict[str, Any], key: str) -> int:
    texts = [
        str(entry.get(key) or ""),
        *map(str, (entry.get(f"{key}_localizations") or {}).values()),
    ]
    return max(map(len, texts))


def localized(entry: dict[str, Any], key: str, locale: str) -> str:
    """An entry's name (``key``) as a client in ``locale`` shows it."""
    return str((entry.get(f"{key}_localizations") or {}).get(locale, entry.get(key, "")))


def check_localizations(entry: dict[str, Any], path: str, lowercase: bool = True) -> None:
    """Each localized name follows the rules of names, each description those of
    descriptions, every key is a locale Discord has."""
    for key, check in (("name", check_name), ("description", check_description)):
        for locale, text in (entry.get(f"{key}_localizations") or {}).items():
            where = f"{path}.{key}_localizations.{locale}"
            if locale not in LOCALES:
                raise invalid_form(where, "LOCALE_INVALID", f"{locale!r} is not a valid locale")
            if key == "name":
                check_name(str(text), where, lowercase=lowercase)
            else:
                check(str(text), where)


def check_name(name: str, path: str, lowercase: bool = True) -> None:
    if not NAME.match(name) or (lowercase and name != name.lower()):
        raise invalid_form(path, "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")


def check_description(text: str, path: str) -> None:
    if not 1 <= len(text) <= 100:
        raise invalid_form(path, "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")


def check_options(options: list[dict[str, Any]], path: str, depth: int) -> None:
    """Discord's option rules: at most 25, unique names, required ones first, groups
    hold subcommands only, subcommands hold no subcommands, choices at most 25 and
    never with autocomplete."""
    if len(options) > MAX_OPTIONS:
        raise invalid_form(path, "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    kinds = {option["type"] for option in options}
    if kinds & {SUBCOMMAND, GROUP} and kinds - {SUBCOMMAND, GROUP}:
        raise invalid_form(path, "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Mixed subcommands")
    names: set[str] = set()
    optional_seen = False
    for locale in LOCALES:
        shown = [localized(option, "name", locale) for option in options]
        if len(set(shown)) < len(shown):
            raise invalid_form(
                path, "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS", f"Duplicate in {locale}"
            )
    for index, option in enumerate(options):
        where = f"{path}.{index}"
        check_name(option.get("name", ""), f"{where}.name")
        check_description(option.get("description", ""), f"{where}.description")
        if option["name"] in names:
            raise invalid_form(
                f"{where}.name", "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS", "Duplicate"
            )
        names.add(option["name"])
        check_localizations(option, where)
        if option.get("required") and optional_seen:
            raise invalid_form(
                where,
                "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                "Required options must be placed before non-required options",
            )
        optional_seen |= not option.get("required") and option["type"] > GROUP
        check_option_nesting(option, where, depth)
        check_choices(option, where)


def check_option_nesting(option: dict[str, Any], where: str, depth: int) -> None:
    kind = option["type"]
    inner = option.get("options") or []
    if kind == GROUP and (depth > 0 or any(o["type"] != SUBCOMMAND for o in inner)):
        raise invalid_form(where, "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Invalid group")
    if kind == SUBCOMMAND and any(o["type"] in (SUBCOMMAND, GROUP) for o in inner):
        raise invalid_form(where, "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Invalid subcommand")
    if kind in (SUBCOMMAND, GROUP):
        check_options(inner, f"{where}.options", depth + 1)


def check_choices(option: dict[str, Any], where: str) -> None:
    choices = option.get("choices") or []
    if len(choices) > MAX_OPTIONS:
        raise invalid_form(
            f"{where}.choices", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."
        )
    if choices and option.get("autocomplete"):
        raise invalid_form(
            where, "AUTOCOMPLETE_AND_CHOICES", "Autocomplete cannot be set with choices"
        )
    for index, choice in enumerate(choices):
        check_choice(choice, f"{where}.choices.{index}")


def check_choice(choice: dict[str, Any], where: str) -> None:
    """A choice as a command defines it or an autocomplete answers it."""
    names = [choice.get("name", ""), *(choice.get("name_localizations") or {}).values()]
    if not all(1 <= len(str(name)) <= 100 for name in names):
        raise invalid_form(
            f"{where}.name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."
        )
    value = choice.get("value")
    if isinstance(value, str) and len(value) > 100:
        raise invalid_form(
            f"{where}.value", "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length."
        )
