"""``/tora rules`` and ``/tora help`` for every game: a ruling by id (R25, TS5, TI15), a piece
or power by name or letter (archer, A, phoenix, monkey), the rulings that mention a word, and
each game's quick start. The texts ship with the bot as package data (``data/``), per game:
``<game>-rulings.md`` (a copy of the rulings we play by), ``<game>-pieces.txt`` (the rule
book's own text of each piece, power or component, headed ``## name | letter | rulings |
other names``) and ``<game>-help.md``. The games are the registry's (``rules.registry``).

A question is answered in the game at hand first (the chosen one, or the match's), then in
the others, so that ``phoenix`` is found from a TORA channel too.

The rulings and the rule book's texts are quoted as the rule books write them (English). A
quick start is in the reader's language: each of its paragraphs (a line starting with
``**`` begins one) is a message of the catalogs (``python -m bot.catalogs update`` extracts
them from ``data/``), and each command in it, in backticks, is shown with the names the
reader's Discord shows (``slash``)."""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass
from importlib import resources

from bot.i18n import N_, _, ngettext, option, slash
from bot.service.texts import listing, quote
from rules.registry import GAMES

_RULING = re.compile(r"^- \*\*([A-Z]{1,3}\d+) ([^*]+?)\.?\*\* ?(.*)$")
# A ruling id at the start of a topic, its letters and number apart or not ("r25", "r 25");
# a topic is at most MAX_QUERY characters.
_ID = re.compile(r"([a-z]{0,3}) ?(\d+)(?= |$)")
_PUNCTUATION = str.maketrans("().,", "    ")
_COMMAND = re.compile(r"`/([^`\n]+)`")  # a command in a quick start: `/tora rules archer`
SEPARATOR = " · "  # between a topic and its game's title, in autocomplete's choices
MOST_FOUND = 12
MAX_QUERY = 100  # characters of a topic
ASK = N_(
    "Ask for a ruling (`R25`, `TS5`), a piece or power (`archer`, `phoenix`, `monkey`) or a "
    "word (`jeopardy`, `promotion`)."
)


@dataclass(frozen=True)
class Ruling:
    id: str
    title: str
    text: str

    def show(self) -> str:
        return f"**{self.id} {self.title}.** {self.text}"


@dataclass(frozen=True)
class Topic:
    """A piece, a power or a component, with the rulings about it and the rule book's text."""

    name: str
    letter: str
    ids: tuple[str, ...]
    aliases: tuple[str, ...]
    text: str

    @property
    def heading(self) -> str:
        named = self.name[0].upper() + self.name[1:]
        return f"{named} ({self.letter})" if self.letter else named


@dataclass(frozen=True)
class Book:
    """One game's rulings and topics."""

    game: str
    title: str
    rulings: dict[str, Ruling]
    topics: dict[str, Topic]

    @functools.cached_property
    def names(self) -> dict[str, Topic]:
        """Every name a topic is asked by (its name, letter and aliases), lower case."""
        found: dict[str, Topic] = {}
        for topic in self.topics.values():
            for name in (topic.name, topic.letter, *topic.aliases):
                if name:
                    found.setdefault(name.lower(), topic)
        return found

    @functools.cached_property
    def prefix(self) -> str:
        """The letters of its ruling ids (``R``, ``TS``, ``TI``)."""
        return re.sub(r"\d", "", next(iter(self.rulings)))

    def ranges(self) -> str:
        """Its ruling ids in runs, in the current language: "R1-R33, R40-R44, R50 and R51"."""
        numbers = sorted(int(key[len(self.prefix) :]) for key in self.rulings)
        runs: list[list[int]] = []
        for number in numbers:
            if runs and number == runs[-1][-1] + 1:
                runs[-1].append(number)
            else:
                runs.append([number])
        shown: list[str] = []
        for run in runs:
            ids = [f"{self.prefix}{number}" for number in run]
            shown += ids if len(ids) < 3 else [f"{ids[0]}-{ids[-1]}"]
        return listing(shown, localized=True)


def _data(name: str) -> str:
    files = resources.files("bot.app").joinpath("data")
    return files.joinpath(name).read_text(encoding="utf-8")


def _rulings(text: str) -> dict[str, Ruling]:
    found: dict[str, Ruling] = {}
    current: list[str] | None = None
    for line in text.splitlines():
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


