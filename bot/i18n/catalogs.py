"""The catalogs: one gettext ``.po`` file per shipped language under ``locales/``, read with
Babel when a language is first needed (compiled in memory: a fresh clone needs no build
step), and the checks a translator runs (``python -m bot.catalogs check``) and the tests
assert: every message of the template translated, with the same placeholders, in as many
plural forms as the language has (CLDR, as Babel knows them)."""

from __future__ import annotations

import io
import string
from functools import cache
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

SOURCE = "en"  # the language the code is written in: its texts are the message ids
DOMAIN = "tora"
HERE = Path(__file__).resolve().parent
LOCALE_DIR = HERE / "locales"
TEMPLATE = HERE / f"{DOMAIN}.pot"


def po_path(code: str, root: Path = LOCALE_DIR) -> Path:
    return root / code / "LC_MESSAGES" / f"{DOMAIN}.po"


def shipped(root: Path = LOCALE_DIR) -> tuple[str, ...]:
    """English and every language with a catalog under ``root``: a language is added by
    adding its catalog (docs/TRANSLATING.md), nothing else."""
    found = sorted(path.parent.parent.name for path in root.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))
    return (SOURCE, *(code for code in found if code != SOURCE))


LOCALES = shipped()


def read(path: Path, code: str | None = None) -> Catalog:
    with path.open("rb") as file:
        return read_po(file, locale=code, domain=DOMAIN)


@cache
def translations(code: str) -> NullTranslations:
    """A language's translations (English, and any language not shipped: the ids as they
    are). Fuzzy entries are left out: their English shows until a translator confirms."""
    path = po_path(code)
    if code == SOURCE or code not in LOCALES or not path.is_file():
        return NullTranslations()
    buffer = io.BytesIO()
    write_mo(buffer, read(path, code), use_fuzzy=False)
    buffer.seek(0)
    return Translations(buffer, domain=DOMAIN)


def lookup(code: str, context: str | None, message: str) -> str:
    """``message`` (in ``context``) in language ``code``, placeholders unfilled; the
    English where there is no translation."""
    table = translations(code)
    found = table.gettext(message) if context is None else table.pgettext(context, message)
    return str(found)


def load_all() -> None:
    """Read every shipped catalog now (the bot's start), not at the first answer in each
    language, which must come within Discord's seconds."""
    for code in LOCALES:
        translations(code)


class BadPlaceholder(ValueError):
    """A text whose braces are not plain ``{name}`` fields (nor ``{{``/``}}``)."""


def placeholders(text: str) -> frozenset[str]:
    """The names of ``text``'s ``{name}`` fields; BadPlaceholder for an empty, positional,
    attribute, index or formatted field, or a lone brace."""
    try:
        fields = list(string.Formatter().parse(text))
    except ValueError as exc:
        raise BadPlaceholder(f"{text!r}: {exc}") from None
    names = set()
    for _literal, name, spec, conversion in fields:
        if name is None:
            continue
        if not name.isidentifier() or spec or conversion:
            raise BadPlaceholder(f"{text!r}: {{{name}}} is not a plain {{name}} placeholder")
        names.add(name)
    return frozenset(names)


def _ids(message: Message) -> tuple[str, ...]:
    return tuple(message.id) if isinstance(message.id, (list, tuple)) else (message.id,)


def _strings(message: Message) -> tuple[str, ...]:
    if isinstance(message.string, (list, tuple)):
        return tuple(message.string)
    return (message.string or "",)


def message_problems(message: Message, forms: int) -> list[str]:
    """What is wrong with one translated message (its English is the reference)."""
    where = f"{message.id!r}" + (f" (context {message.context!r})" if message.context else "")
    ids, strings = _ids(message), _strings(message)
    if message.fuzzy:
        return [f"{where}: marked fuzzy (check it, then remove the fuzzy flag)"]
    if not all(strings):
        return [f"{where}: not translated"]
    if len(ids) > 1 and len(strings) != forms:
        return [f"{where}: {len(strings)} plural forms, the language has {forms}"]
    try:
        wanted = frozenset().union(*(placeholders(text) for text in ids))
    except BadPlaceholder as exc:
        return [f"the English text {exc}"]
    found = []
    for text in strings:
        try:
            names = placeholders(text)
        except BadPlaceholder as exc:
            found.append(f"{where}: {exc}")
            continue
        plural_n = {"n"} if len(ids) > 1 else set()  # a form may leave out the count
        if names - wanted or wanted - names - plural_n:
            found.append(
                f"{where}: placeholders {sorted(names)} in {text!r}, the English has "
                f"{sorted(wanted)}"
            )
    return found


def problems(code: str, root: Path = LOCALE_DIR, template: Path = TEMPLATE) -> list[str]:
    """Everything a language's catalog lacks or gets wrong against the template: each
    a line a translator can act on. Empty: the language is complete."""
    path = po_path(code, root)
    if not path.is_file():
        return [f"{path}: no catalog"]
    catalog, expected = read(path, code), read(template)
    forms = get_plural(code).num_plurals
    found = []
    if catalog.num_plurals != forms:
        found.append(
            f"{path}: Plural-Forms gives {catalog.num_plurals} forms, CLDR's rule for {code} "
            f"has {forms} ({get_plural(code).plural_expr})"
        )
    for wanted in expected:
        if not wanted.id:
            continue
        message = catalog.get(wanted.id, wanted.context)
        if message is None:
            found.append(f"{path}: {wanted.id!r} is missing (run `make catalogs`)")
        else:
            found.extend(f"{path}: {problem}" for problem in message_problems(message, forms))
    gone = [m.id for m in catalog if m.id and expected.get(m.id, m.context) is None]
    found.extend(f"{path}: {gone_id!r} is no longer used (run `make catalogs`)" for gone_id in gone)
    return found
