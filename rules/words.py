"""The rules' words, language-free: every text the rules core gives the layers above (a
refusal, an action in plain words, a menu's labels, a prompt) is a ``Text``, its message id
and parameters. The layers above word it in the reader's language (``bot.i18n.word``); the
rules core itself words nothing but the English it is written in.

The message id is the English with named ``{placeholders}``, gettext's way: the catalogs'
extraction (``python -m bot.catalogs update``) reads the ids from the calls of ``msg`` and
``msg_n`` here in ``rules/``, so translators see every rules text beside the bot's, and no
table of ids and wordings can fall out of step with the code.

A ``Text`` is a ``str`` too: its English, byte for byte what the rules said before they
said ids. Whatever only logs, stores or tests a rules text keeps working unchanged, and
whatever shows one to a player words it. A text glued from others must be a ``Text`` of
its own whose parameters are the parts (``listing``), never ``+`` or an f-string, or its
parts' ids are lost. Parameters are notation, numbers, names, game terms (which stay as
the rule books write them) or other ``Text``s."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["Text", "frame", "joined", "listing", "msg", "msg_n"]


class Text(str):
    """English words that keep their message id (``id``, and ``plural`` for a number's
    forms, chosen by ``n``) and parameters, for a reader of another language. The
    parameters are the caller's own mapping (``msg``'s keyword arguments: a fresh dict)."""

    id: str
    plural: str | None
    n: int | None
    params: Mapping[str, Any]

    def __new__(
        cls, id: str, params: Mapping[str, Any], plural: str | None = None, n: int | None = None
    ) -> Text:
        values = params if n is None else {"n": n, **params}
        english = (id if n == 1 or plural is None else plural).format_map(values)
        made = super().__new__(cls, english)
        made.id, made.plural, made.n, made.params = id, plural, n, params
        return made

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its message (a refusal crosses to and from a worker process)."""
        return (Text, (self.id, dict(self.params), self.plural, self.n))

    def __repr__(self) -> str:
        return f"Text({str.__repr__(self)})"


def msg(id: str, /, **params: Any) -> Text:
    """A rules text: ``id`` in English with its ``{placeholders}`` (a literal brace is
    ``{{``), and their values."""
    return Text(id, params)


def msg_n(singular: str, plural: str, n: int, /, **params: Any) -> Text:
    """A rules text with a number: ``{n}`` is ``n``, the form is chosen by each
    language's plural rule (English: ``singular`` for 1)."""
    return Text(singular, params, plural, n)


def frame(form: str, /, **params: Any) -> Text:
    """A text of no language that holds others (``"{reason} ({rule})"``, a quote in
    backticks): not in the catalogs, the same in every language, its parts worded."""
    return Text(form, params)


def listing(items: Sequence[str]) -> str:
    """'a', 'a and b', 'a, b and c': each joint a ``Text`` (languages join lists their own
    way), each item kept as it is (a ``Text`` stays one)."""
    if not items:
        return ""
    head: str = items[0]
    for item in items[1:-1]:
        head = msg("{list}, {item}", list=head, item=item)
    if len(items) > 1:
        head = msg("{list} and {item}", list=head, item=items[-1])
    return head


def joined(parts: Sequence[str]) -> str:
    """'a; b; c': parts said one after another (what stands on a square, then its ground),
    each kept as it is; the joint is the same in every language."""
    head: str = parts[0] if parts else ""
    for part in parts[1:]:
        head = frame("{list}; {item}", list=head, item=part)
    return head
