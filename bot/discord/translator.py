"""The slash commands in every shipped language: discord.py's ``Translator`` looks each name,
description and choice up in the catalogs (``bot.i18n``) when ``python -m bot sync`` uploads
the tree. Names, descriptions and choices are told apart by their message context (a name
must satisfy Discord's rules for names, a description is shown as a sentence). The English
stays the command's own (Discord's default); a language without a translation of a text
leaves it out, and Discord shows the English.

discord.py makes the commands' and groups' own texts translatable by itself; a parameter's
name and description and a choice's name only when given as ``locale_str``, which
``localisable`` does for the whole tree, so the command modules keep plain strings."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where
from discord.app_commands import locale_str

from bot.i18n import COMMAND_NAME, LOCALES, SOURCE, autonym, from_discord
from bot.i18n.catalogs import lookup

NAME, DESCRIPTION, CHOICE = COMMAND_NAME, "command description", "command choice"
CONTEXTS = {
    Where.command_name: NAME,
    Where.group_name: NAME,
    Where.parameter_name: NAME,
    Where.command_description: DESCRIPTION,
    Where.group_description: DESCRIPTION,
    Where.parameter_description: DESCRIPTION,
    Where.choice_name: CHOICE,
}

Entry = app_commands.Command[Any, ..., Any] | app_commands.Group


class CatalogTranslator(app_commands.Translator):
    """Each text in the catalog of the Discord locale's nearest shipped language."""

    async def translate(
        self,
        string: locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        return translated(string.message, locale.value, CONTEXTS.get(context.location))


def translated(message: str, discord_locale: str, context: str | None) -> str | None:
    """``message`` of the command tree in the language of ``discord_locale``; None where
    Discord should show the English (an English locale, a language not shipped, a text
    not translated yet)."""
    code = from_discord(discord_locale)
    if code == SOURCE or context is None:
        return None
    found = lookup(code, context, message)
    return None if found == message else found


def entries(tree: app_commands.CommandTree[Any]) -> Iterator[Entry]:
    """Every command and group of the tree, each group before what it holds."""

    def walk(entry: Entry) -> Iterator[Entry]:
        yield entry
        if isinstance(entry, app_commands.Group):
            for child in entry.commands:
                if isinstance(child, (app_commands.Command, app_commands.Group)):
                    yield from walk(child)

    for command in tree.get_commands():
        if isinstance(command, (app_commands.Command, app_commands.Group)):
            yield from walk(command)


def translatable(choice: app_commands.Choice[Any]) -> bool:
    """Every choice but a language's own name (``Deutsch`` is ``Deutsch`` everywhere)."""
    return not (choice.value in LOCALES and str(choice.name) == autonym(str(choice.value)))


def localisable(tree: app_commands.CommandTree[Any]) -> None:
    """Make every parameter's name and description and every choice's name translatable
    (``locale_str``); what discord.py reads and Discord sends back stays the same."""
    for entry in entries(tree):
        if not isinstance(entry, app_commands.Command):
            continue
        params = entry._params  # discord.py keeps a parameter's texts there alone
        for key, param in params.items():
            changed = dataclasses.replace(
                param,
                _rename=locale_str(param.display_name),
                description=locale_str(str(param.description)),
            )
            if param.choices:
                changed.choices = [
                    app_commands.Choice(name=locale_str(str(choice.name)), value=choice.value)
                    if translatable(choice)
                    else choice
                    for choice in param.choices
                ]
            params[key] = changed


def texts(tree: app_commands.CommandTree[Any]) -> Iterator[tuple[str, str, str]]:
    """Every text of the tree as (context, English, where it is): the catalogs' command
    entries, in the tree's order."""
    for entry in entries(tree):
        where = f"/{entry.qualified_name}"
        yield NAME, entry.name, where
        yield DESCRIPTION, entry.description, where
        if not isinstance(entry, app_commands.Command):
            continue
        for param in entry._params.values():
            at = f"{where} {param.display_name}"
            yield NAME, param.display_name, at
            yield DESCRIPTION, str(param.description), at
            for choice in param.choices or ():
                if translatable(choice):
                    yield CHOICE, str(choice.name), at


# Discord's rules for the texts of a command (its API documentation, "Application Commands").
NAME_RULE = re.compile(r"^[-_\w\u0900-\u097F\u0E00-\u0E7F]{1,32}$")
LONGEST_DESCRIPTION, LONGEST_CHOICE = 100, 100


def tree_problems(tree: app_commands.CommandTree[Any], code: str) -> list[str]:
    """What Discord would refuse in the tree's texts in language ``code``: a name that is
    not lowercase letters, digits, ``-`` and ``_`` (32 at most), two names alike at one
    level, a description or choice too long."""
    found: list[str] = []

    def shown(context: str, message: str) -> str:
        return lookup(code, context, message)

    def check_name(name: str, where: str) -> None:
        if not NAME_RULE.fullmatch(name) or name != name.lower() or "\u0000" in name:
            found.append(f"{code} {where}: name {name!r} is not 1-32 lowercase letters, - or _")

    def check_text(text: str, longest: int, what: str, where: str) -> None:
        if not 1 <= len(text) <= longest:
            found.append(f"{code} {where}: {what} {text!r} is {len(text)} long (1-{longest})")

    for entry in entries(tree):
        where = f"/{entry.qualified_name}"
        check_name(shown(NAME, entry.name), where)
        check_text(shown(DESCRIPTION, entry.description), LONGEST_DESCRIPTION, "description", where)
        level: list[str] = []
        if isinstance(entry, app_commands.Group):
            level = [shown(NAME, child.name) for child in entry.commands]
        else:
            for param in entry._params.values():
                at = f"{where} {param.display_name}"
                check_name(shown(NAME, param.display_name), at)
                described = shown(DESCRIPTION, str(param.description))
                check_text(described, LONGEST_DESCRIPTION, "description", at)
                for choice in param.choices or ():
                    check_text(shown(CHOICE, str(choice.name)), LONGEST_CHOICE, "choice", at)
            level = [shown(NAME, param.display_name) for param in entry._params.values()]
        twice = sorted({name for name in level if level.count(name) > 1})
        if twice:
            found.append(f"{code} {where}: the names {twice} stand twice at one level")
    return found
