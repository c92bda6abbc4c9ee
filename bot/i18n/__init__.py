"""Every text in the reader's language: gettext catalogs (``locales/<code>/LC_MESSAGES/
tora.po``, read with Babel at first use, no build step) and the language of the text being
made, held in a context variable that each front end's entry sets (``speaking``).

A text is written in English in the code and looked up at the moment it is made:
``_("Your turn in {match}", match=name)``, ``ngettext("{n} day", "{n} days", n)`` (``n`` is
given to the text too), ``pgettext("command name", "challenge")`` where one English word
must be told apart. Placeholders are ``{name}`` (str.format's named fields, nothing else:
the catalog check refuses any other). ``N_`` marks a constant for extraction; it is looked
up with ``_`` where it is shown.

The language: ``current()``; ``speaking(code)`` for the texts made inside it (an ephemeral
answer: the caller's language; a public post: the server's; a DM: its reader's). Codes are
Babel's (``en``, ``de``, ``fr``, ``es``, ``ja``, ``pt_BR``); ``from_discord`` maps a
Discord locale (``en-US``, ``es-419``, ``pt-BR``...) to the nearest shipped one, English
when none is near. This package knows nothing of Discord, storage or a game."""

from __future__ import annotations

import contextlib
import contextvars
import re
import string
from collections.abc import Iterator
from functools import cache
from typing import Any

from babel import Locale, UnknownLocaleError

from rules.words import Text

from .catalogs import LOCALES, SOURCE, TEMPLATE, lookup, read, translations

__all__ = [
    "COMMAND_NAME",
    "LOCALES",
    "N_",
    "OWN_COMMANDS",
    "SOURCE",
    "_",
    "autonym",
    "current",
    "from_discord",
    "kept",
    "known",
    "ngettext",
    "option",
    "own_command",
    "pgettext",
    "slash",
    "speaking",
    "word",
]

COMMAND_NAME = "command name"  # the context of a slash command's, group's or option's name
_LOCALE: contextvars.ContextVar[str] = contextvars.ContextVar("tora_locale", default=SOURCE)


def current() -> str:
    """The language of the texts being made now."""
    return _LOCALE.get()


@contextlib.contextmanager
def speaking(code: str | None) -> Iterator[str]:
    """Make the texts inside in ``code`` (a shipped language; English for any other or
    None), then go back to the language before."""
    chosen = code if code in LOCALES else SOURCE
    token = _LOCALE.set(chosen)
    try:
        yield chosen
    finally:
        _LOCALE.reset(token)


def known(code: str | None) -> str | None:
    """``code`` if it is a shipped language's, else None (a stored choice gone stale)."""
    return code if code in LOCALES else None


def from_discord(code: str | None) -> str:
    """The shipped language nearest a Discord locale: the exact one (``pt-BR``), else its
    language (``es-419``, ``es-ES`` -> ``es``; ``en-GB`` -> ``en``), else English."""
    if not code:
        return SOURCE
    name = code.replace("-", "_")
    if name in LOCALES:
        return name
    language = name.split("_")[0].lower()
    if language in LOCALES:
        return language
    return next((c for c in LOCALES if c.split("_")[0] == language), SOURCE)


@cache
def autonym(code: str) -> str:
    """A language's own name for itself, as a menu offers it (``Deutsch``, ``日本語``,
    ``Português (Brasil)``), from CLDR."""
    try:
        name = Locale.parse(code).get_display_name(code) or code
    except (ValueError, UnknownLocaleError):
        return code
    return name[:1].upper() + name[1:]


def N_(message: str) -> str:  # noqa: N802 - gettext's own name for the marker
    """Mark a constant for extraction; it is translated where it is shown (``_``)."""
    return message


def _(message: str, /, **params: Any) -> str:
    """``message`` in the current language, its ``{placeholders}`` filled."""
    return _fill(lookup(current(), None, message), message, params)


def pgettext(context: str, message: str, /, **params: Any) -> str:
    """``message`` in its ``context`` (where one English text needs two translations)."""
    return _fill(lookup(current(), context, message), message, params)


def ngettext(singular: str, plural: str, n: int, /, **params: Any) -> str:
    """The form of ``singular``/``plural`` for ``n`` by the language's plural rule (CLDR),
    with ``{n}`` and the other placeholders filled."""
    found = str(translations(current()).ngettext(singular, plural, n))
    return _fill(found, singular if n == 1 else plural, {"n": n, **params})


