"""``python -m bot.catalogs``: the message catalogs' tools (docs/TRANSLATING.md).

- ``update``: extract every text from the code (Babel, as ``babel.cfg`` says) and the slash
  commands (their names, descriptions, options and choices) and the games' quick starts
  (``bot/app/data/<game>-help.md``, a message per paragraph) into ``bot/i18n/tora.pot``,
  then bring each language's ``tora.po`` up to it (new texts empty, changed ones marked
  fuzzy, gone ones dropped). ``make catalogs`` runs it.
- ``check [LANG...]``: what each catalog lacks or gets wrong (missing, fuzzy, placeholders,
  plural forms, the commands' texts Discord would refuse); exits 1 if anything is.
- ``init LANG``: a new language's catalog (a Babel locale code: ``it``, ``zh_Hans``...)."""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from pathlib import Path

from babel import Locale, UnknownLocaleError
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import write_po

from bot.app.rulebook import help_paragraphs
from bot.discord.client import ENTRY_POINT, unbound_tree
from bot.discord.translator import DESCRIPTION, LONGEST_DESCRIPTION, texts, tree_problems
from bot.i18n.catalogs import (
    DOMAIN,
    LOCALE_DIR,
    TEMPLATE,
    lookup,
    po_path,
    problems,
    read,
    shipped,
)

ROOT = Path(__file__).resolve().parent.parent
CONFIG = ROOT / "babel.cfg"
HEADER = "# The texts of tora-bot (docs/TRANSLATING.md).\n"
# The catalogs' headers keep one date: git keeps their history, and two branches that both
# update the catalogs would otherwise conflict on it.
DATE = dt.datetime(2026, 11, 26, tzinfo=dt.UTC)
# The rules core's markers (``rules.words``): its texts are ids the layers above word.
KEYWORDS = {**DEFAULT_KEYWORDS, "msg": None, "msg_n": (1, 2)}
QUICK_START = (
    "A paragraph of /tora help. Break its lines where they read well; keep each command in "
    "backticks (`/tora rules archer`) in English: it is shown in the reader's Discord's names."
)


def template() -> Catalog:
    """Every text to translate: the code's (``_``, ``ngettext``, ``pgettext``, ``N_``, and
    the rules core's ``msg`` and ``msg_n``) in
    the order of the files, then the quick starts' paragraphs, then the slash commands'."""
    catalog = Catalog(domain=DOMAIN, project="tora-bot", header_comment=HEADER, creation_date=DATE)
    with CONFIG.open(encoding="utf-8") as file:
        # Babel's own reader of babel.cfg (it has no type hints)
        method_map, options_map = parse_mapping_cfg(file, str(CONFIG))  # type: ignore[no-untyped-call]
    found = extract_from_dir(
        ROOT, method_map, options_map, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",)
    )
    for filename, lineno, message, comments, context in found:
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    for message, where in help_paragraphs():
        catalog.add(message, None, [(where, 0)], auto_comments=[QUICK_START])
    point = (DESCRIPTION, ENTRY_POINT["description"], "the Activity's Entry Point command")
    for context, message, where in [*texts(unbound_tree()), point]:
        known = catalog.get(message, context)
        if known is None:
            catalog.add(message, None, auto_comments=[where], context=context)
        elif where not in known.auto_comments:
            known.auto_comments.append(where)
    return catalog


def write(catalog: Catalog, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as file:
        write_po(file, catalog, width=100, include_lineno=False, ignore_obsolete=True)


def update() -> int:
    made = template()
    write(made, TEMPLATE)
    for code in shipped()[1:]:
        catalog = read(po_path(code), code)
        catalog.update(made)
        write(catalog, po_path(code))
    print(f"{len(made)} texts in {TEMPLATE.relative_to(ROOT)}; catalogs updated: "
          f"{', '.join(shipped()[1:])}")  # fmt: skip
    return 0


def init(code: str) -> int:
    """A new, empty catalog for ``code``, with its plural rule from CLDR."""
    try:
        Locale.parse(code)
    except (ValueError, UnknownLocaleError):
        print(f"{code!r} is not a locale Babel knows (e.g. it, zh_Hans, pt_PT)", file=sys.stderr)
        return 2
    path = po_path(code)
    if path.exists():
        print(f"{path.relative_to(ROOT)} already exists", file=sys.stderr)
        return 2
    catalog = Catalog(locale=code, domain=DOMAIN, project="tora-bot", header_comment=HEADER)
    catalog.update(read(TEMPLATE))
    write(catalog, path)
    print(f"made {path.relative_to(ROOT)}: translate it, then `python -m bot.catalogs check`")
    return 0


def check(codes: list[str]) -> int:
    found = []
    commands = unbound_tree()
    for code in codes or list(shipped()[1:]):
        found += problems(code)
        if po_path(code).is_file():
            found += tree_problems(commands, code) + entry_point_problems(code)
    for line in found:
        print(line)
    print(f"{len(found)} problem(s)" if found else "every catalog is complete")
    return 1 if found else 0


def entry_point_problems(code: str) -> list[str]:
    """The Entry Point command's description in language ``code``, if Discord would refuse
    it (as ``tree_problems`` says of the slash commands')."""
    shown = lookup(code, DESCRIPTION, ENTRY_POINT["description"])
    if 1 <= len(shown) <= LONGEST_DESCRIPTION:
        return []
    return [f"{code} Entry Point: description {shown!r} is {len(shown)} long (1-100)"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.catalogs", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("update", help="extract the texts and update every catalog")
    checking = commands.add_parser("check", help="check the catalogs (all, or those named)")
    checking.add_argument("languages", nargs="*", help=f"e.g. de pt_BR (in {LOCALE_DIR.name}/)")
    starting = commands.add_parser("init", help="start a new language's catalog")
    starting.add_argument("language", help="a locale code, e.g. it or zh_Hans")
    args = parser.parse_args(argv)
    if args.command == "update":
        return update()
    if args.command == "init":
        return init(args.language)
    return check(args.languages)


if __name__ == "__main__":
    sys.exit(main())