def _topics(text: str) -> dict[str, Topic]:
    """``## name | letter | ids | aliases`` headings, each followed by its text."""
    heads: list[list[str]] = []
    bodies: list[list[str]] = []
    for line in text.splitlines():
        if line.startswith("## "):
            fields = [field.strip() for field in line[3:].split("|")]
            heads.append([*fields, "", "", ""][:4])
            bodies.append([])
        elif bodies:
            bodies[-1].append(line)
    topics = {}
    for (name, letter, ids, aliases), body in zip(heads, bodies, strict=True):
        others = tuple(alias.strip() for alias in aliases.split(",") if alias.strip())
        text = "\n".join(body).strip()
        topics[name] = Topic(name, letter, tuple(ids.split()), others, text)
    return topics


@functools.cache
def book(game: str) -> Book:
    """The rulings and topics of ``game`` (a registry id)."""
    return Book(
        game,
        GAMES[game].title,
        _rulings(_data(f"{game}-rulings.md")),
        _topics(_data(f"{game}-pieces.txt")),
    )


def books(first: str | None = None) -> list[Book]:
    """Every game's book, ``first`` (the game at hand) first, then the registry's order."""
    order = [first] if first in GAMES else []
    return [book(game) for game in order + [g for g in GAMES if g not in order]]


@functools.cache
def quick_start(game: str) -> tuple[str, ...]:
    """``game``'s quick start (the board, a turn, the main commands) in English, by
    paragraph: each is a message of the catalogs."""
    paragraphs: list[list[str]] = []
    for line in _data(f"{game}-help.md").strip().splitlines():
        if line.startswith("**") or not paragraphs:
            paragraphs.append([])
        paragraphs[-1].append(line)
    return tuple("\n".join(lines) for lines in paragraphs)


def help_paragraphs() -> list[tuple[str, str]]:
    """Every game's quick start paragraphs, each with the file it comes from (for the
    catalogs)."""
    return [(text, f"bot/app/data/{game}-help.md") for game in GAMES for text in quick_start(game)]


def help_text(game: str) -> str:
    """The quick start of ``game`` in the current language, and how to ask for the other
    games'."""
    shown = "\n".join(_COMMAND.sub(_command, _(text)) for text in quick_start(game))
    others = [f"{slash('tora help', f'game:{g}')} ({GAMES[g].title})" for g in GAMES if g != game]
    tail = (
        _("{games} or {last}", games=", ".join(others[:-1]), last=others[-1])
        if len(others) > 1
        else "".join(others)
    )
    return shown + "\n-# " + _("The other games' quick starts: {games}.", games=tail)


def _command(found: re.Match[str]) -> str:
    """A command of a quick start as the reader's Discord names it."""
    return slash(found[1])


# ---- questions ---------------------------------------------------------------------------
def topics(typed: str = "", game: str | None = None) -> list[str]:
    """Everything ``lookup`` answers by name, ``game``'s first (each named with its game:
    "TS5 Promotion · ToriShogi", "Monkey · Torii"), those containing ``typed``."""
    wanted = _key(typed)
    found = []
    for each in books(game):
        found += [f"{r.id} {r.title}{SEPARATOR}{each.title}" for r in each.rulings.values()]
        found += [f"{t.heading}{SEPARATOR}{each.title}" for t in each.topics.values()]
    return [name for name in found if wanted in _key(name)]


def _key(text: str) -> str:
    """``text`` as topics are compared, by ``lookup`` and ``topics`` alike: full-width
    letters and digits as ASCII (NFKC: a Japanese input method's full-width R25 is "R25"),
    lower case, punctuation as spaces, one space between words, and a ruling id at its start with
    its letters joined to its number ("r 25" is "r25")."""
    normal = unicodedata.normalize("NFKC", text)
    key = " ".join(normal.lower().translate(_PUNCTUATION).split())
    found = _ID.match(key)
    if found and any(b.prefix.lower() == found[1] for b in books()):
        return found[1] + key[found.start(2) :]
    return key


def lookup(query: str, game: str | None = None) -> str:
    """The answer to ``/tora rules <query>``, in ``game`` first (None: TORA first). A query
    may end in ``· <game's title>`` (as autocomplete offers it) to name its game."""
    if len(query) > MAX_QUERY:
        return _(
            "A topic is at most {most} characters; yours has {length}. {ask}",
            most=MAX_QUERY,
            length=len(query),
            ask=_(ASK),
        )
    words, named = _split(query)
    game = named or game
    key = _key(words)
    if not key:
        return _(ASK)
    first = key.split(" ")[0]
    found = _ID.match(key)
    if found and (not found[1] or any(b.prefix.lower() == found[1] for b in books())):
        return _ruling(found[1], found[2], game, words)
    topic = _topic(key, game) or _topic(first, game)
    if topic is not None:
        return _show(*topic)
    return _search(words, game)


