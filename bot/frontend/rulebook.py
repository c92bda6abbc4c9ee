"""``/tora rules``: a ruling by id (R25), a piece by name or letter (archer, A), or a word
found in the rulings. The texts ship with the bot as package data (``data/``): the rulings
we play by, and the rule book's own descriptions of the pieces."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from importlib import resources

from bot.service.texts import quote

_RULING = re.compile(r"^- \*\*(R\d+) ([^*]+?)\.?\*\* ?(.*)$")
PIECES = {
    "general": ("G", ("R13",)),
    "ruler": ("K/Q", ("R14", "R24")),
    "archer": ("A", ("R15", "R17")),
    "soldier": ("S", ("R16", "R17")),
    "cavalry": ("H", ("R18",)),
    "cannon": ("C", ("R19", "R20", "R21", "R22")),
    "assassin": ("X", ("R40", "R41", "R42", "R43", "R44")),
}
ALIASES = {
    "g": "general",
    "k": "ruler",
    "q": "ruler",
    "king": "ruler",
    "queen": "ruler",
    "a": "archer",
    "s": "soldier",
    "h": "cavalry",
    "horse": "cavalry",
    "horseman": "cavalry",
    "horsemen": "cavalry",
    "c": "cannon",
    "catapult": "cannon",
    "x": "assassin",
}
MOST_FOUND = 12


@dataclass(frozen=True)
class Ruling:
    id: str
    title: str
    text: str

    def show(self) -> str:
        return f"**{self.id} {self.title}.** {self.text}"


def _data(name: str) -> str:
    return (
        resources.files("bot.frontend").joinpath("data").joinpath(name).read_text(encoding="utf-8")
    )


@functools.cache
def rulings() -> dict[str, Ruling]:
    found: dict[str, Ruling] = {}
    current: list[str] | None = None
    for line in _data("rulings.md").splitlines():
        match = _RULING.match(line)
        if match:
            current = [match[1], match[2], match[3]]
            found[match[1]] = Ruling(*current)
        elif current is not None and line.startswith("  ") and line.strip():
            current[2] += " " + line.strip()
            found[current[0]] = Ruling(*current)
        else:
            current = None
    return found


@functools.cache
def piece_texts() -> dict[str, str]:
    """The rule book's description of each piece, by name."""
    texts: dict[str, list[str]] = {}
    name = None
    for line in _data("pieces.txt").splitlines():
        if line.startswith("## "):
            name = line[3:].strip()
            texts[name] = []
        elif name is not None:
            texts[name].append(line)
    return {key: "\n".join(lines).strip() for key, lines in texts.items()}


def topics() -> list[str]:
    """Everything ``lookup`` answers by name: ruling ids with titles, and piece names."""
    return [f"{r.id} {r.title}" for r in rulings().values()] + [
        f"{name} ({letter})" for name, (letter, _ids) in PIECES.items()
    ]


MAX_QUERY = 100  # characters of a topic


def lookup(query: str) -> str:
    """The answer to ``/tora rules <query>``."""
    if len(query) > MAX_QUERY:
        return (
            f"A topic is at most {MAX_QUERY} characters; yours has {len(query)}. Ask for a "
            "ruling (`R25`), a piece (`archer`, `A`) or a word (`jeopardy`, `water`)."
        )
    words = query.strip()
    key = words.lower().split(" ")[0].strip("().,") if words else ""
    if re.fullmatch(r"r?\d+", key):
        ruling = rulings().get("R" + key.lstrip("r"))
        if ruling is None:
            return (
                f"There is no ruling {quote(words)}; the rulings are R1-R33, R40-R44, R50 and R51."
            )
        return ruling.show()
    name = ALIASES.get(key, key)
    if name in PIECES:
        letter, ids = PIECES[name]
        shown = "\n".join(rulings()[i].show() for i in ids)
        book = piece_texts()[name]
        return f"# {name.capitalize()} ({letter})\n{shown}\n\n**The rule book:**\n{book}"
    return _search(words)


def _search(words: str) -> str:
    terms = [w for w in words.lower().split() if len(w) > 1]
    if not terms:
        return "Ask for a ruling (`R25`), a piece (`archer`, `A`) or a word (`jeopardy`, `water`)."
    hits = [r for r in rulings().values() if all(t in f"{r.title} {r.text}".lower() for t in terms)]
    if not hits:
        return f"No ruling mentions {quote(words)}. Try a ruling id (`R25`) or a piece (`cannon`)."
    if len(hits) == 1:
        return hits[0].show()
    listed = ", ".join(f"{r.id} {r.title}" for r in hits[:MOST_FOUND])
    more = f" (and {len(hits) - MOST_FOUND} more)" if len(hits) > MOST_FOUND else ""
    return f"{quote(words)} is in {listed}{more}. Ask for one by its id, e.g. `{hits[0].id}`."