def word(text: str) -> str:
    """A text of the rules core (``rules.words.Text``: a message id and parameters, its
    parts worded too) in the current language; any other text as it is (notation, a name,
    a text already worded). A message the catalogs lack (a frame of no language) keeps its
    English form around its worded parts."""
    if not isinstance(text, Text):
        return text
    if text.n is not None and text.plural is not None:  # its parameters worded in ``_fill``
        return ngettext(text.id, text.plural, text.n, **text.params)
    return _(text.id, **text.params)


def kept(text: str) -> str:
    """A rules text kept as its English (an outcome's reason, stored with its match as
    "resignation") made a rules text again, worded where it is shown (``word``, or as a
    message's parameter): in the reader's language when the catalogs hold it as a message
    of its own (every reason the rules give is one), or as a message with numbers in it
    ("reached the target of 30 points"); as it is where they do not. A text still a
    ``Text``, or with braces (no message id has them unescaped), stays as it is."""
    if isinstance(text, Text) or "{" in text or "}" in text:
        return text
    if any(c.isdigit() for c in text):
        for pattern, message, names in _numbered():
            found = pattern.fullmatch(text)
            if found is not None:
                numbers = (int(value) for value in found.groups())
                return Text(message, dict(zip(names, numbers, strict=True)))
    return Text(text, {})


@cache
def _numbered() -> tuple[tuple[re.Pattern[str], str, tuple[str, ...]], ...]:
    """The template's messages with placeholders, as patterns that take a number in each
    (read once, when a kept text with a number is first shown)."""
    found = []
    for message in read(TEMPLATE):
        if not isinstance(message.id, str) or "{" not in message.id:
            continue
        parts = list(string.Formatter().parse(message.id))
        names = tuple(name for _, name, _, _ in parts if name)
        if not names or any(not name.isidentifier() for name in names):
            continue
        pattern = "".join(re.escape(t) + (r"(\d+)" if n else "") for t, n, _, _ in parts)
        found.append((re.compile(pattern), message.id, names))
    return tuple(found)


def _fill(text: str, source: str, params: dict[str, Any]) -> str:
    """``text`` with its placeholders filled (every text is a format string: ``{{`` is a
    brace); a translation that does not fit its parameters (the catalog check stops any
    from shipping) falls back to the English. A parameter that is a rules text is worded in
    the same language, as the rest of the sentence."""
    params = {k: word(v) if isinstance(v, Text) else v for k, v in params.items()}
    try:
        return text.format_map(params)
    except (KeyError, IndexError, ValueError, AttributeError):
        return source.format_map(params)


def slash(command: str, *options: str) -> str:
    """A slash command as the reader's Discord shows it, in backticks: ``slash("tora
    settings", "timezone:Europe/Paris")`` (or ``slash("tora settings timezone:Europe/Paris")``)
    is `` `/tora einstellungen zeitzone:Europe/Paris` `` in German, and ``slash("tora ladder
    queue")`` `` `/tora-rangliste warteschlange` `` (``own_command``). Each name is the one
    the commands are synced with (their catalog entries); what follows an option's ``:`` is
    kept as it is."""
    code = current()
    words = []
    for word in [*own_command(command.split()), *options]:
        name, colon, value = word.partition(":")
        words.append(f"{lookup(code, COMMAND_NAME, name)}{colon}{value}")
    return "`/" + " ".join(words) + "`"


# The groups of ``/tora``'s commands that are slash commands of their own, ``/tora-<group>``:
# Discord counts a command's names, descriptions and choices (its subcommands', options' and
# their localizations' longest) against 8,000 characters, which one ``/tora`` would pass.
OWN_COMMANDS = ("match", "ladder", "tournament", "admin")


def own_command(path: list[str]) -> list[str]:
    """A command's names from ``tora`` down (``tora ladder queue``) as Discord has them
    (``tora-ladder queue``): a group of ``OWN_COMMANDS`` is a command of its own."""
    if len(path) > 1 and path[0] == "tora" and path[1] in OWN_COMMANDS:
        return [f"tora-{path[1]}", *path[2:]]
    return path


def option(name: str) -> str:
    """An option's name as the reader's Discord shows it (``until`` is ``bis`` in German),
    for a text that shows how to type it: ``_("`{until}:2027-03-08`", until=option("until"))``."""
    return lookup(current(), COMMAND_NAME, name)