def _split(query: str) -> tuple[str, str | None]:
    """The topic, and the game a trailing "· <title>" names (as autocomplete offers it)."""
    topic, mark, tail = query.strip().rpartition(SEPARATOR.strip())
    named = tail.strip().lower()
    for each in GAMES.values():
        if mark and named in (each.id, each.title.lower()):
            return topic.strip(), each.id
    return query.strip(), None


def _ruling(prefix: str, number: str, game: str | None, words: str) -> str:
    at_hand = books(game)[0]
    chosen = next((b for b in books(game) if b.prefix.lower() == prefix), at_hand)
    ruling = chosen.rulings.get(f"{chosen.prefix}{int(number)}")
    if ruling is None:
        return _(
            "There is no ruling {ruling}; {game}'s rulings are {rulings}.",
            ruling=quote(words),
            game=chosen.title,
            rulings=chosen.ranges(),
        )
    return f"{ruling.show()}\n-# {chosen.title}"


def _topic(key: str, game: str | None) -> tuple[Book, Topic, list[Book]] | None:
    """The topic ``key`` names in the game at hand first; with the other games that have a
    topic of that name."""
    hits = [(each, each.names[key]) for each in books(game) if key in each.names]
    if not hits:
        return None
    each, topic = hits[0]
    also = [other for other, found in hits[1:] if found.name == key or found.name == topic.name]
    return each, topic, also


def _show(each: Book, topic: Topic, also: list[Book]) -> str:
    shown = "\n".join(each.rulings[i].show() for i in topic.ids if i in each.rulings)
    book_words = _("**The rule book:**")
    text = f"# {topic.heading}{SEPARATOR}{each.title}\n{shown}\n\n{book_words}\n{topic.text}"
    for other in also:
        text += "\n-# " + _(
            "{game} has a {topic} too: {command}.",
            game=other.title,
            topic=topic.name,
            command=slash("tora rules", f"topic:{topic.name}", f"game:{other.game}"),
        )
    return text


def _search(words: str, game: str | None) -> str:
    """The rulings that mention every word (``_mentioning``), in the first game that has any
    (the game at hand first), and which other games have some."""
    terms = [w for w in words.lower().split() if len(w) > 1]
    if not terms:
        return _(ASK)
    found = [(each, _mentioning(each, terms)) for each in books(game)]
    found = [(each, hits) for each, hits in found if hits]
    if not found:
        return _(
            "No ruling of any game mentions {words}. Try a ruling id (`R25`, `TS5`, `TI15`) or "
            "a piece or power (`cannon`, `phoenix`, `monkey`).",
            words=quote(words),
        )
    each, hits = found[0]
    at_hand = books(game)[0]
    lead = ""
    if game is not None and each is not at_hand:
        lead = _(
            "No ruling of {game} mentions {words}; in {other}:",
            game=at_hand.title,
            words=quote(words),
            other=each.title,
        )
        lead += "\n"
    if len(hits) == 1:
        text = f"{lead}{hits[0].show()}\n-# {each.title}"
    else:
        listed = ", ".join(f"{r.id} {r.title}" for r in hits[:MOST_FOUND])
        more = len(hits) - MOST_FOUND
        if more > 0:
            listed = ngettext(
                "{rulings} (and {n} more)", "{rulings} (and {n} more)", more, rulings=listed
            )
        text = lead + _(
            "{words} is in {game}'s {rulings}. Ask for one by its id, e.g. `{ruling}`.",
            words=quote(words),
            game=each.title,
            rulings=listed,
            ruling=hits[0].id,
        )
    others = [f"{other.title} (`{option('game')}:{other.game}`)" for other, _hits in found[1:]]
    if others:
        text += "\n-# " + _("Also in the rulings of {games}.", games=", ".join(others))
    return text


def _mentioning(each: Book, terms: list[str]) -> list[Ruling]:
    """The rulings of ``each`` that hold every term: a short one (up to 3 letters) at a word's
    start ("ts" is not in "its", nor "ten" in "written"), a longer one anywhere ("hill" is in
    "hills" and "uphill")."""
    starts = [re.compile(re.escape(t) if len(t) > 3 else rf"(?<!\w){re.escape(t)}") for t in terms]
    return [
        r
        for r in each.rulings.values()
        if all(start.search(f"{r.title} {r.text}".lower()) for start in starts)
    ]
